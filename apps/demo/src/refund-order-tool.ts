// The `refund_order` tool: look the order up, ask the user to confirm, refund it at most once.
import { type AnswerEvent, ask, defineTool, type ToolDefinition } from '@roundtrip/engine';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { formatCents } from './money.ts';
import type { Order, OrdersStore, RefundResult } from './orders-store.ts';

export type RefundStatus = 'refunded' | 'already_refunded' | 'kept' | 'not_found';

/** What the tool answers with: the text for the model and the structured content. */
export type RefundOutput = {
  status: RefundStatus;
  order_id: string;
  /** The order's amount as text (`$49.00`), null when there is no such order. */
  amount: string | null;
  amount_cents: number | null;
  /** When the order was refunded (ISO 8601), null when it was not. */
  refunded_at: string | null;
  message: string;
};

type RefundContext = {
  orderId: string;
  order: Order | null;
  /** What the store said when asked to refund; null until then. */
  refundOutcome: RefundResult['status'] | null;
};

const confirmSchema = z.object({ confirm: z.boolean().describe('Yes to refund') });
type ConfirmEvent = AnswerEvent<'confirm', z.output<typeof confirmSchema>>;

function outputFor(status: RefundStatus, { orderId, order }: RefundContext): RefundOutput {
  const amount = order ? formatCents(order.amountCents) : null;
  const refundedOn = order?.refundedAt ? ` on ${order.refundedAt.slice(0, 10)}` : '';
  const message = {
    not_found: `No order with id '${orderId}'. Check the order id (it looks like 'ord_51') and try again.`,
    already_refunded: `Order ${orderId} was already refunded${refundedOn}; nothing more was done.`,
    kept: `Order ${orderId} was not refunded.`,
    refunded: `Refunded ${amount} for order ${orderId}.`,
  }[status];
  return {
    status,
    order_id: orderId,
    amount,
    amount_cents: order?.amountCents ?? null,
    refunded_at: order?.refundedAt ?? null,
    message,
  };
}

/**
 * Builds the `refund_order` tool over an orders store. The store, not the client, decides whether an
 * order may still be refunded, so a replayed or concurrent confirmation never refunds twice.
 *
 * @example
 * const tool = createRefundOrderTool(openOrdersStore(dbPath()));
 */
export function createRefundOrderTool(store: Pick<OrdersStore, 'findOrder' | 'refundOrder'>): ToolDefinition {
  const machine = setup({
    types: {
      input: {} as { order_id: string },
      context: {} as RefundContext,
      events: {} as ConfirmEvent,
      output: {} as RefundOutput,
    },
    actors: {
      lookupOrder: fromPromise<Order | null, { orderId: string }>(async ({ input }) => store.findOrder(input.orderId) ?? null),
      refundOrder: fromPromise<RefundResult, { orderId: string }>(async ({ input }) => store.refundOrder(input.orderId)),
    },
    actions: {
      rememberOrder: assign((_, params: { order: Order | null }) => ({ order: params.order })),
      rememberRefund: assign((_, params: { result: RefundResult }) => ({
        order: params.result.status === 'not_found' ? null : params.result.order,
        refundOutcome: params.result.status,
      })),
    },
    guards: {
      orderMissing: ({ context }) => context.order === null,
      orderAlreadyRefunded: ({ context }) => context.order !== null && (context.order.status === 'refunded' || context.order.refundedAt !== null),
      refundDone: ({ context }) => context.refundOutcome === 'refunded',
      confirmed: ({ event }) => event.type === 'confirm.accept' && event.content.confirm === true,
    },
  }).createMachine({
    id: 'refund_order',
    version: '1',
    context: ({ input }) => ({ orderId: input.order_id, order: null, refundOutcome: null }),
    initial: 'lookingUp',
    states: {
      lookingUp: {
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
        meta: {
          ask: {
            confirm: ask<RefundContext, typeof confirmSchema>({
              message: ({ context }) => `Refund ${formatCents(context.order?.amountCents ?? 0)} for order ${context.orderId}?`,
              schema: confirmSchema,
            }),
          },
        },
        on: {
          'confirm.accept': [{ guard: 'confirmed', target: 'refunding' }, { target: 'kept' }],
          'confirm.decline': 'kept',
          'confirm.cancel': 'kept',
        },
      },
      refunding: {
        invoke: {
          id: 'refund',
          src: 'refundOrder',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'checkingRefund', actions: { type: 'rememberRefund', params: ({ event }) => ({ result: event.output }) } },
        },
      },
      checkingRefund: {
        always: [
          { guard: 'refundDone', target: 'refunded' },
          // another request refunded it between the question and the answer
          { guard: 'orderMissing', target: 'notFound' },
          { target: 'alreadyRefunded' },
        ],
      },
      refunded: { type: 'final', output: ({ context }) => outputFor('refunded', context) },
      alreadyRefunded: { type: 'final', output: ({ context }) => outputFor('already_refunded', context) },
      kept: { type: 'final', output: ({ context }) => outputFor('kept', context) },
      notFound: { type: 'final', output: ({ context }) => outputFor('not_found', context) },
    },
    output: ({ event }) => event.output as RefundOutput,
  });

  return defineTool({
    name: 'refund_order',
    title: 'Refund an order',
    description:
      "Refunds a customer's order after the user confirms the amount. An order is refunded at most once; " +
      'asking again for an order that was already refunded says so and changes nothing.',
    input: z.object({ order_id: z.string().min(1).describe("The order's id, e.g. 'ord_51'") }),
    machine,
    result: (output) => ({ text: output.message, structured: output, isError: output.status === 'not_found' }),
  });
}
