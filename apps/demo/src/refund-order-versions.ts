// How states sealed by earlier versions of `refund_order` continue in the current one. Versions 2 to 4
// were the hand-written machine (examples/refund-order-machine-example.ts); version 5 is the declared flow.
import { type MachineMigrations, type MigrationSnapshot, safeText } from '@roundtrip/engine';

/**
 * A state the hand-written machine (version 4) sealed, as the flow's: it asked only in `confirming`, with
 * the order it had read, its amount as text and the note said before the question when asked again.
 */
function fromMachineV4({ value, context }: MigrationSnapshot): MigrationSnapshot {
  // version 4 sealed only while asking; any other state would be a forged or broken one: refuse it by name
  if (value !== 'confirming') throw new Error(`version 4 sealed states only in 'confirming', not in ${JSON.stringify(value)}`);
  const { orderId, order, amount, note } = context as {
    orderId: string;
    order: { id: string; amountCents: number };
    amount: string;
    note: string;
  };
  // what the flow's `order` step loads (refund-order-tool.ts): an order it asked about was not refunded
  const question = `${note}Refund ${amount} for order ${safeText(orderId)}?`;
  const loaded = { order: { id: order.id, amountCents: order.amountCents, refundedAt: null, amount, refunded: false, question } };
  const context5 = { input: { order_id: orderId }, answers: {}, trail: ['order', 'confirm'], problems: {}, reviewing: false, loaded };
  return { value: 'confirm', context: context5 };
}

/**
 * Version 3 added the states that read the order again after an interrupted refund, version 4 the state
 * of a refund the locked database stopped: states sealed by earlier versions stand in states the later
 * ones still have, so they continue as they are. Version 5 declares the tool as a flow.
 */
export const refundOrderMigrations: MachineMigrations = {
  '2': { to: '3', migrate: (snapshot) => snapshot },
  '3': { to: '4', migrate: (snapshot) => snapshot },
  '4': { to: '5', migrate: fromMachineV4 },
};
