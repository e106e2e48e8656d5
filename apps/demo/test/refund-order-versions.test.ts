// The migration from the hand-written refund machine (version 4) to the declared flow (version 5) takes
// only what version 4 could seal, a question in `confirming`; the whole path is refund-order.test.ts's.
import { describe, expect, it } from 'vitest';
import { refundOrderMigrations } from '../src/refund-order-versions.ts';

const order = { id: 'ord_51', amountCents: 4900, status: 'paid', refundedAt: null };
const context = { orderId: 'ord_51', order, amount: '$49.00', note: '', refund: null };

describe('refund_order from version 4 to 5', () => {
  it("continues a question asked in 'confirming' at the flow's confirm step, with the order it had read", () => {
    const migrated = refundOrderMigrations['4']!.migrate({ value: 'confirming', context });
    expect(migrated.value).toBe('confirm');
    expect(migrated.context).toMatchObject({
      input: { order_id: 'ord_51' },
      loaded: {
        order: {
          id: 'ord_51',
          amountCents: 4900,
          refundedAt: null,
          amount: '$49.00',
          refunded: false,
          question: 'Refund $49.00 for order ord_51?',
        },
      },
    });
    // what the flow's loader keeps of an order, no more: the rest of the order is not carried on
    expect(Object.keys((migrated.context as { loaded: { order: object } }).loaded.order)).toHaveLength(6);
  });

  it('refuses, by name, a state version 4 never sealed', () => {
    expect(() => refundOrderMigrations['4']!.migrate({ value: 'refunding', context })).toThrow(
      `version 4 sealed states only in 'confirming', not in "refunding"`,
    );
  });
});
