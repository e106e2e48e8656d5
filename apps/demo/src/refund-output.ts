// What refund_order answers with, as structured content: its schema and its words for each status, shared by the
// declared tool (refund-order-tool.ts) and the hand-written machine it was before (examples/refund-order-machine-example.ts).
import { safeText } from '@roundtrip/engine';
import { z } from 'zod';
import { formatCents } from './money.ts';
import type { Order, OrdersStore } from './orders-store.ts';

export const refundOutputSchema = z.object({
  status: z.enum(['refunded', 'already_refunded', 'kept', 'not_found', 'amount_changed', 'interrupted', 'locked']),
  order_id: z.string(),
  /** The order's amount as text (`$49.00`); for `refunded`, the amount refunded. Null when there is no such order. */
  amount: z.string().nullable(),
  amount_cents: z.int().nullable(),
  /** When the order was refunded (ISO 8601), null when it was not. */
  refunded_at: z.string().nullable(),
  message: z.string(),
});

/** refund_order's structured content. */
export type RefundOutput = z.output<typeof refundOutputSchema>;
export type RefundStatus = RefundOutput['status'];

/** What a result says of an order: the whole one from the store, or what the flow loaded of it. */
export type OrderAsRead = Pick<Order, 'amountCents' | 'refundedAt'>;

/** Where the lock that stopped a refund is held, said in the `locked` message. */
const LOCK_HOLDER: Record<OrdersStore['backend'], string> = {
  sqlite: 'a long transaction on the same file',
  postgres: 'a long transaction on the same PostgreSQL database',
};

/**
 * refund_order's structured content for `status` about `order` as last read (null: there is none); `cents`, the
 * amount a refund took; `backend`, where the orders are (for `locked`). Only the status's own message is written.
 */
export function refundOutput(
  status: RefundStatus,
  orderId: string,
  order: OrderAsRead | null | undefined,
  cents: number | undefined,
  backend: OrdersStore['backend'],
): RefundOutput {
  const id = safeText(orderId); // the id as the client sent it may hold anything: results repeat it as safe text
  const amountCents = cents ?? order?.amountCents ?? null;
  const amount = amountCents === null ? null : formatCents(amountCents);
  const message = {
    not_found: () => `No order with id '${id}'. Check the order id (it looks like 'ord_51') and try again.`,
    already_refunded: () =>
      `Order ${id} was already refunded${order?.refundedAt ? ` on ${order.refundedAt.slice(0, 10)}` : ''}; nothing more was done.`,
    kept: () => `Order ${id} was not refunded.`,
    refunded: () => `Refunded ${amount} for order ${id}.`,
    amount_changed: () =>
      `The amount of order ${id} changed to ${amount} while it was being refunded, so nothing was refunded. Call refund_order again to refund the new amount.`,
    interrupted: () =>
      `The refund of order ${id} was interrupted (the server stopped while refunding), and the order shows no refund. Call refund_order again to refund it.`,
    locked: () =>
      `Order ${id} was not refunded: the orders database is locked by another connection (${LOCK_HOLDER[backend]}). Call refund_order again in a moment.`,
  }[status]();
  return { status, order_id: id, amount, amount_cents: amountCents, refunded_at: order?.refundedAt ?? null, message };
}
