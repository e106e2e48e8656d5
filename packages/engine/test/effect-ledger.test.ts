import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, createMemoryLedger, defineQuestions, defineTool, type EffectLedger } from '../src/index.ts';
import { createSqliteLedger, type SqliteLedger } from '../src/sqlite/index.ts';
import { accept, complete, deferred, inputRequired, makeEngine } from './support.ts';

type RefundContext = { orderId: string; refundId: string | null; error: string | null };
type RefundOutput = { refundId: string | null; error: string | null };

const questions = defineQuestions<RefundContext>()({
  confirm: { message: 'Refund order {{orderId}}?', schema: z.object({ confirm: z.boolean() }) },
});

/** What the refund actor does: how often it ran, what it waits for, whether it fails. */
interface Refunds {
  runs: number;
  hold?: Promise<void>;
  fail?: boolean;
}

function makeRefundTool(refunds: Refunds) {
  const machine = setup({
    types: {
      context: {} as RefundContext,
      input: {} as { order_id: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as RefundOutput,
    },
    actors: {
      issueRefund: fromPromise<{ refundId: string }, { orderId: string }>(async ({ input }) => {
        const run = ++refunds.runs;
        await refunds.hold;
        if (refunds.fail) throw new Error(`card declined (attempt ${run})`);
        return { refundId: `re_${input.orderId}_${run}` };
      }),
    },
  }).createMachine({
    id: 'refund',
    context: ({ input }) => ({ orderId: input.order_id, refundId: null, error: null }),
    initial: 'confirming',
    states: {
      confirming: { meta: { ask: ['confirm'] }, on: { 'confirm.accept': 'refunding', 'confirm.*': 'done' } },
      refunding: {
        invoke: {
          id: 'refund',
          src: 'issueRefund',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'done', actions: assign({ refundId: ({ event }) => event.output.refundId }) },
          onError: {
            target: 'done',
            actions: assign({ error: ({ event }) => `${(event.error as Error).name}: ${(event.error as Error).message}` }),
          },
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ refundId: context.refundId, error: context.error }),
  });
  return defineTool({
    name: 'refund_order',
    description: 'Refunds an order once the user confirms, at most once per call',
    input: z.object({ order_id: z.string() }),
    questions,
    machine,
    result: (output) => ({ text: output.refundId ?? `not refunded: ${output.error}`, structured: output }),
    effects: { issueRefund: { once: true } },
  });
}

const args = { order_id: 'ord_1' };
const yes = { confirm: accept({ confirm: true }) };

/** A refund engine on `ledger`, the state of its first round, and the confirming round to replay. */
async function confirmingRound(refunds: Refunds, ledger: EffectLedger = createMemoryLedger(), now?: () => number) {
  const test = makeEngine([makeRefundTool(refunds)], { ledger, ...(now ? { now } : {}) });
  const first = inputRequired(await test.call({ name: 'refund_order', arguments: args }));
  const confirm = () => test.call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes });
  return { ...test, first, confirm };
}

describe('effects declared once', () => {
  it('replays the recorded outcome when the same confirming round arrives again, without running the effect again', async () => {
    const refunds: Refunds = { runs: 0 };
    const ledger = createMemoryLedger();
    const { confirm, logs } = await confirmingRound(refunds, ledger);
    const first = complete(await confirm());
    expect(first.result.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
    const replayed = complete(await confirm());
    const again = complete(await confirm());
    expect(replayed).toEqual(first);
    expect(again).toEqual(first);
    expect(refunds.runs).toBe(1);
    expect(ledger.size).toBe(1);
    expect(logs.filter((e) => e.event === 'effect_recorded')).toEqual([
      expect.objectContaining({ level: 'info', target: 'tool refund_order', message: "effect 'refund' done and recorded" }),
    ]);
  });

  it('runs the effect once for five concurrent duplicates of the confirming round, and gives each the same result', async () => {
    const hold = deferred();
    const refunds: Refunds = { runs: 0, hold: hold.promise };
    const { confirm, logged } = await confirmingRound(refunds);
    const rounds = Promise.all([confirm(), confirm(), confirm(), confirm(), confirm()]);
    // the first holds the effect open until the four others have found it running
    await logged('effect_duplicate', 4);
    hold.resolve();
    const results = (await rounds).map((outcome) => complete(outcome).result);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(results[0]!.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
    expect(refunds.runs).toBe(1);
  });

  it('serves a replay from another engine that shares the ledger and the key with the recorded outcome', async () => {
    const refunds: Refunds = { runs: 0 };
    const ledger = createMemoryLedger();
    const a = await confirmingRound(refunds, ledger);
    const b = makeEngine([makeRefundTool(refunds)], { ledger });
    const served = complete(await a.confirm());
    const replayed = complete(
      await b.call({ name: 'refund_order', arguments: args, requestState: a.first.requestState, inputResponses: yes }),
    );
    expect(replayed).toEqual(served);
    expect(refunds.runs).toBe(1);
    expect(b.logs.some((e) => e.event === 'effect_recorded')).toBe(false);
  });

  it('runs the effect again for another engine with its own ledger (the ledger is what remembers)', async () => {
    const refunds: Refunds = { runs: 0 };
    const a = await confirmingRound(refunds);
    const b = makeEngine([makeRefundTool(refunds)], { ledger: createMemoryLedger() });
    complete(await a.confirm());
    const other = complete(
      await b.call({ name: 'refund_order', arguments: args, requestState: a.first.requestState, inputResponses: yes }),
    );
    expect(other.result.structuredContent).toEqual({ refundId: 're_ord_1_2', error: null });
    expect(refunds.runs).toBe(2);
  });

  it('records a failing effect’s error and replays it, without running the effect again', async () => {
    const refunds: Refunds = { runs: 0, fail: true };
    const { confirm, logs } = await confirmingRound(refunds);
    const first = complete(await confirm());
    expect(first.result.structuredContent).toEqual({ refundId: null, error: 'Error: card declined (attempt 1)' });
    expect(complete(await confirm())).toEqual(first);
    expect(refunds.runs).toBe(1);
    expect(logs).toContainEqual(expect.objectContaining({ event: 'effect_recorded', message: "effect 'refund' failed and recorded" }));
  });

  it('treats a new call (no requestState) as a new run, which runs the effect again', async () => {
    const refunds: Refunds = { runs: 0 };
    const ledger = createMemoryLedger();
    const { call, confirm } = await confirmingRound(refunds, ledger);
    expect(complete(await confirm()).result.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
    const fresh = inputRequired(await call({ name: 'refund_order', arguments: args }));
    const second = complete(await call({ name: 'refund_order', arguments: args, requestState: fresh.requestState, inputResponses: yes }));
    expect(second.result.structuredContent).toEqual({ refundId: 're_ord_1_2', error: null });
    expect(refunds.runs).toBe(2);
    expect(ledger.size).toBe(2);
  });

  it('does not run an effect whose earlier start never recorded an outcome, and tells the machine the outcome is unknown', async () => {
    const refunds: Refunds = { runs: 0 };
    const ledger = createMemoryLedger();
    const clock = Date.UTC(2026, 11, 2, 12);
    const { call, first, logs } = await confirmingRound(refunds, ledger, () => clock);
    // a round with an invalid answer logs the run id, as every later round of this call will
    const second = inputRequired(
      await call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: { confirm: accept({}) } }),
    );
    const run = logs.find((e) => e.event === 'answer_invalid')!.run!;
    // a process that claimed the effect a minute ago and died before recording its outcome
    expect(await ledger.claim({ run, effect: 'refund' }, clock - 60_000)).toBe('claimed');
    const outcome = complete(await call({ name: 'refund_order', arguments: args, requestState: second.requestState, inputResponses: yes }));
    expect(refunds.runs).toBe(0);
    expect((outcome.result.structuredContent as RefundOutput).error).toMatch(
      /^EffectOutcomeUnknownError: Effect 'refund' of this conversation started at 2026-12-02T11:59:00\.000Z and never recorded an outcome/,
    );
  });
});

describe('the SQLite ledger', () => {
  const opened: SqliteLedger[] = [];
  let dir: string | undefined;
  afterEach(() => {
    for (const ledger of opened.splice(0)) ledger.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('records effects for two engines that share one database file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'roundtrip-effects-'));
    const path = join(dir, 'effects.db');
    const [ledgerA, ledgerB] = [createSqliteLedger({ path }), createSqliteLedger({ path })];
    opened.push(ledgerA, ledgerB);
    const refunds: Refunds = { runs: 0 };
    const a = await confirmingRound(refunds, ledgerA);
    const b = makeEngine([makeRefundTool(refunds)], { ledger: ledgerB });
    const served = complete(await a.confirm());
    const replayed = complete(
      await b.call({ name: 'refund_order', arguments: args, requestState: a.first.requestState, inputResponses: yes }),
    );
    expect(replayed).toEqual(served);
    expect(served.result.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
    expect(refunds.runs).toBe(1);
    const run = a.logs.find((e) => e.event === 'effect_recorded')!.run!;
    expect(ledgerB.read({ run, effect: 'refund' })).toMatchObject({
      state: 'done',
      outcome: { ok: true, value: { refundId: 're_ord_1_1' } },
    });
  });
});
