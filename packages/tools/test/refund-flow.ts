// A refund declared as a flow that loads the order first, over a store whose reads are async (as
// PostgreSQL's are): it ends early when there is no such order, shows the loaded amount, checks the
// reason against the store, and refunds once. The store can be told to fail its next reads.
import { z } from 'zod';
import { ask, defineFlowTool, field, load, review } from '../src/index.ts';

export interface Order {
  readonly amount: number;
  readonly customer: string;
  readonly refunded: boolean;
}

/** Orders by id, read asynchronously; `failNext` makes the next reads throw. */
export function orderStore(orders: Record<string, Order>) {
  const store = {
    reads: 0,
    failNext: 0,
    refunds: [] as string[],
    async find(id: string): Promise<Order | undefined> {
      store.reads++;
      await Promise.resolve();
      if (store.failNext > 0) {
        store.failNext--;
        throw new Error('connection to the orders database was reset');
      }
      return orders[id];
    },
    async blockedReason(reason: string): Promise<string | undefined> {
      await Promise.resolve();
      return /^test/i.test(reason) ? 'a test is not a reason to refund' : undefined;
    },
  };
  return store;
}

export type OrderStore = ReturnType<typeof orderStore>;

export const orders: Record<string, Order> = {
  ord_1: { amount: 40, customer: 'Ada', refunded: false },
  ord_2: { amount: 15, customer: 'Grace', refunded: true },
};

export function refundTool(store: OrderStore, options: { retries?: number } = {}) {
  return defineFlowTool({
    name: 'refund_order',
    description: 'Refunds an order after the user confirms the amount',
    input: z.object({ orderId: z.string() }),
    loaders: {
      // a missing order is a value the flow branches on; a failure to read is an error
      findOrder: async ({ input }) => {
        const order = await store.find(input.orderId);
        return order ? { found: true as const, ...order } : { found: false as const };
      },
    },
    steps: {
      order: load({
        run: 'findOrder',
        retries: options.retries ?? 0,
        onError: 'The order {{input.orderId}} could not be read: {{error}}',
        next: [
          { if: { 'order.found': { eq: false } }, end: 'There is no order {{input.orderId}}.' },
          { if: { 'order.refunded': { eq: true } }, end: 'Order {{input.orderId}} was already refunded.' },
          { goto: 'why' },
        ],
      }),
      why: ask({
        message: 'Why refund {{order.amount}} to {{order.customer}}?',
        fields: { reason: field.text({ title: 'Reason', minLength: 2 }) },
        check: async ({ answer }) => store.blockedReason(answer.reason),
      }),
      confirm: review({
        message: 'Refund {{order.amount}} for order {{input.orderId}}?',
        show: async ({ loaded }) => {
          const order = loaded.order as { amount: number } | undefined;
          return { Amount: `$${order?.amount ?? 0}.00` };
        },
      }),
    },
    final: ({ input, loaded, answers }) => {
      store.refunds.push(`${input.orderId} ${loaded.order?.found ? loaded.order.amount : '?'} ${answers.why?.reason}`);
      return { text: `Refunded ${loaded.order?.found ? loaded.order.amount : 0} for ${input.orderId}.` };
    },
  });
}
