// A form question's choices (FormView.choices): a text field shown, in this context, as a titled single select of
// exactly the options the question's `form` computes from the context (a flow's loaded rooms); what only text has
// (lengths, format) is left out of that field; a field without choices is shown as declared.
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '../src/index.ts';
import { inputRequired, makeEngine } from './support.ts';

type Ctx = { rooms: { id: string; name: string }[] };
const questions = defineQuestions<Ctx>()({
  pick: {
    message: 'Which room?',
    schema: z.object({ room: z.string().min(2).max(20), note: z.string().max(100) }),
    form: ({ context }) => ({ choices: { room: context.rooms.map((r) => ({ const: r.id, title: r.name })) } }),
  },
});

const tool = defineTool({
  name: 'pick_room',
  description: 'Picks a room among those given',
  input: z.object({ rooms: z.array(z.object({ id: z.string(), name: z.string() })) }),
  questions,
  machine: setup({
    types: {
      context: {} as Ctx,
      input: {} as Ctx,
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { text: string },
    },
  }).createMachine({
    id: 'pick-room',
    context: ({ input }) => ({ rooms: input.rooms }),
    initial: 'asking',
    states: {
      asking: { meta: { ask: ['pick'] }, on: { 'pick.*': 'done' } },
      done: { type: 'final', output: () => ({ text: 'ok' }) },
    },
    output: ({ event }) => event.output as { text: string },
  }),
  result: (output) => ({ text: output.text }),
});

describe('form choices', () => {
  it('shows a text field as a titled select of the options computed for the context, without its text-only keywords', async () => {
    const { call } = makeEngine([tool]);
    const rooms = [
      { id: 'orion', name: 'Orion (20)' },
      { id: 'hall', name: 'Auditorium (120)' },
    ];
    const asked = inputRequired(await call({ name: 'pick_room', arguments: { rooms } }));
    const form = asked.inputRequests?.pick as { params: { requestedSchema: { properties: Record<string, Record<string, unknown>> } } };
    const { room, note } = form.params.requestedSchema.properties;
    expect(room).toEqual({
      type: 'string',
      oneOf: [
        { const: 'orion', title: 'Orion (20)' },
        { const: 'hall', title: 'Auditorium (120)' },
      ],
    });
    expect(note).toMatchObject({ type: 'string', maxLength: 100 });
  });
});
