// The diagrams of a declared flow, for people: what the user goes through, without the edges the engine
// takes by itself; every edge on request. Asking states list their form's fields.
import { ask, defineFlowTool, field, review } from '@roundtrip/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exportMachine } from '../src/machine-export.ts';
import { toMermaid } from '../src/mermaid.ts';
import { toSvg } from '../src/svg.ts';

const meeting = defineFlowTool({
  name: 'book_meeting',
  description: 'Books a meeting',
  input: z.object({}),
  steps: {
    when: ask({
      message: 'When?',
      fields: { date: field.text({ title: 'Date', format: 'date' }), attendees: field.integer({ title: 'Attendees', min: 1 }) },
      check: ({ answer }) => (answer.date < '2026-01-01' ? 'that date is in the past' : undefined),
    }),
    room: ask({ message: 'Which room?', fields: { room: field.select({ options: ['big', 'hall'] }) }, onDecline: 'back' }),
    confirm: review({ message: 'Book it?' }),
  },
  final: () => ({ text: 'Booked' }),
});

const INTERNAL = /answeredBefore|keptAnswerFails|cameFrom/;

describe('the diagrams of a declared flow', () => {
  it('by default leave out the engine’s own edges, draw going back as one back edge, and list each form’s fields', async () => {
    const exported = exportMachine(meeting);
    const mermaid = toMermaid(exported.userView, { questions: { when: 'When?' }, fields: exported.fields });
    expect(mermaid).not.toMatch(INTERNAL);
    expect(mermaid.split('\n')).toEqual(
      expect.arrayContaining([
        '  room --> when : room.decline [back]',
        '  when --> when : when.accept [answerFails(form=when)] / rememberProblem',
        '    asks when#58; #quot;When?#quot;',
        '    fields#58; Date, Attendees',
        '    asks room',
        '    fields#58; room',
      ]),
    );
    const svg = await toSvg(exported.userView, { fields: exported.fields });
    expect(svg).not.toMatch(INTERNAL);
    expect(svg).toContain('fields: Date, Attendees');
  });

  it('draw every edge from the whole config, which is what the JSON files hold', () => {
    const exported = exportMachine(meeting);
    const mermaid = toMermaid(exported.config);
    expect(mermaid).toMatch(/answeredBefore/);
    expect(mermaid).toMatch(/keptAnswerFails/);
    expect(mermaid).toContain('room --> when : room.decline [cameFrom(step=when)]');
  });
});
