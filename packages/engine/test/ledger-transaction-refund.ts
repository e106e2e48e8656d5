// A refund tool (machine API) whose effect writes its refund row through the ledger's transaction
// (`inLedgerTransaction`), and the checks every transactional ledger's file runs through it: a real round
// of the engine commits the row with the outcome, a duplicate on another engine replays it, a failure is
// rolled back and replayed.

import { expect } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvents,
  type AskMeta,
  defineQuestions,
  defineTool,
  type EffectLedger,
  type LedgerTransaction,
  ledgerTransactionOf,
} from '../src/index.ts';
import { accept, complete, inputRequired, makeEngine } from './support.ts';

type RefundContext = { orderId: string; refundId: string | null; error: string | null };

const questions = defineQuestions<RefundContext>()({
  confirm: { message: 'Refund order {{orderId}}?', schema: z.object({ confirm: z.boolean() }) },
});

/** What the effect does: writes its row through the transaction (`write`), counted; `fail` throws after the write. */
export interface TransactionalRefunds {
  runs: number;
  fail?: boolean;
  /** The transaction each run got (undefined: none). */
  seen: Array<LedgerTransaction | undefined>;
  write: (tx: LedgerTransaction | undefined, id: string) => Promise<void>;
}

/** The refund tool; `once: false` declares the effect wrongly (inLedgerTransaction alone), for the definition check. */
export function makeTransactionalRefundTool(refunds: TransactionalRefunds, once = true) {
  const machine = setup({
    types: {
      context: {} as RefundContext,
      input: {} as { order_id: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { refundId: string | null; error: string | null },
    },
    actors: {
      issueRefund: fromPromise<{ refundId: string }, { orderId: string }>(async ({ input, system }) => {
        const run = ++refunds.runs;
        const tx = ledgerTransactionOf({ system });
        refunds.seen.push(tx);
        const refundId = `re_${input.orderId}_${run}`;
        await refunds.write(tx, refundId);
        if (refunds.fail) throw new Error(`card declined (attempt ${run})`);
        return { refundId };
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
          onError: { target: 'done', actions: assign({ error: ({ event }) => (event.error as Error).message }) },
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ refundId: context.refundId, error: context.error }),
  });
  return defineTool({
    name: 'refund_order',
    description: 'Refunds an order once the user confirms, exactly once per call',
    input: z.object({ order_id: z.string() }),
    questions,
    machine,
    result: (output) => ({ text: output.refundId ?? `not refunded: ${output.error}`, structured: output }),
    effects: { issueRefund: { once, inLedgerTransaction: true } },
  });
}

const args = { order_id: 'ord_1' };
const yes = { confirm: accept({ confirm: true }) };

/** The confirming round of a refund on `ledger`, and a way to send it again to another engine on `other`. */
export async function transactionalRound(refunds: TransactionalRefunds, ledger: EffectLedger) {
  const test = makeEngine([makeTransactionalRefundTool(refunds)], { ledger });
  const first = inputRequired(await test.call({ name: 'refund_order', arguments: args }));
  const round = { name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes };
  return {
    ...test,
    confirm: () => test.call(round),
    /** The same round, sent to another engine (another server) on `other`. */
    confirmOn: (other: EffectLedger) => makeEngine([makeTransactionalRefundTool(refunds)], { ledger: other }).call(round),
  };
}

/**
 * Through a real round: the effect gets the transaction, its row commits with the outcome, and the round
 * replayed on another engine and ledger gets the recorded result; then a failing one leaves no row.
 */
export async function checkThroughRounds(
  refunds: TransactionalRefunds,
  ledger: EffectLedger,
  other: EffectLedger,
  rows: () => Promise<string[]>,
): Promise<void> {
  const test = await transactionalRound(refunds, ledger);
  const done = complete(await test.confirm());
  expect(done.result.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
  expect(refunds.seen).toHaveLength(1);
  expect(refunds.seen[0]).toBeDefined();
  expect(await rows()).toEqual(['re_ord_1_1']);
  expect(test.logs.find((e) => e.event === 'effect_recorded')).toMatchObject({ code: 'committed', ok: true });

  const replayed = complete(await test.confirmOn(other));
  expect(replayed.result.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
  expect(refunds.runs).toBe(1);

  refunds.fail = true;
  const failing = await transactionalRound(refunds, ledger);
  const declined = complete(await failing.confirm());
  expect(declined.result.structuredContent).toEqual({ refundId: null, error: 'card declined (attempt 2)' });
  expect(await rows()).toEqual(['re_ord_1_1']);
  expect(failing.logs.find((e) => e.event === 'effect_recorded')).toMatchObject({ code: 'committed', ok: false });
  const again = complete(await failing.confirmOn(other));
  expect(again.result.structuredContent).toEqual({ refundId: null, error: 'card declined (attempt 2)' });
  expect(refunds.runs).toBe(2);
}
