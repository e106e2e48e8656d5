// The `refund_email` prompt: asks how the email should sound, then hands the model the instructions
// to draft the email that tells a customer about the refund of one order.
import {
  type AnswerEvents,
  type AskMeta,
  definePrompt,
  defineQuestions,
  type PromptDefinition,
  type PromptMessageView,
  safeText,
} from '@roundtrip/engine';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { formatCents } from './money.ts';
import { orderIdArgument } from './order-id.ts';
import type { Order, OrdersStore } from './orders-store.ts';

const TONES = ['friendly', 'formal', 'brief'] as const;
export type Tone = (typeof TONES)[number];

const TONE_GUIDE: Record<Tone, string> = {
  friendly: 'warm and personal, as to a regular customer',
  formal: 'formal and courteous, as in a business letter',
  brief: 'short and plain: three sentences at most',
};

type EmailContext = {
  orderId: string;
  order: Order | null;
  /** The customer's name, for the question. */
  customer: string;
  tone: Tone | null;
  mentionAmount: boolean;
};

/** The prompt's finished run: the messages to hand to the model. */
type RefundEmailOutput = { messages: PromptMessageView[] };

const questions = defineQuestions<EmailContext>()({
  style: {
    message: 'How should the refund email to {{customer}} about order {{orderId}} read?',
    schema: z.object({
      tone: z.enum(TONES).describe('Tone of the email'),
      mention_amount: z.boolean().describe('Mention the refunded amount'),
    }),
  },
});

/** The instructions the model gets; exported so tests and the demo can say what they expect. */
export function refundEmailInstructions(order: Order, tone: Tone, mentionAmount: boolean): string {
  const state = order.refundedAt
    ? `The order was refunded on ${order.refundedAt.slice(0, 10)}.`
    : 'The refund has been approved and is being processed; do not say it has arrived.';
  const amount = mentionAmount ? `Mention the refunded amount, ${formatCents(order.amountCents)}.` : 'Do not mention the amount.';
  return [
    `Draft an email to our customer ${safeText(order.customer)} about the refund of order ${safeText(order.id)}, placed on ${order.createdAt.slice(0, 10)}.`,
    state,
    `Tone: ${tone} (${TONE_GUIDE[tone]}).`,
    amount,
    'Sign it "The Orders Team". Reply with the subject line and the email body only.',
  ].join(' ');
}

function messagesFor(context: EmailContext, how: 'drafted' | 'not_found' | 'skipped'): RefundEmailOutput {
  if (how === 'not_found' || !context.order || !context.tone) {
    // the id as the client sent it may hold anything: the message repeats it as safe text
    const id = safeText(context.orderId);
    const text =
      how === 'not_found'
        ? `There is no order with id '${id}', so there is no refund email to draft. Check the order id (it looks like 'ord_51').`
        : `No refund email was drafted for order ${id}: the questions about it were not answered.`;
    return { messages: [{ role: 'assistant', text }] };
  }
  return { messages: [{ role: 'user', text: refundEmailInstructions(context.order, context.tone, context.mentionAmount) }] };
}

/**
 * Builds the `refund_email` prompt over an orders store. An unknown order ends the prompt at once with
 * one assistant message saying so (no question is asked); declining the question does the same.
 *
 * @example
 * const prompt = createRefundEmailPrompt((await openDemoStores(dbLocation())).orders);
 */
export function createRefundEmailPrompt(store: Pick<OrdersStore, 'findOrder'>): PromptDefinition {
  const machine = setup({
    types: {
      input: {} as { order_id: string },
      context: {} as EmailContext,
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as RefundEmailOutput,
    },
    actors: {
      lookupOrder: fromPromise<Order | null, { orderId: string }>(async ({ input }) => (await store.findOrder(input.orderId)) ?? null),
    },
    actions: {
      rememberOrder: assign((_, params: { order: Order | null }) => ({ order: params.order, customer: params.order?.customer ?? '' })),
      rememberStyle: assign((_, params: { tone: Tone; mentionAmount: boolean }) => params),
    },
    guards: {
      orderMissing: ({ context }) => context.order === null,
    },
  }).createMachine({
    id: 'refund_email',
    version: '1',
    context: ({ input }) => ({ orderId: input.order_id, order: null, customer: '', tone: null, mentionAmount: false }),
    initial: 'lookingUp',
    states: {
      lookingUp: {
        meta: { progress: 'Looking up the order…' },
        invoke: {
          id: 'lookup',
          src: 'lookupOrder',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'checkingOrder', actions: { type: 'rememberOrder', params: ({ event }) => ({ order: event.output }) } },
        },
      },
      checkingOrder: { always: [{ guard: 'orderMissing', target: 'notFound' }, { target: 'askingStyle' }] },
      askingStyle: {
        meta: { ask: ['style'] },
        on: {
          'style.accept': {
            target: 'drafted',
            actions: {
              type: 'rememberStyle',
              params: ({ event }) => ({ tone: event.content.tone, mentionAmount: event.content.mention_amount }),
            },
          },
          'style.decline': 'skipped',
          'style.cancel': 'skipped',
        },
      },
      drafted: { type: 'final', output: ({ context }) => messagesFor(context, 'drafted') },
      notFound: { type: 'final', output: ({ context }) => messagesFor(context, 'not_found') },
      skipped: { type: 'final', output: ({ context }) => messagesFor(context, 'skipped') },
    },
    output: ({ event }) => event.output as RefundEmailOutput,
  });

  return definePrompt({
    name: 'refund_email',
    title: 'Refund email',
    description:
      'Drafts the email that tells a customer about the refund of an order; asks for the tone and whether to mention the amount.',
    arguments: z.object({ order_id: orderIdArgument }),
    questions,
    machine,
    messages: (output) => output.messages,
  });
}
