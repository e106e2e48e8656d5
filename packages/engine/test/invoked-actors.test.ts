import { assign, fromPromise, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnswerEvent, type ProgressUpdate, ask, defineTool } from '../src/index.ts';
import { accept, complete, inputRequired, makeEngine } from './support.ts';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });

type RefundContext = { orderId: string; cents: number | null; refundId: string | null };

function makeRefundTool(calls: { lookup: number; refund: number; aborted: number }, delays: { lookup: number; refund: number }) {
  const machine = setup({
    types: {
      context: {} as RefundContext,
      input: {} as { order_id: string },
      events: {} as AnswerEvent<'confirm', { confirm: boolean }>,
      output: {} as { refundId: string | null; cents: number | null },
    },
    actors: {
      lookupOrder: fromPromise<{ cents: number }, { orderId: string }>(async ({ input, signal }) => {
        calls.lookup++;
        await sleep(delays.lookup, signal).catch((error: unknown) => {
          calls.aborted++;
          throw error;
        });
        return { cents: input.orderId.length * 100 };
      }),
      issueRefund: fromPromise<{ refundId: string }, { orderId: string; cents: number | null }>(async ({ input, signal }) => {
        calls.refund++;
        await sleep(delays.refund, signal).catch((error: unknown) => {
          calls.aborted++;
          throw error;
        });
        return { refundId: `re_${input.orderId}_${input.cents}` };
      }),
    },
  }).createMachine({
    id: 'refund',
    context: ({ input }) => ({ orderId: input.order_id, cents: null, refundId: null }),
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          id: 'lookup',
          src: 'lookupOrder',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'asking', actions: assign({ cents: ({ event }) => event.output.cents }) },
        },
      },
      asking: {
        meta: { ask: { confirm: ask<RefundContext>({ message: ({ context }) => `Refund ${context.cents} cents for ${context.orderId}?`, schema: z.object({ confirm: z.boolean() }) }) } },
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
    machine,
    result: (output) => ({ text: output.refundId ?? 'no refund', structured: output }),
  });
}

describe('invoked actors', () => {
  it('runs an invoked promise to completion before asking, so the question can use its result', async () => {
    const calls = { lookup: 0, refund: 0, aborted: 0 };
    const { call } = makeEngine([makeRefundTool(calls, { lookup: 15, refund: 0 })]);
    const outcome = inputRequired(await call({ name: 'refund_order', arguments: { order_id: 'ord_1' } }));
    expect(outcome.inputRequests.confirm!.params.message).toBe('Refund 500 cents for ord_1?');
    expect(calls).toEqual({ lookup: 1, refund: 0, aborted: 0 });
  });

  it('runs an invoked promise started by an answer to completion within the same round and finishes', async () => {
    const calls = { lookup: 0, refund: 0, aborted: 0 };
    const { call } = makeEngine([makeRefundTool(calls, { lookup: 0, refund: 15 })]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: { order_id: 'ord_1' } }));
    const done = complete(await call({ name: 'refund_order', arguments: { order_id: 'ord_1' }, requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } }));
    expect(done.result).toEqual({ content: [{ type: 'text', text: 're_ord_1_500' }], structuredContent: { refundId: 're_ord_1_500', cents: 500 } });
    // the lookup of round 1 did not run again when round 2 rehydrated the settled snapshot
    expect(calls).toEqual({ lookup: 1, refund: 1, aborted: 0 });
  });

  it('fails the round with an isError result and an error log when a promise outlasts settleTimeoutMs, and stops it', async () => {
    const calls = { lookup: 0, refund: 0, aborted: 0 };
    const { call, logs } = makeEngine([makeRefundTool(calls, { lookup: 0, refund: 2_000 })], { settleTimeoutMs: 40 });
    const first = inputRequired(await call({ name: 'refund_order', arguments: { order_id: 'ord_1' } }));
    const started = Date.now();
    const outcome = complete(await call({ name: 'refund_order', arguments: { order_id: 'ord_1' }, requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } }));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(outcome.result).toEqual({
      content: [{ type: 'text', text: "Tool 'refund_order' failed on the server before it could finish; the details are in the server's log." }],
      isError: true,
    });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        event: 'settle_timeout',
        tool: 'refund_order',
        message: "machine 'refund' did not settle within 40 ms (timeout); invoked work still running was stopped",
      }),
    );
    expect(calls.aborted).toBe(1);
  });

  it('fails the round with an isError result when the request is aborted while a promise runs', async () => {
    const calls = { lookup: 0, refund: 0, aborted: 0 };
    const { call, logs } = makeEngine([makeRefundTool(calls, { lookup: 2_000, refund: 0 })]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const outcome = complete(await call({ name: 'refund_order', arguments: { order_id: 'ord_1' }, signal: controller.signal }));
    expect(outcome.result.isError).toBe(true);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', event: 'settle_aborted' }));
    expect(calls.aborted).toBe(1);
  });
});

describe('progress of invoked work', () => {
  it('reports each invoked actor as it starts, counting up within one request', async () => {
    const calls = { lookup: 0, refund: 0, aborted: 0 };
    const { call } = makeEngine([makeRefundTool(calls, { lookup: 5, refund: 5 })]);
    const round1: ProgressUpdate[] = [];
    const first = inputRequired(await call({ name: 'refund_order', arguments: { order_id: 'ord_1' }, onProgress: (update) => round1.push(update) }));
    expect(round1).toEqual([{ progress: 1, message: "refund_order: running 'lookup'" }]);
    const round2: ProgressUpdate[] = [];
    complete(
      await call({
        name: 'refund_order',
        arguments: { order_id: 'ord_1' },
        requestState: first.requestState,
        inputResponses: { confirm: accept({ confirm: true }) },
        onProgress: (update) => round2.push(update),
      }),
    );
    expect(round2).toEqual([{ progress: 1, message: "refund_order: running 'refund'" }]);
  });

  it('reports nothing for a round that invokes nothing', async () => {
    const calls = { lookup: 0, refund: 0, aborted: 0 };
    const { call } = makeEngine([makeRefundTool(calls, { lookup: 0, refund: 0 })]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: { order_id: 'ord_1' } }));
    const updates: ProgressUpdate[] = [];
    inputRequired(await call({ name: 'refund_order', arguments: { order_id: 'ord_1' }, requestState: first.requestState, inputResponses: {}, onProgress: (u) => updates.push(u) }));
    expect(updates).toEqual([]);
  });

  it('logs a progress callback that throws and carries on with the round', async () => {
    const calls = { lookup: 0, refund: 0, aborted: 0 };
    const { call, logs } = makeEngine([makeRefundTool(calls, { lookup: 0, refund: 0 })]);
    const outcome = await call({
      name: 'refund_order',
      arguments: { order_id: 'ord_1' },
      onProgress: () => {
        throw new Error('transport closed');
      },
    });
    expect(inputRequired(outcome).inputRequests.confirm!.params.message).toBe('Refund 500 cents for ord_1?');
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', event: 'progress_failed', message: "progress report for 'lookup' threw" }));
  });
});
