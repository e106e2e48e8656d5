// The `refund_order` tool, declared as a flow: load the order, end early when there is none or it was refunded,
// ask to confirm the amount, refund exactly it once. It was hand-written: examples/refund-order-machine-example.ts.
import { EffectOutcomeUnknownError, safeText, type ToolDefinition } from '@roundtrip/engine';
import { defineFlowTool, type LoaderArgsFor } from '@roundtrip/tools';
import { z } from 'zod';
import { isDatabaseLocked } from './database-locked.ts';
import { formatCents } from './money.ts';
import { orderIdArgument } from './order-id.ts';
import type { Order, OrdersStore } from './orders-store.ts';
import { refundOrderMigrations } from './refund-order-versions.ts';
import { type OrderAsRead, type RefundStatus, refundOutput, refundOutputSchema } from './refund-output.ts';

const isRefunded = (order: Order) => order.status === 'refunded' || order.refundedAt !== null;
const refundInput = z.object({ order_id: orderIdArgument });
/** What the flow loads of an order (null: there is none), as sealed into the states that ask to confirm it. */
type LoadedOrder = (Pick<Order, 'id' | 'amountCents' | 'refundedAt'> & { amount: string; refunded: boolean; question: string }) | null;
/** The statuses whose result is an error result. */
const ERROR_STATUSES: ReadonlySet<RefundStatus> = new Set(['not_found', 'interrupted', 'locked']);

/** `refund_order` over an orders store: `createRefundOrderTool((await openDemoStores(dbLocation())).orders)`. The ledger refunds once, in
 * one transaction with the store's when `ledgerInDatabase` (the default); the flow reads the amount again first; the store checks both. */
export function createRefundOrderTool(
  store: Pick<OrdersStore, 'findOrder' | 'refundOrder'> & Partial<Pick<OrdersStore, 'backend'>>,
  { ledgerInDatabase = true }: { ledgerInDatabase?: boolean } = {},
): ToolDefinition {
  /** The result for `status` about `order` as last read; `cents`: the amount a refund took. */
  const result = (status: RefundStatus, orderId: string, order: OrderAsRead | null | undefined, cents?: number) => {
    const structured = refundOutput(status, orderId, order, cents, store.backend ?? 'sqlite');
    return { text: structured.message, structured, isError: ERROR_STATUSES.has(status) };
  };
  // "kept" from an older state of a conversation whose refund went through since: say what is true now
  const kept = async (id: string, order: OrderAsRead | null | undefined) => {
    const now = await store.findOrder(id);
    return now && isRefunded(now) ? result('already_refunded', id, now) : result('kept', id, order);
  };
  return defineFlowTool({
    name: 'refund_order',
    title: 'Refund an order',
    description:
      "Refunds a customer's order after the user confirms the amount. An order is refunded at most once, and only by the amount " +
      'the user confirmed: if the amount changed meanwhile, the user is asked again. Asking for an order that was already refunded says so and changes nothing.',
    input: refundInput,
    output: refundOutputSchema,
    annotations: { destructiveHint: true, idempotentHint: false, readOnlyHint: false, openWorldHint: false },
    version: '5', // 2 to 4 were the hand-written machine
    migrations: refundOrderMigrations,
    finalName: 'refund',
    finalProgress: 'Refunding the order…', // what the user reads while it runs
    finalInLedgerTransaction: ledgerInDatabase, // the refund commits with its ledger record: exactly once
    loaders: {
      // `previous`: what it loaded before, when the order is loaded again (the amount changed since the user was asked)
      findOrder: async ({ input, previous }: LoaderArgsFor<z.output<typeof refundInput>, LoadedOrder>): Promise<LoadedOrder> => {
        const order = await store.findOrder(input.order_id);
        if (!order) return null;
        const [amount, id] = [formatCents(order.amountCents), safeText(input.order_id)];
        const note =
          previous && previous.amountCents !== order.amountCents
            ? `The amount of order ${id} changed to ${amount} since you were asked. `
            : '';
        // what later steps read, no more: the loaded order is sealed into every requestState that asks
        const { amountCents, refundedAt } = order;
        return {
          id: order.id,
          amountCents,
          refundedAt,
          amount,
          refunded: isRefunded(order),
          question: `${note}Refund ${amount} for order ${id}?`,
        };
      },
    },
    steps: (flow) =>
      flow
        .load('order', {
          run: 'findOrder',
          progress: 'Looking up the order…',
          next: [
            { if: { 'order.id': { answered: false } }, end: 'There is no order {{input.order_id}}.' },
            { if: { 'order.refunded': { eq: true } }, end: 'It was refunded.' },
            { goto: 'confirm' },
          ],
        })
        .ask('confirm', {
          message: '{{order.question}}',
          fields: { confirm: z.boolean().describe('Yes to refund') },
          // the amount is read again right before the refund; when it changed, the order is loaded again and the user asked again
          confirmed: {
            shown: ({ loaded }) => loaded.order?.amountCents ?? null,
            current: async ({ input }) => (await store.findOrder(input.order_id))?.amountCents ?? null,
            onChange: 'order',
          },
          next: [{ if: { 'confirm.confirm': { eq: false } }, end: 'The refund was not confirmed.' }, { goto: 'finish' }],
        }),
    final: async ({ input, loaded, transaction }) => {
      const expectedAmountCents = loaded.order?.amountCents ?? 0; // exactly the confirmed amount
      const refund = await store.refundOrder(input.order_id, { expectedAmountCents, transaction });
      if (refund.status === 'not_found') return result('not_found', input.order_id, null);
      return result(refund.status, input.order_id, refund.order, refund.status === 'refunded' ? refund.amountCents : undefined);
    },
    outcome: async (ended) => {
      const { input, loaded } = ended;
      if (ended.how === 'load_failed') return undefined; // the order could not be read: the flow's message, an error
      if (ended.how === 'stopped' && ended.step === 'order')
        return result(loaded.order ? 'already_refunded' : 'not_found', input.order_id, loaded.order);
      if (ended.how !== 'final_failed') return kept(input.order_id, loaded.order); // declined, or not confirmed
      if (isDatabaseLocked(ended.error)) return result('locked', input.order_id, loaded.order);
      if (!(ended.error instanceof EffectOutcomeUnknownError)) return undefined; // fails the round, as without this
      const order = (await store.findOrder(input.order_id)) ?? null; // the server stopped mid-refund: the store says what happened
      return result(!order ? 'not_found' : isRefunded(order) ? 'already_refunded' : 'interrupted', input.order_id, order);
    },
  });
}
