// The `refund_customer` tool: refunds every paid order of a customer after one confirmation. The refunds go
// through a slow payment provider (ROUNDTRIP_DEMO_REFUND_MS per order), so they run as an MCP task for a client
// that consents to tasks (inside the request for one that does not): each order its own once-effect, the amount
// the user confirmed read again before each refund, an order whose amount changed asked about inside the task.
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
import { assign, fromPromise, setup, spawnChild } from 'xstate';
import { z } from 'zod';
import { formatCents } from './money.ts';
import type { Order, OrdersStore, RefundResult } from './orders-store.ts';
import { demoRefundMs, providerDelay } from './refund-delay.ts';

/** One order to refund, with the amount the user confirmed for it. */
type ToRefund = { id: string; amountCents: number };
/** The payment provider's part of one refund: takes long, stops when `signal` fires. */
export type PaymentProvider = (order: ToRefund, signal: AbortSignal) => Promise<void>;

type Context = {
  customer: string;
  /** The customer as results and questions show it. */
  who: string;
  orders: ToRefund[];
  count: number;
  total: string;
  /** The position of the order being refunded (or asked about); `orders.length` once all are done. */
  index: number;
  refunded: ToRefund[];
  refundedCount: number;
  /** What happened to each order not refunded, in words. */
  notRefunded: string[];
  /**
   * The attempt at the current order: 2 and on after a refund whose server died before it recorded whether it
   * happened (the order is read again, and refunded again under a new effect key when it is still paid).
   */
  attempt: number;
  /** The order whose amount changed since the confirmation, asked about. */
  changed: { id: string; was: string; now: string; nowCents: number } | null;
};

const questions = defineQuestions<Context>()({
  confirm: {
    message: 'Refund {{count}} orders of {{who}} totalling {{total}}?',
    schema: z.object({ confirm: z.boolean().default(false).describe('Yes to refund them all') }),
  },
  changed: {
    message:
      'Refunded {{refundedCount}} of {{count}} orders. The amount of order {{changed.id}} changed from {{changed.was}} to {{changed.now}} since you confirmed. Refund {{changed.now}} for it?',
    schema: z.object({ refund: z.boolean().default(false).describe('Yes to refund the new amount, no to skip this order') }),
  },
});

/** How the child refunding one order (`refund <order id>`) ends: the events its parent gets. */
type OrderDone = { type: `xstate.done.actor.${string}`; output: RefundResult };
type OrderFailed = { type: `xstate.error.actor.${string}`; error: unknown };

const isNewAmount = (error: unknown): error is ConfirmedValueChangedError & { current: number } =>
  error instanceof ConfirmedValueChangedError && typeof error.current === 'number';

/** Words for an order the store did not refund. */
function notRefundedWords(id: string, result: RefundResult): string {
  if (result.status === 'already_refunded') return `${id} was already refunded`;
  if (result.status === 'amount_changed') return `${id} changed to ${formatCents(result.order.amountCents)} as it was refunded`;
  return `${id} no longer exists`;
}

/**
 * `refund_customer` over an orders store: `createRefundCustomerTool(stores.orders)`. `provider`: the slow
 * part of each refund, by default a wait of ROUNDTRIP_DEMO_REFUND_MS (read at each refund) that stops on
 * its AbortSignal.
 */
export function createRefundCustomerTool(
  store: Pick<OrdersStore, 'findOrder' | 'refundOrder' | 'paidOrdersOf'>,
  { provider = (_, signal) => providerDelay(demoRefundMs(), signal) }: { provider?: PaymentProvider } = {},
): ToolDefinition {
  const machine = setup({
    types: {
      input: {} as { customer: string },
      context: {} as Context,
      events: {} as AnswerEvents<typeof questions> | OrderDone | OrderFailed,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { text: string },
    },
    actors: {
      findPaidOrders: fromPromise<ToRefund[], { customer: string }>(async ({ input }) =>
        (await store.paidOrdersOf(input.customer)).map(({ id, amountCents }) => ({ id, amountCents })),
      ),
      // one order: the provider (slow), then the store refunds exactly the confirmed amount, at most once
      refundOne: fromPromise<RefundResult, ToRefund>(async ({ input, signal }) => {
        await provider(input, signal);
        return store.refundOrder(input.id, { expectedAmountCents: input.amountCents });
      }),
      // after a refund whose outcome is unknown: what the order says now
      readOrder: fromPromise<Order | null, { id: string }>(async ({ input }) => (await store.findOrder(input.id)) ?? null),
    },
    actions: {
      rememberOrders: assign((_, { orders }: { orders: ToRefund[] }) => ({
        orders,
        count: orders.length,
        total: formatCents(orders.reduce((sum, o) => sum + o.amountCents, 0)),
      })),
      // each order its own child (and so its own ledger record): `refund <order id>`
      refundNext: spawnChild('refundOne', {
        id: ({ context }) => {
          const id = context.orders[context.index]?.id;
          return context.attempt === 1 ? `refund ${id}` : `refund ${id} (attempt ${context.attempt})`;
        },
        input: ({ context }) => context.orders[context.index] as ToRefund,
      }),
      rememberRefund: assign(({ context }, { result }: { result: RefundResult }) => {
        const order = context.orders[context.index] as ToRefund;
        return result.status === 'refunded'
          ? {
              attempt: 1,
              index: context.index + 1,
              refunded: [...context.refunded, { id: order.id, amountCents: result.amountCents }],
              refundedCount: context.refundedCount + 1,
            }
          : { attempt: 1, index: context.index + 1, notRefunded: [...context.notRefunded, notRefundedWords(order.id, result)] };
      }),
      noteChange: assign(({ context }, { nowCents }: { nowCents: number }) => {
        const order = context.orders[context.index] as ToRefund;
        return { changed: { id: order.id, was: formatCents(order.amountCents), now: formatCents(nowCents), nowCents } };
      }),
      takeNewAmount: assign(({ context }) => ({
        orders: context.orders.map((o, i) =>
          i === context.index && context.changed ? { ...o, amountCents: context.changed.nowCents } : o,
        ),
        changed: null,
      })),
      failRefund: ({ event }) => {
        const { error } = event as { error?: unknown };
        throw error instanceof Error ? error : new Error(String(error));
      },
      tryAgain: assign(({ context }) => ({ attempt: context.attempt + 1 })),
      skipOrder: assign(({ context }, { why }: { why: string }) => {
        const order = context.orders[context.index] as ToRefund;
        return { attempt: 1, index: context.index + 1, changed: null, notRefunded: [...context.notRefunded, `${order.id} ${why}`] };
      }),
    },
    guards: {
      noOrders: ({ context }) => context.orders.length === 0,
      confirmed: ({ event }) => event.type === 'confirm.accept' && event.content.confirm,
      allDone: ({ context }) => context.index >= context.orders.length,
      refundNew: ({ event }) => event.type === 'changed.accept' && event.content.refund,
      /** The engine read the amount again before refunding, and it is not the one the user confirmed. */
      amountChanged: (_, { error }: { error: unknown }) => isNewAmount(error),
      orderVanished: (_, { error }: { error: unknown }) => error instanceof ConfirmedValueChangedError && error.current === null,
      /** The server refunding it died before it recorded whether the refund happened. */
      outcomeUnknown: (_, { error }: { error: unknown }) => error instanceof EffectOutcomeUnknownError,
      refundedNow: (_, { order }: { order: Order | null }) => order?.status === 'refunded',
      paidNow: (_, { order }: { order: Order | null }) => order?.status === 'paid',
    },
  }).createMachine({
    id: 'refund_customer',
    context: ({ input }) => ({
      customer: input.customer,
      who: safeText(input.customer),
      orders: [],
      count: 0,
      total: '',
      index: 0,
      refunded: [],
      refundedCount: 0,
      attempt: 1,
      notRefunded: [],
      changed: null,
    }),
    initial: 'lookingUp',
    states: {
      lookingUp: {
        meta: { progress: 'Looking up the orders…' },
        invoke: {
          id: 'lookup',
          src: 'findPaidOrders',
          input: ({ context }) => ({ customer: context.customer }),
          onDone: { target: 'checking', actions: { type: 'rememberOrders', params: ({ event }) => ({ orders: event.output }) } },
        },
      },
      checking: { always: [{ guard: 'noOrders', target: 'nothingToRefund' }, { target: 'confirming' }] },
      confirming: {
        meta: { ask: ['confirm'] },
        on: { 'confirm.accept': [{ guard: 'confirmed', target: 'next' }, { target: 'kept' }], 'confirm.*': 'kept' },
      },
      next: { always: [{ guard: 'allDone', target: 'finished' }, { target: 'refunding' }] },
      // `long`: for a client that consents to tasks the call answers a task here; one order per pass
      refunding: {
        meta: { long: true, progress: 'Refunded {{refundedCount}} of {{count}} orders' },
        entry: 'refundNext',
        on: {
          'xstate.done.actor.*': {
            target: 'next',
            actions: { type: 'rememberRefund', params: ({ event }) => ({ result: event.output }) },
          },
          'xstate.error.actor.*': [
            {
              guard: { type: 'amountChanged', params: ({ event }) => ({ error: event.error }) },
              target: 'askingChanged',
              actions: {
                type: 'noteChange',
                params: ({ event }) => ({ nowCents: (event.error as { current: number }).current }),
              },
            },
            {
              guard: { type: 'orderVanished', params: ({ event }) => ({ error: event.error }) },
              target: 'next',
              actions: { type: 'skipOrder', params: { why: 'no longer exists' } },
            },
            {
              guard: { type: 'outcomeUnknown', params: ({ event }) => ({ error: event.error }) },
              target: 'checkingOrder',
            },
            // anything else (the database locked, the provider down): the call fails and the log says why; refunds made stay made
            { actions: 'failRefund' },
          ],
        },
      },
      // a refund whose server died mid-way: made if the order says so, else made again (a new effect key)
      checkingOrder: {
        meta: { long: true, progress: 'Refunded {{refundedCount}} of {{count}} orders' },
        invoke: {
          id: 'readOrder',
          src: 'readOrder',
          input: ({ context }) => ({ id: (context.orders[context.index] as ToRefund).id }),
          onDone: [
            {
              guard: { type: 'refundedNow', params: ({ event }) => ({ order: event.output }) },
              target: 'next',
              actions: {
                type: 'rememberRefund',
                params: ({ event }) => {
                  const order = event.output as Order;
                  return { result: { status: 'refunded', order, refundedAt: order.refundedAt ?? '', amountCents: order.amountCents } };
                },
              },
            },
            { guard: { type: 'paidNow', params: ({ event }) => ({ order: event.output }) }, target: 'refunding', actions: 'tryAgain' },
            { target: 'next', actions: { type: 'skipOrder', params: { why: 'no longer exists' } } },
          ],
        },
      },
      // inside the task: the task is input_required until the user answers
      askingChanged: {
        meta: { ask: ['changed'] },
        on: {
          'changed.accept': [
            { guard: 'refundNew', target: 'refunding', actions: 'takeNewAmount' },
            { target: 'next', actions: { type: 'skipOrder', params: { why: 'was skipped (its amount changed)' } } },
          ],
          'changed.*': { target: 'next', actions: { type: 'skipOrder', params: { why: 'was skipped (its amount changed)' } } },
        },
      },
      finished: { type: 'final', output: ({ context }) => outputOf('finished', context) },
      nothingToRefund: { type: 'final', output: ({ context }) => outputOf('nothingToRefund', context) },
      kept: { type: 'final', output: ({ context }) => outputOf('kept', context) },
    },
    output: ({ event }) => event.output as { text: string },
  });

  return defineTool({
    name: 'refund_customer',
    title: "Refund a customer's orders",
    description:
      'Refunds every paid order of a customer after the user confirms how many and the total. Each order is refunded at most once, ' +
      'by the amount confirmed; an order whose amount changed meanwhile is asked about. Slow (a payment provider per order): runs as a task when the client accepts tasks.',
    input: z.object({ customer: z.string().min(1).max(64).describe("The customer's name, e.g. 'lin'") }),
    questions,
    machine,
    result: (output) => ({ text: output.text }),
    annotations: { destructiveHint: true, idempotentHint: false, readOnlyHint: false, openWorldHint: false },
    effects: {
      refundOne: {
        once: true,
        confirmed: {
          shown: ({ input }) => (input as ToRefund).amountCents,
          current: async ({ input }) => (await store.findOrder((input as ToRefund).id))?.amountCents ?? null,
        },
      },
    },
    task: 'optional',
  });
}

/** What the call ends with, by the final state it reached. */
function outputOf(state: 'finished' | 'nothingToRefund' | 'kept', context: Context): { text: string } {
  const { who, count, refunded, notRefunded } = context;
  if (state === 'nothingToRefund') return { text: `${who} has no paid orders; nothing was refunded.` };
  if (state === 'kept') return { text: `Nothing was refunded for ${who}.` };
  const sum = formatCents(refunded.reduce((total, o) => total + o.amountCents, 0));
  const made = `Refunded ${refunded.length} of ${count} orders of ${who} (${sum})`;
  const rest = notRefunded.length > 0 ? `; ${notRefunded.join('; ')}` : '';
  return { text: `${made}${rest}.` };
}
