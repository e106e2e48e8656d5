// The `order_status` tool: says what state an order is in. It never asks anything, so it also shows
// that a requestState is only ever accepted by the tool and arguments it was sealed for.
import { defineTool, safeText, type ToolDefinition } from '@roundtrip/engine';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { formatCents } from './money.ts';
import { orderIdArgument } from './order-id.ts';
import type { Order, OrdersStore } from './orders-store.ts';

const orderStatusOutputSchema = z.object({
  order_id: z.string(),
  found: z.boolean(),
  status: z.enum(['paid', 'refunded']).nullable(),
  amount: z.string().nullable(),
  /** When the order was placed (ISO 8601), null when there is no such order. */
  created_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  message: z.string(),
});

type OrderStatusOutput = z.output<typeof orderStatusOutputSchema>;

/**
 * Builds the read-only `order_status` tool over an orders store.
 *
 * @example
 * const tool = createOrderStatusTool((await openDemoStores(dbLocation())).orders);
 */
export function createOrderStatusTool(store: Pick<OrdersStore, 'findOrder'>): ToolDefinition {
  const machine = setup({
    types: {
      input: {} as { order_id: string },
      context: {} as { orderId: string; order: Order | null },
      output: {} as OrderStatusOutput,
    },
    actors: {
      lookupOrder: fromPromise<Order | null, { orderId: string }>(async ({ input }) => (await store.findOrder(input.orderId)) ?? null),
    },
    actions: {
      keepOrder: assign({ order: (_, order: Order | null) => order }),
    },
  }).createMachine({
    id: 'order_status',
    version: '2',
    context: ({ input }) => ({ orderId: input.order_id, order: null }),
    initial: 'lookingUp',
    states: {
      lookingUp: {
        meta: { progress: 'Looking up the order…' },
        invoke: {
          id: 'lookup',
          src: 'lookupOrder',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'reported', actions: { type: 'keepOrder', params: ({ event }) => event.output } },
        },
      },
      reported: { type: 'final' },
    },
    // the id as the client sent it may hold anything: results repeat it, and the customer's name, as safe text
    output: ({ context: { orderId, order } }) => {
      const id = safeText(orderId);
      const about = order && `Order ${id} (${formatCents(order.amountCents)}, customer ${safeText(order.customer)})`;
      return {
        order_id: id,
        found: order !== null,
        status: order?.status ?? null,
        amount: order ? formatCents(order.amountCents) : null,
        created_at: order?.createdAt ?? null,
        refunded_at: order?.refundedAt ?? null,
        message: !order
          ? `No order with id '${id}'.`
          : order.refundedAt
            ? `${about} was refunded on ${order.refundedAt.slice(0, 10)}.`
            : `${about} is paid and can be refunded.`,
      };
    },
  });

  return defineTool({
    name: 'order_status',
    title: 'Order status',
    description: 'Tells whether an order exists, its amount, and whether it was refunded. Changes nothing.',
    input: z.object({ order_id: orderIdArgument }),
    machine,
    output: orderStatusOutputSchema,
    result: (output) => ({ text: output.message, structured: output, isError: !output.found }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  });
}
