import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '../src/index.ts';
import { accept, complete, decline, failedText, inputRequired, makeEngine } from './support.ts';

type Context = { when: unknown; step: number };

const questions = defineQuestions<Context>()({
  first: { message: 'Step {{step}}: go on?', schema: z.object({ ok: z.boolean() }) },
  second: { message: 'Step {{step}}: really?', schema: z.object({ ok: z.boolean() }) },
});

class Money {
  constructor(readonly cents: number) {}
}

/**
 * A tool whose machine stores `put()` in context (as `when`): on entering the first question when `when` is
 * 'round 1', or on accepting it (before the second question) when `when` is 'round 2'.
 */
function makeTool(put: () => unknown, when: 'round 1' | 'round 2') {
  const storeAtEntry: 'store'[] = when === 'round 1' ? ['store'] : [];
  const storeOnAccept: 'store'[] = when === 'round 2' ? ['store'] : [];
  const machine = setup({
    types: {
      context: {} as Context,
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { step: number },
    },
    actions: { store: assign({ when: () => put() }), nextStep: assign({ step: 2 }) },
  }).createMachine({
    id: 'keeper',
    context: { when: null, step: 1 },
    initial: 'first',
    states: {
      first: {
        entry: storeAtEntry,
        meta: { ask: ['first'] },
        on: { 'first.accept': { target: 'second', actions: ['nextStep', ...storeOnAccept] }, 'first.*': 'done' },
      },
      second: { meta: { ask: ['second'] }, on: { 'second.*': 'done' } },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ step: context.step }),
  });
  return defineTool({
    name: 'keeper',
    description: 'Keeps a value in context',
    input: z.object({}),
    questions,
    machine,
    result: (output) => ({ text: `step ${output.step}` }),
  });
}

/** `{ a: { a: … inner } }`, `depth` levels deep. */
const nest = (depth: number, inner: unknown): unknown => (depth === 0 ? inner : { a: nest(depth - 1, inner) });

const FAILED = { content: [{ type: 'text', text: failedText("Tool 'keeper'") }], isError: true };

describe('context that is not plain JSON', () => {
  it.each([
    ['a Date', () => new Date('2026-12-02T12:00:00Z'), 'context.when is a Date', 'store an ISO string (date.toISOString())'],
    ['a Map', () => new Map([['a', 1]]), 'context.when is a Map', 'store a plain object, or an array of [key, value] pairs'],
    ['a Set', () => new Set([1, 2]), 'context.when is a Set', 'store an array'],
    ['a BigInt', () => 10n ** 20n, 'context.when is a BigInt', 'store a number or a decimal string'],
    ['undefined', () => undefined, 'context.when is undefined', 'store null instead, or leave the key out'],
    ['a function', () => () => 'hi', 'context.when is a function', 'keep functions out of context'],
    ['a class instance', () => new Money(1250), 'context.when is an instance of Money', 'store its plain fields in an object'],
    ['NaN', () => Number.NaN, 'context.when is NaN', 'store a finite number, or null'],
    [
      'a Date deep inside',
      () => ({ order: { lines: [{ sku: 'A1' }, { shipped: new Date() }] } }),
      'context.when.order.lines[1].shipped is a Date',
      'ISO string',
    ],
    ['a Date under 100 levels of plain objects', () => nest(100, new Date()), `context.when${'.a'.repeat(100)} is a Date`, 'ISO string'],
    [
      'a cycle',
      () => {
        const node: { id: string; parent?: unknown } = { id: 'n1' };
        node.parent = { id: 'n0', child: node };
        return node;
      },
      'context.when.parent.child is a reference back to one of its own parents (a cycle)',
      'store the data as a tree, linking by id',
    ],
  ])(
    'fails the round that stores %s, with a tool error for the client and a log line naming the path and the fix',
    async (_, put, where, fix) => {
      const { call, logs } = makeEngine([makeTool(put, 'round 1')]);
      const outcome = await call({ name: 'keeper', arguments: {} });
      expect(complete(outcome).result).toEqual(FAILED);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ level: 'error', event: 'context_not_json', code: 'not_json', target: 'tool keeper', round: 1 });
      const { found } = logs[0] as unknown as { found: { path: string; what: string; fix: string } };
      expect(`${found.path} is ${found.what}`).toBe(where);
      expect(found.fix).toContain(fix);
      expect(JSON.stringify(outcome)).not.toContain('context.');
    },
  );

  it('fails the very round that stores the value, not a later one', async () => {
    const { call, logs } = makeEngine([makeTool(() => new Date(), 'round 2')]);
    const r1 = inputRequired(await call({ name: 'keeper', arguments: {} }));
    expect(r1.inputRequests.first!.params.message).toBe('Step 1: go on?');
    expect(logs).toEqual([]);

    const r2 = await call({
      name: 'keeper',
      arguments: {},
      requestState: r1.requestState,
      inputResponses: { first: accept({ ok: true }) },
    });
    expect(complete(r2).result).toEqual(FAILED);
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'error',
        event: 'context_not_json',
        code: 'not_json',
        round: 2,
        found: { path: 'context.when', what: 'a Date', fix: 'store an ISO string (date.toISOString())' },
      }),
    ]);

    // the state of round 1 is still good: another answer that stores nothing finishes
    expect(
      complete(await call({ name: 'keeper', arguments: {}, requestState: r1.requestState, inputResponses: { first: decline } })).result,
    ).toEqual({
      content: [{ type: 'text', text: 'step 1' }],
    });
  });

  it('seals plain JSON: strings, finite numbers, booleans, null, arrays and plain objects', async () => {
    const shared = { id: 's1' };
    const value = {
      s: 'x',
      n: -1.5,
      b: true,
      z: null,
      list: [1, 'two', [3]],
      nested: { deep: { ok: false } },
      bare: Object.assign(Object.create(null), { a: 1 }),
      shared: [shared, shared], // the same object twice is not a cycle
      deep: nest(100, 'bottom'), // deeper than the quick check goes, so the full walk confirms it
    };
    const { call, logs } = makeEngine([makeTool(() => value, 'round 2')]);
    const r1 = inputRequired(await call({ name: 'keeper', arguments: {} }));
    const r2 = inputRequired(
      await call({ name: 'keeper', arguments: {}, requestState: r1.requestState, inputResponses: { first: accept({ ok: true }) } }),
    );
    expect(r2.inputRequests.second!.params.message).toBe('Step 2: really?');
    complete(
      await call({ name: 'keeper', arguments: {}, requestState: r2.requestState, inputResponses: { second: accept({ ok: true }) } }),
    );
    expect(logs.filter((e) => e.level === 'error')).toEqual([]);
  });
});
