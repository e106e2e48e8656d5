// The demo's `refund_order` tool written in the engine's second shape (b0938e8): the question is named
// once with defineQuestions and asked by name (`meta: { ask: ['confirm'] }`), answers arrive as typed
// `confirm.*` events, and the refund is an effect that runs at most once per run. Same states, same
// context, same message and same result as the demo's tool at 8ad16d2, which the bench runs on the old
// engine beside this one (bench/engine-before.ts); the bench checks that both ask the same question.
//
// Bench-local on purpose: the demo is being moved to the new shape separately, and the bench must not
// change with it. Only the public API of @roundtrip/engine is used here.
//
// `@roundtrip/engine`, `xstate` and `zod` do not resolve from the workspace root, so they are imported
// by path: the engine's sources, and the very files the engine's own `import 'xstate'` / `import 'zod'`
// resolve to at run time (the "import" condition, through the engine's node_modules links), so the
// bench, the engine and this tool share one xstate and one zod instance.
import { assign, fromPromise, setup } from '../packages/engine/node_modules/xstate/dist/xstate.cjs.mjs';
// the engine's `import 'zod'` takes its types from zod's index.d.cts (the package's top "types"
// condition): the bench takes the same declarations, and loads the ESM file by a path TypeScript does
// not follow, so it never holds a second copy of zod's types (comparing the two exhausts tsc's memory)
import type { z as ZodTypes } from '../packages/engine/node_modules/zod/index.cjs';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, type ToolDefinition } from '../packages/engine/src/index.ts';

const zodEsm: string = '../packages/engine/node_modules/zod/index.js';
const { z } = (await import(zodEsm)) as { z: typeof ZodTypes };

// ─── a small orders store: the shape of the demo's, in memory (only round 1 reads it; no timed round does)

interface Order {
  id: string;
  customer: string;
  amountCents: number;
  currency: string;
  status: 'paid' | 'refunded';
  refundedAt: string | null;
}

type RefundResult =
  | { status: 'refunded'; order: Order; refundedAt: string }
  | { status: 'already_refunded'; order: Order; refundedAt: string | null }
  | { status: 'not_found' };

interface BenchOrdersStore {
  findOrder(id: string): Order | undefined;
  refundOrder(id: string): RefundResult;
}

/** The demo's seed order `ord_51` ($49.00, paid), so the context and snapshot are the demo's byte for byte. */
export function memoryOrdersStore(): BenchOrdersStore {
  const orders = new Map<string, Order>([
    ['ord_51', { id: 'ord_51', customer: 'ada', amountCents: 4900, currency: 'USD', status: 'paid', refundedAt: null }],
  ]);
  return {
    findOrder: (id) => {
      const order = orders.get(id);
      return order ? { ...order } : undefined;
    },
    refundOrder: (id) => {
      const order = orders.get(id);
      if (!order) return { status: 'not_found' };
      if (order.refundedAt !== null) return { status: 'already_refunded', order: { ...order }, refundedAt: order.refundedAt };
      const refundedAt = new Date().toISOString();
      Object.assign(order, { status: 'refunded', refundedAt });
      return { status: 'refunded', order: { ...order }, refundedAt };
    },
  };
}

/** The demo's money formatting (apps/demo/src/money.ts), 4900 → `$49.00`. */
function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

// ─── the tool

type RefundStatus = 'refunded' | 'already_refunded' | 'kept' | 'not_found';

type RefundOutput = {
  status: RefundStatus;
  order_id: string;
  amount: string | null;
  amount_cents: number | null;
  refunded_at: string | null;
  message: string;
};

type RefundContext = {
  orderId: string;
  order: Order | null;
  refundOutcome: RefundResult['status'] | null;
};

function outputFor(status: RefundStatus, { orderId, order }: RefundContext): RefundOutput {
  const amount = order ? formatCents(order.amountCents) : null;
  const refundedOn = order?.refundedAt ? ` on ${order.refundedAt.slice(0, 10)}` : '';
  const message = {
    not_found: `No order with id '${orderId}'. Check the order id (it looks like 'ord_51') and try again.`,
    already_refunded: `Order ${orderId} was already refunded${refundedOn}; nothing more was done.`,
    kept: `Order ${orderId} was not refunded.`,
    refunded: `Refunded ${amount} for order ${orderId}.`,
  }[status];
  return { status, order_id: orderId, amount, amount_cents: order?.amountCents ?? null, refunded_at: order?.refundedAt ?? null, message };
}

const refundQuestions = defineQuestions<RefundContext>()({
  confirm: {
    // a function, not a template: the amount is formatted from cents, as in the demo
    message: ({ context }) => `Refund ${formatCents(context.order?.amountCents ?? 0)} for order ${context.orderId}?`,
    schema: z.object({ confirm: z.boolean().describe('Yes to refund') }),
  },
});

/** The `refund_order` tool over a store, in the new shape. */
export function createRefundOrderTool(store: BenchOrdersStore): ToolDefinition {
  const machine = setup({
    types: {
      input: {} as { order_id: string },
      context: {} as RefundContext,
      events: {} as AnswerEvents<typeof refundQuestions>,
      meta: {} as AskMeta<typeof refundQuestions>,
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
      orderAlreadyRefunded: ({ context }) =>
        context.order !== null && (context.order.status === 'refunded' || context.order.refundedAt !== null),
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
        meta: { ask: ['confirm'] },
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
        always: [{ guard: 'refundDone', target: 'refunded' }, { guard: 'orderMissing', target: 'notFound' }, { target: 'alreadyRefunded' }],
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
    questions: refundQuestions,
    machine,
    result: (output) => ({ text: output.message, structured: output, isError: output.status === 'not_found' }),
    // the refund runs at most once per run (effect ledger); no timed round reaches it
    effects: { refundOrder: { once: true } },
  });
}
