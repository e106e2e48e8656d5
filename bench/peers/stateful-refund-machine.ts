// The stateful peer's refund conversation as an XState machine kept live between rounds: look the order
// up, wait at `confirming` for the user's answer, then refund or keep. Its actor lives in the server's
// memory from the first round until the answer (what a server that keeps live actors holds per conversation).
import { assign, fromPromise, setup } from 'xstate';
import type { PeerOrder, PeerOrders, PeerRefund } from './peer-orders.ts';

export type Outcome = { status: 'refunded' | 'already_refunded' | 'kept' | 'not_found' | 'amount_changed'; amountCents: number | null };

export function createStatefulRefundMachine(orders: PeerOrders, principal: string) {
  return setup({
    types: {
      input: {} as { orderId: string },
      context: {} as { orderId: string; order: PeerOrder | null; refund: PeerRefund | null },
      events: {} as { type: 'answer'; confirm: boolean },
      output: {} as Outcome,
    },
    actors: {
      lookup: fromPromise<PeerOrder | null, { orderId: string }>(async ({ input }) => orders.findOrder(input.orderId) ?? null),
      refund: fromPromise<PeerRefund, { orderId: string; amountCents: number }>(async ({ input }) =>
        orders.refund(input.orderId, input.amountCents, principal, crypto.randomUUID()),
      ),
    },
  }).createMachine({
    id: 'stateful_refund',
    context: ({ input }) => ({ orderId: input.orderId, order: null, refund: null }),
    initial: 'lookingUp',
    states: {
      lookingUp: {
        invoke: {
          src: 'lookup',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'checking', actions: assign({ order: ({ event }) => event.output }) },
        },
      },
      checking: {
        always: [
          { guard: ({ context }) => context.order === null, target: 'notFound' },
          { guard: ({ context }) => context.order?.status === 'refunded', target: 'alreadyRefunded' },
          { target: 'confirming' },
        ],
      },
      confirming: { on: { answer: [{ guard: ({ event }) => event.confirm, target: 'refunding' }, { target: 'kept' }] } },
      refunding: {
        invoke: {
          src: 'refund',
          input: ({ context }) => ({ orderId: context.orderId, amountCents: context.order?.amountCents ?? 0 }),
          onDone: { target: 'refunded', actions: assign({ refund: ({ event }) => event.output }) },
        },
      },
      refunded: { type: 'final' },
      kept: { type: 'final' },
      notFound: { type: 'final' },
      alreadyRefunded: { type: 'final' },
    },
    output: ({ context }): Outcome => {
      const amountCents = context.order?.amountCents ?? null;
      if (context.order === null) return { status: 'not_found', amountCents };
      if (context.refund) return { status: context.refund.status, amountCents };
      return { status: context.order.status === 'refunded' ? 'already_refunded' : 'kept', amountCents };
    },
  });
}
