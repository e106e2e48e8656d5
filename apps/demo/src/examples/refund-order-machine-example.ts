// The demo's `refund_order` tool as it was written by hand, before it was declared as a flow
// (../refund-order-tool.ts): an example of the engine's machine API, kept here so that it typechecks and
// its test (apps/demo/test/refund-order-machine-example.test.ts) runs it. It looks the order up, asks the
// user to confirm the amount, and refunds exactly that amount at most once.
import {
  type AnswerEvents,
  type AskMeta,
  ConfirmedValueChangedError,
  defineQuestions,
  defineTool,
  EffectOutcomeUnknownError,
  safeText,
  type ToolDefinition,
} from '@roundtrip/engine';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { isDatabaseLocked } from '../database-locked.ts';
import { formatCents } from '../money.ts';
import { orderIdArgument } from '../order-id.ts';
import type { Order, OrdersStore, RefundResult } from '../orders-store.ts';
import { type RefundOutput, type RefundStatus, refundOutput, refundOutputSchema } from '../refund-output.ts';

type RefundContext = {
  orderId: string;
  order: Order | null;
  /** The amount the user is asked to confirm, as text: `$49.00`. */
  amount: string;
  /** Said before the question when it is asked again: why it is asked again. Empty the first time. */
  note: string;
  /** What the store said when asked to refund; null until then. */
  refund: RefundResult | null;
};

const questions = defineQuestions<RefundContext>()({
  confirm: {
    message: '{{note}}Refund {{amount}} for order {{orderId}}?',
    schema: z.object({ confirm: z.boolean().describe('Yes to refund') }),
  },
});

type RefundInput = { orderId: string; amountCents: number };

type LockedIn = OrdersStore['backend'];

function outputFor(status: RefundStatus, { orderId, order, refund }: RefundContext, lockedIn: LockedIn): RefundOutput {
  return refundOutput(status, orderId, order, refund?.status === 'refunded' ? refund.amountCents : undefined, lockedIn);
}

/**
 * Builds the hand-written `refund_order` tool over an orders store. Three things keep a refund honest:
 * the engine's effect ledger runs the refund at most once per conversation (`once`), the engine reads
 * the amount again before refunding (`confirmed`) and asks again if it changed, and the store checks
 * both again inside its write transaction.
 *
 * @example
 * const tool = createRefundOrderMachineTool((await openDemoStores(dbLocation())).orders);
 */
export function createRefundOrderMachineTool(
  store: Pick<OrdersStore, 'findOrder' | 'refundOrder'> & Partial<Pick<OrdersStore, 'backend'>>,
): ToolDefinition {
  const lockedIn = store.backend ?? 'sqlite';
  const finalFor = (status: RefundStatus) => ({
    type: 'final' as const,
    output: ({ context }: { context: RefundContext }) => outputFor(status, context, lockedIn),
  });
  const machine = setup({
    types: {
      input: {} as { order_id: string },
      context: {} as RefundContext,
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as RefundOutput,
    },
    actors: {
      lookupOrder: fromPromise<Order | null, { orderId: string }>(async ({ input }) => (await store.findOrder(input.orderId)) ?? null),
      refundOrder: fromPromise<RefundResult, RefundInput>(async ({ input }) =>
        store.refundOrder(input.orderId, { expectedAmountCents: input.amountCents }),
      ),
    },
    actions: {
      rememberOrder: assign((_, params: { order: Order | null }) => ({
        order: params.order,
        amount: params.order ? formatCents(params.order.amountCents) : '',
      })),
      rememberRefund: assign((_, params: { result: RefundResult }) => ({
        refund: params.result,
        order: params.result.status === 'not_found' ? null : params.result.order,
      })),
      noteNewAmount: assign(({ context }, params: { amountCents: number }) => {
        const amount = formatCents(params.amountCents);
        return {
          order: context.order && { ...context.order, amountCents: params.amountCents },
          amount,
          note: `The amount of order ${safeText(context.orderId)} changed to ${amount} since you were asked. `,
        };
      }),
      forgetOrder: assign({ order: null }),
    },
    guards: {
      orderMissing: ({ context }) => context.order === null,
      orderAlreadyRefunded: ({ context }) =>
        context.order !== null && (context.order.status === 'refunded' || context.order.refundedAt !== null),
      confirmed: ({ event }) => event.type === 'confirm.accept' && event.content.confirm,
      refundDone: ({ context }) => context.refund?.status === 'refunded',
      refundSawNewAmount: ({ context }) => context.refund?.status === 'amount_changed',
      /** The engine read the amount again before refunding, and it is no longer the one the user confirmed. */
      amountChanged: (_, params: { error: unknown }) =>
        params.error instanceof ConfirmedValueChangedError && typeof params.error.current === 'number',
      orderVanished: (_, params: { error: unknown }) => params.error instanceof ConfirmedValueChangedError && params.error.current === null,
      /** The server that ran this refund stopped before recording how it ended: the store says what happened. */
      outcomeUnknown: (_, params: { error: unknown }) => params.error instanceof EffectOutcomeUnknownError,
      /** Another connection held the orders database's lock for longer than a write waits: nothing was refunded. */
      storeLocked: (_, params: { error: unknown }) => isDatabaseLocked(params.error),
    },
  }).createMachine({
    id: 'refund_order',
    version: '4',
    context: ({ input }) => ({ orderId: input.order_id, order: null, amount: '', note: '', refund: null }),
    initial: 'lookingUp',
    states: {
      lookingUp: {
        // what the user reads (a progress notification) while the invoked work runs
        meta: { progress: 'Looking up the order…' },
        invoke: {
          id: 'lookup',
          src: 'lookupOrder',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'checkingOrder', actions: { type: 'rememberOrder', params: ({ event }) => ({ order: event.output }) } },
        },
      },
      checkingOrder: {
        always: [
          { guard: 'orderMissing', target: 'notFound' },
          { guard: 'orderAlreadyRefunded', target: 'alreadyRefunded' },
          { target: 'confirming' },
        ],
      },
      confirming: {
        meta: { ask: ['confirm'] },
        on: {
          'confirm.accept': [{ guard: 'confirmed', target: 'refunding' }, { target: 'kept' }],
          'confirm.decline': 'kept',
          'confirm.cancel': 'kept',
        },
      },
      refunding: {
        meta: { progress: 'Refunding the order…' },
        invoke: {
          id: 'refund',
          src: 'refundOrder',
          // the amount the user confirmed travels with the refund: the engine checks it, the store refunds exactly it
          input: ({ context }) => ({ orderId: context.orderId, amountCents: context.order?.amountCents ?? 0 }),
          onDone: { target: 'checkingRefund', actions: { type: 'rememberRefund', params: ({ event }) => ({ result: event.output }) } },
          onError: [
            {
              guard: { type: 'amountChanged', params: ({ event }) => ({ error: event.error }) },
              target: 'confirming',
              actions: {
                type: 'noteNewAmount',
                params: ({ event }) => ({ amountCents: (event.error as ConfirmedValueChangedError).current as number }),
              },
            },
            {
              guard: { type: 'orderVanished', params: ({ event }) => ({ error: event.error }) },
              target: 'notFound',
              actions: 'forgetOrder',
            },
            { guard: { type: 'outcomeUnknown', params: ({ event }) => ({ error: event.error }) }, target: 'recheckingOrder' },
            { guard: { type: 'storeLocked', params: ({ event }) => ({ error: event.error }) }, target: 'locked' },
          ],
        },
      },
      // the refund was started by a server that stopped before recording its outcome: read the order again
      recheckingOrder: {
        meta: { progress: 'Checking whether the refund went through…' },
        invoke: {
          id: 'recheck',
          src: 'lookupOrder',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'checkingInterrupted', actions: { type: 'rememberOrder', params: ({ event }) => ({ order: event.output }) } },
        },
      },
      checkingInterrupted: {
        always: [
          { guard: 'orderMissing', target: 'notFound' },
          { guard: 'orderAlreadyRefunded', target: 'alreadyRefunded' },
          { target: 'interrupted' },
        ],
      },
      checkingRefund: {
        always: [
          { guard: 'refundDone', target: 'refunded' },
          // the amount changed between the engine's check and the store's transaction: nothing was refunded
          { guard: 'refundSawNewAmount', target: 'amountChanged' },
          // another conversation refunded it between the question and the answer
          { guard: 'orderMissing', target: 'notFound' },
          { target: 'alreadyRefunded' },
        ],
      },
      refunded: finalFor('refunded'),
      alreadyRefunded: finalFor('already_refunded'),
      kept: finalFor('kept'),
      notFound: finalFor('not_found'),
      amountChanged: finalFor('amount_changed'),
      interrupted: finalFor('interrupted'),
      locked: finalFor('locked'),
    },
    output: ({ event }) => event.output as RefundOutput,
  });

  return defineTool({
    name: 'refund_order',
    title: 'Refund an order',
    description:
      "Refunds a customer's order after the user confirms the amount. An order is refunded at most once, and only by the amount " +
      'the user confirmed: if the amount changed meanwhile, the user is asked again. Asking for an order that was already refunded says so and changes nothing.',
    input: z.object({ order_id: orderIdArgument }),
    questions,
    machine,
    output: refundOutputSchema,
    result: async (found) => {
      // "kept" from an older state of a conversation whose refund went through since: say what is true now
      const order = found.status === 'kept' ? await store.findOrder(found.order_id) : undefined;
      const output =
        order?.status === 'refunded'
          ? outputFor('already_refunded', { orderId: found.order_id, order, amount: '', note: '', refund: null }, lockedIn)
          : found;
      return { text: output.message, structured: output, isError: ['not_found', 'interrupted', 'locked'].includes(output.status) };
    },
    // version 3 added the states that read the order again after an interrupted refund, version 4 the
    // state of a refund the locked database stopped; states sealed by earlier versions stand in states
    // the latest still has, so they continue as they are
    migrations: { '2': { to: '3', migrate: (snapshot) => snapshot }, '3': { to: '4', migrate: (snapshot) => snapshot } },
    annotations: { destructiveHint: true, idempotentHint: false, readOnlyHint: false, openWorldHint: false },
    effects: {
      refundOrder: {
        once: true,
        confirmed: {
          shown: ({ input }) => input.amountCents,
          current: async ({ input }) => (await store.findOrder(input.orderId))?.amountCents ?? null,
        },
      },
    },
  });
}
