// The refund tool the ledger contract drives through the engine: one effect declared once, whose runs
// the test counts, holds open, or makes fail.
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, type EffectLedger } from '../src/index.ts';
import { accept, inputRequired, makeEngine } from './support.ts';

type RefundContext = { orderId: string; refundId: string | null; error: string | null };
export type RefundOutput = { refundId: string | null; error: string | null };

const questions = defineQuestions<RefundContext>()({
  confirm: { message: 'Refund order {{orderId}}?', schema: z.object({ confirm: z.boolean() }) },
});

/** What the refund actor does: how often it ran, what it waits for, whether it fails. */
export interface Refunds {
  runs: number;
  hold?: Promise<void>;
  fail?: boolean;
  /** Called when a run starts, before it waits for `hold`. */
  started?: () => void;
}

export function makeRefundTool(refunds: Refunds) {
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
        refunds.started?.();
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

export const args = { order_id: 'ord_1' };
export const yes = { confirm: accept({ confirm: true }) };

/** A refund engine on `ledger`, the state of its first round, and the confirming round to replay. */
export async function confirmingRound(refunds: Refunds, ledger: EffectLedger, now?: () => number) {
  const test = makeEngine([makeRefundTool(refunds)], { ledger, ...(now ? { now } : {}) });
  const first = inputRequired(await test.call({ name: 'refund_order', arguments: args }));
  const confirm = () => test.call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes });
  return { ...test, first, confirm };
}
