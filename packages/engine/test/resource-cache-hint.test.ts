// A resource's caching hint (ttlMs, cacheScope): sent with a read that asked nothing, never with one that did.
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineResource } from '../src/index.ts';
import { accept, complete, inputRequired, makeServer, problemsOf } from './support.ts';

const done = setup({}).createMachine({ id: 'done', initial: 'done', states: { done: { type: 'final' } } });
const staticText = defineResource({
  uri: 'test://static-text',
  name: 'static-text',
  description: 'A static text',
  mimeType: 'text/plain',
  cache: { ttlMs: 60_000, cacheScope: 'public' },
  machine: done,
  contents: () => 'This is the content of the static text resource.',
});

const monthQuestions = defineQuestions<{ month: string | null }>()({
  month: { message: 'Which month?', schema: z.object({ month: z.string() }) },
});
const statementMachine = setup({
  types: {
    context: {} as { month: string | null },
    events: {} as AnswerEvents<typeof monthQuestions>,
    meta: {} as AskMeta<typeof monthQuestions>,
    output: {} as { month: string },
  },
}).createMachine({
  id: 'statement',
  context: { month: null },
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['month'] },
      on: { 'month.accept': { target: 'done', actions: assign({ month: ({ event }) => event.content.month }) }, 'month.*': 'done' },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ month: context.month ?? 'none' }),
});
const statement = defineResource({
  uri: 'test://statement',
  name: 'statement',
  description: 'Asks which month',
  cache: { ttlMs: 5_000, cacheScope: 'private' },
  questions: monthQuestions,
  machine: statementMachine,
  contents: (output) => `Statement for ${output.month}`,
});

describe('caching hints', () => {
  it('sends the hint with a read that asked nothing', async () => {
    const { readResource } = makeServer({ resources: [staticText] });
    expect(complete(await readResource({ uri: 'test://static-text' })).result).toEqual({
      contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
      ttlMs: 60_000,
      cacheScope: 'public',
    });
  });

  it('sends no hint with a read that asked the user: what they answered is theirs', async () => {
    const { readResource } = makeServer({ resources: [statement] });
    const asked = inputRequired(await readResource({ uri: 'test://statement' }));
    expect(asked).not.toHaveProperty('ttlMs');
    const read = complete(
      await readResource({
        uri: 'test://statement',
        requestState: asked.requestState,
        inputResponses: { month: accept({ month: 'May' }) },
      }),
    );
    expect(read.result).toEqual({ contents: [{ uri: 'test://statement', text: 'Statement for May' }] });
  });

  it.each([[{ ttlMs: -1, cacheScope: 'public' }], [{ ttlMs: 1.5, cacheScope: 'private' }], [{ ttlMs: 10, cacheScope: 'shared' }]])(
    'names a hint that is not { ttlMs, cacheScope }: %j',
    (cache) => {
      const problems = problemsOf(() =>
        defineResource({ uri: 'test://x', name: 'x', description: 'X', cache: cache as never, machine: done, contents: () => 'x' }),
      );
      expect(problems.map((p) => [p.path.join(' › '), p.code])).toEqual([["Resource 'x' › cache", 'invalid_option']]);
    },
  );
});
