// What conversationsOf says a finished conversation answered, whatever kind of step asked: a step with a
// sync check, and one whose async check makes it a compound state (asking, checking).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, field } from '../src/index.ts';
import { conversationsOf } from '../src/testing/index.ts';

const later = <T>(value: T) => Promise.resolve().then(() => value);

describe('conversationsOf: the answers of a finished conversation', () => {
  it('include the answer of a step whose check is async, as they do for a sync one', () => {
    const tool = defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({}),
      steps: {
        size: ask({ message: 'How many?', fields: { people: field.integer({ min: 1, max: 3 }) }, check: () => undefined }),
        room: ask({
          message: 'Which room?',
          fields: { room: field.select({ options: ['big'] }) },
          check: async () => later(undefined),
        }),
      },
      final: ({ answers }) => ({ text: `${answers.size?.people} in ${answers.room?.room}` }),
    });
    const done = conversationsOf(tool, { input: {} }).find((c) => c.end.status === 'done');
    expect(done?.end).toEqual({ status: 'done', answers: { size: { people: expect.any(Number) }, room: { room: 'big' } } });
  });
});
