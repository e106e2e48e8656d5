import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, type ProgressUpdate } from '../src/index.ts';
import { accept, complete, deferred, failedText, inputRequired, makeEngine } from './support.ts';

type RefundContext = { orderId: string; cents: number | null; refundId: string | null };
type Calls = { lookup: number; refund: number; aborted: number };
/** Work the actors wait for before they finish; absent means they finish at once. */
type Holds = { lookup?: Promise<void>; refund?: Promise<void> };

const questions = defineQuestions<RefundContext>()({
  confirm: { message: 'Refund {{cents}} cents for {{orderId}}?', schema: z.object({ confirm: z.boolean() }) },
});

/** Waits for `hold`, or rejects (counting it) when the actor is stopped. */
function waitFor(hold: Promise<void> | undefined, signal: AbortSignal, calls: Calls): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => {
      calls.aborted++;
      reject(new Error('aborted'));
    });
    void (hold ?? Promise.resolve()).then(resolve);
  });
}

function makeRefundTool(calls: Calls, holds: Holds = {}) {
  const machine = setup({
    types: {
      context: {} as RefundContext,
      input: {} as { order_id: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { refundId: string | null; cents: number | null },
    },
    actors: {
      lookupOrder: fromPromise<{ cents: number }, { orderId: string }>(async ({ input, signal }) => {
        calls.lookup++;
        await waitFor(holds.lookup, signal, calls);
        return { cents: input.orderId.length * 100 };
      }),
      issueRefund: fromPromise<{ refundId: string }, { orderId: string; cents: number | null }>(async ({ input, signal }) => {
        calls.refund++;
        await waitFor(holds.refund, signal, calls);
        return { refundId: `re_${input.orderId}_${input.cents}` };
      }),
    },
  }).createMachine({
    id: 'refund',
    context: ({ input }) => ({ orderId: input.order_id, cents: null, refundId: null }),
    initial: 'loading',
    states: {
      loading: {
        meta: { progress: 'Looking up the order…' },
        invoke: {
          id: 'lookup',
          src: 'lookupOrder',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'asking', actions: assign({ cents: ({ event }) => event.output.cents }) },
        },
      },
      asking: {
        meta: { ask: ['confirm'] },
        on: { 'confirm.accept': 'refunding', 'confirm.decline': 'done', 'confirm.cancel': 'done' },
      },
      refunding: {
        invoke: {
          id: 'refund',
          src: 'issueRefund',
          input: ({ context }) => ({ orderId: context.orderId, cents: context.cents }),
          onDone: { target: 'done', actions: assign({ refundId: ({ event }) => event.output.refundId }) },
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ refundId: context.refundId, cents: context.cents }),
  });
  return defineTool({
    name: 'refund_order',
    description: 'Looks the order up, asks, refunds',
    input: z.object({ order_id: z.string() }),
    questions,
    machine,
    result: (output) => ({ text: output.refundId ?? 'no refund', structured: output }),
  });
}

const args = { order_id: 'ord_1' };
const newCalls = (): Calls => ({ lookup: 0, refund: 0, aborted: 0 });

describe('invoked actors', () => {
  it('runs an invoked promise to completion before asking, so the question can use its result', async () => {
    const calls = newCalls();
    const lookup = deferred();
    const { call } = makeEngine([makeRefundTool(calls, { lookup: lookup.promise })]);
    // the lookup finishes only once it has started, within the round
    const outcome = inputRequired(await call({ name: 'refund_order', arguments: args, onProgress: () => lookup.resolve() }));
    expect(outcome.inputRequests.confirm!.params.message).toBe('Refund 500 cents for ord_1?');
    expect(calls).toEqual({ lookup: 1, refund: 0, aborted: 0 });
  });

  it('runs an invoked promise started by an answer to completion within the same round and finishes', async () => {
    const calls = newCalls();
    const refund = deferred();
    const { call } = makeEngine([makeRefundTool(calls, { refund: refund.promise })]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    const done = complete(
      await call({
        name: 'refund_order',
        arguments: args,
        requestState: first.requestState,
        inputResponses: { confirm: accept({ confirm: true }) },
        onProgress: () => refund.resolve(),
      }),
    );
    expect(done.result).toEqual({
      content: [{ type: 'text', text: 're_ord_1_500' }],
      structuredContent: { refundId: 're_ord_1_500', cents: 500 },
    });
    // the lookup of round 1 did not run again when round 2 rehydrated the settled snapshot
    expect(calls).toEqual({ lookup: 1, refund: 1, aborted: 0 });
  });

  it('fails the round with an isError result and an error log when a promise outlasts settleTimeoutMs, and stops it', async () => {
    const calls = newCalls();
    const never = deferred().promise;
    const { call, logs } = makeEngine([makeRefundTool(calls, { refund: never })], { settleTimeoutMs: 40 });
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    const outcome = complete(
      await call({
        name: 'refund_order',
        arguments: args,
        requestState: first.requestState,
        inputResponses: { confirm: accept({ confirm: true }) },
      }),
    );
    expect(outcome.result).toEqual({ content: [{ type: 'text', text: failedText("Tool 'refund_order'") }], isError: true });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        event: 'settle_timeout',
        code: 'after_answers',
        target: 'tool refund_order',
        machine: 'refund',
        timeoutMs: 40,
      }),
    );
    expect(calls.aborted).toBe(1);
  });

  it('fails the round with an isError result when the request is aborted while a promise runs', async () => {
    const calls = newCalls();
    const { call, logs } = makeEngine([makeRefundTool(calls, { lookup: deferred().promise })]);
    const controller = new AbortController();
    // abort as soon as the lookup has started
    const outcome = complete(
      await call({ name: 'refund_order', arguments: args, signal: controller.signal, onProgress: () => controller.abort() }),
    );
    expect(outcome.result.isError).toBe(true);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'info', event: 'request_cancelled', target: 'tool refund_order' }));
    expect(calls.aborted).toBe(1);
  });
});

describe('progress of invoked work', () => {
  it("reports each invoked actor as it starts, in its state's words (or in general ones), counting up within one request", async () => {
    const { call } = makeEngine([makeRefundTool(newCalls())]);
    const round1: ProgressUpdate[] = [];
    const first = inputRequired(await call({ name: 'refund_order', arguments: args, onProgress: (update) => round1.push(update) }));
    expect(round1).toEqual([{ progress: 1, message: 'Looking up the order…' }]);
    const round2: ProgressUpdate[] = [];
    complete(
      await call({
        name: 'refund_order',
        arguments: args,
        requestState: first.requestState,
        inputResponses: { confirm: accept({ confirm: true }) },
        onProgress: (update) => round2.push(update),
      }),
    );
    // 'refunding' gives no words of its own: never the invoke's id
    expect(round2).toEqual([{ progress: 1, message: 'Working…' }]);
  });

  it('reports nothing for a round that invokes nothing', async () => {
    const { call } = makeEngine([makeRefundTool(newCalls())]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    const updates: ProgressUpdate[] = [];
    inputRequired(
      await call({
        name: 'refund_order',
        arguments: args,
        requestState: first.requestState,
        inputResponses: {},
        onProgress: (u) => updates.push(u),
      }),
    );
    expect(updates).toEqual([]);
  });

  it('logs a progress callback that throws and carries on with the round', async () => {
    const { call, logs } = makeEngine([makeRefundTool(newCalls())]);
    const outcome = await call({
      name: 'refund_order',
      arguments: args,
      onProgress: () => {
        throw new Error('transport closed');
      },
    });
    expect(inputRequired(outcome).inputRequests.confirm!.params.message).toBe('Refund 500 cents for ord_1?');
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        event: 'progress_failed',
        code: 'progress_threw',
        target: 'tool refund_order',
        child: 'lookup',
      }),
    );
  });
});
