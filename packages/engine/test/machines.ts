// Small machines and definitions shared by the engine tests, written the way an author would.
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '../src/index.ts';

// ─── confirm: one yes/no question, four ways to end ──────────────────────────────────────────────

export type ConfirmContext = { orderId: string };
export type ConfirmOutput = { outcome: 'refunded' | 'kept' | 'declined' | 'cancelled'; orderId: string };

export const confirmQuestions = defineQuestions<ConfirmContext>()({
  confirm: { message: 'Refund order {{orderId}}?', schema: z.object({ confirm: z.boolean() }) },
});

function confirmSetup() {
  return setup({
    types: {
      context: {} as ConfirmContext,
      input: {} as { order_id: string },
      events: {} as AnswerEvents<typeof confirmQuestions>,
      meta: {} as AskMeta<typeof confirmQuestions>,
      output: {} as ConfirmOutput,
    },
    guards: { confirmed: ({ event }) => event.type === 'confirm.accept' && event.content.confirm },
  });
}

const outcome = (value: ConfirmOutput['outcome']) => ({
  type: 'final' as const,
  output: ({ context }: { context: ConfirmContext }) => ({ outcome: value, orderId: context.orderId }),
});

/** The confirm machine; `version` makes changed versions of it for the outdated-state tests. */
export function makeConfirmMachine(options: { version?: string } = {}) {
  return confirmSetup().createMachine({
    id: 'confirm',
    ...(options.version !== undefined ? { version: options.version } : {}),
    context: ({ input }) => ({ orderId: input.order_id }),
    initial: 'asking',
    states: {
      asking: {
        meta: { ask: ['confirm'] },
        on: {
          'confirm.accept': [{ guard: 'confirmed', target: 'refunded' }, { target: 'kept' }],
          'confirm.decline': 'declined',
          'confirm.cancel': 'cancelled',
        },
      },
      refunded: outcome('refunded'),
      kept: outcome('kept'),
      declined: outcome('declined'),
      cancelled: outcome('cancelled'),
    },
    output: ({ event }) => event.output as ConfirmOutput,
  });
}

/** The confirm machine with one more state (an audit step before refunding). */
export function makeConfirmMachineWithAudit() {
  return confirmSetup().createMachine({
    id: 'confirm',
    context: ({ input }) => ({ orderId: input.order_id }),
    initial: 'asking',
    states: {
      asking: {
        meta: { ask: ['confirm'] },
        on: {
          'confirm.accept': [{ guard: 'confirmed', target: 'auditing' }, { target: 'kept' }],
          'confirm.decline': 'declined',
          'confirm.cancel': 'cancelled',
        },
      },
      auditing: { always: 'refunded' },
      refunded: outcome('refunded'),
      kept: outcome('kept'),
      declined: outcome('declined'),
      cancelled: outcome('cancelled'),
    },
    output: ({ event }) => event.output as ConfirmOutput,
  });
}

export const confirmMachine = makeConfirmMachine();
export const orderInput = z.object({ order_id: z.string() });

export function makeConfirmTool(
  options: {
    name?: string;
    machine?: ReturnType<typeof makeConfirmMachine> | ReturnType<typeof makeConfirmMachineWithAudit>;
    acceptAnswersWithoutState?: boolean;
  } = {},
) {
  return defineTool({
    name: options.name ?? 'refund_order',
    description: 'Refund an order once the user confirms',
    input: orderInput,
    questions: confirmQuestions,
    machine: options.machine ?? confirmMachine,
    result: (output) => ({ text: `${output.outcome}: ${output.orderId}`, structured: output }),
    ...(options.acceptAnswersWithoutState !== undefined ? { acceptAnswersWithoutState: options.acceptAnswersWithoutState } : {}),
  });
}

// ─── profile: three questions in sequence ────────────────────────────────────────────────────────

export type ProfileContext = { name: string | null; age: number | null; colour: string | null };

export const profileQuestions = defineQuestions<ProfileContext>()({
  name: { message: 'What is your name?', schema: z.object({ name: z.string().min(1) }) },
  age: { message: ({ context }) => `How old are you, ${context.name}?`, schema: z.object({ age: z.int().min(0).max(150) }) },
  colour: { message: 'Favourite colour?', schema: z.object({ colour: z.enum(['red', 'green', 'blue']) }) },
});

export const profileMachine = setup({
  types: {
    context: {} as ProfileContext,
    events: {} as AnswerEvents<typeof profileQuestions>,
    meta: {} as AskMeta<typeof profileQuestions>,
    output: {} as { status: 'complete' | 'abandoned'; profile: ProfileContext },
  },
}).createMachine({
  id: 'profile',
  context: { name: null, age: null, colour: null },
  initial: 'asking',
  states: {
    asking: {
      initial: 'name',
      // decline and cancel of the first two questions are handled here, by the ancestor
      on: { 'name.decline': 'abandoned', 'name.cancel': 'abandoned', 'age.decline': 'abandoned', 'age.cancel': 'abandoned' },
      states: {
        name: {
          meta: { ask: ['name'] },
          on: { 'name.accept': { target: 'age', actions: assign({ name: ({ event }) => event.content.name }) } },
        },
        age: {
          meta: { ask: ['age'] },
          on: { 'age.accept': { target: 'colour', actions: assign({ age: ({ event }) => event.content.age }) } },
        },
        colour: {
          meta: { ask: ['colour'] },
          on: {
            'colour.accept': { target: '#profile.done', actions: assign({ colour: ({ event }) => event.content.colour }) },
            // decline and cancel handled by a wildcard
            'colour.*': '#profile.abandoned',
          },
        },
      },
    },
    done: { type: 'final', output: { status: 'complete' } },
    abandoned: { type: 'final', output: { status: 'abandoned' } },
  },
  output: ({ context, event }) => ({ ...(event.output as { status: 'complete' | 'abandoned' }), profile: context }),
});

export const profileTool = defineTool({
  name: 'create_profile',
  description: 'Asks three questions in three rounds',
  input: z.object({}),
  questions: profileQuestions,
  machine: profileMachine,
  result: (output) => ({ text: `${output.status}: ${JSON.stringify(output.profile)}`, structured: output }),
});

// ─── pizza: a parallel state asks two questions in the same round ───────────────────────────────

export type PizzaContext = { size: string | null; toppings: string[] };

export const pizzaQuestions = defineQuestions<PizzaContext>()({
  size: { message: 'Which size?', schema: z.object({ size: z.enum(['small', 'large']) }) },
  toppings: { message: 'Which toppings?', schema: z.object({ toppings: z.array(z.enum(['olive', 'basil'])) }) },
});

export const pizzaMachine = setup({
  types: {
    context: {} as PizzaContext,
    events: {} as AnswerEvents<typeof pizzaQuestions>,
    meta: {} as AskMeta<typeof pizzaQuestions>,
    output: {} as { ordered: boolean; size: string | null; toppings: string[] },
  },
}).createMachine({
  id: 'pizza',
  context: { size: null, toppings: [] },
  initial: 'choosing',
  states: {
    choosing: {
      type: 'parallel',
      onDone: 'ordered',
      on: { 'size.decline': 'abandoned', 'size.cancel': 'abandoned', 'toppings.decline': 'abandoned', 'toppings.cancel': 'abandoned' },
      states: {
        size: {
          initial: 'asking',
          states: {
            asking: {
              meta: { ask: ['size'] },
              on: { 'size.accept': { target: 'chosen', actions: assign({ size: ({ event }) => event.content.size }) } },
            },
            chosen: { type: 'final' },
          },
        },
        toppings: {
          initial: 'asking',
          states: {
            asking: {
              meta: { ask: ['toppings'] },
              on: { 'toppings.accept': { target: 'chosen', actions: assign({ toppings: ({ event }) => event.content.toppings }) } },
            },
            chosen: { type: 'final' },
          },
        },
      },
    },
    ordered: { type: 'final', output: { ordered: true } },
    abandoned: { type: 'final', output: { ordered: false } },
  },
  output: ({ context, event }) => ({ ...(event.output as { ordered: boolean }), size: context.size, toppings: context.toppings }),
});

export const pizzaTool = defineTool({
  name: 'order_pizza',
  description: 'Asks two questions at once',
  input: z.object({}),
  questions: pizzaQuestions,
  machine: pizzaMachine,
  result: (output) => ({ text: output.ordered ? `ordered ${output.size}` : 'abandoned', structured: output }),
});
