// What refund_order answers with, as structured content: its schema, shared by the declared tool
// (refund-order-tool.ts) and the hand-written machine it was before (examples/refund-order-machine-example.ts).
import { z } from 'zod';

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
