// The tool the adversarial suites attack: a form of every field kind (round 1), a confirmation (round 2),
// then an effect declared `once` that counts how often it really ran.
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '../src/index.ts';

export const detailsSchema = z.object({
  name: z.string().min(1).max(80),
  amount: z.number().min(1).max(500),
  urgent: z.boolean(),
  channel: z.enum(['email', 'phone']),
  plan: z.union([z.literal('free').meta({ title: 'Free' }), z.literal('pro').meta({ title: 'Pro, billed monthly' })]),
  tags: z.array(z.enum(['billing', 'shipping', 'other'])),
});
export type Details = z.output<typeof detailsSchema>;

/** A valid answer to the form, for tests that need one. */
export const validDetails: Details = { name: 'Ada', amount: 42, urgent: false, channel: 'email', plan: 'pro', tags: ['billing'] };

type SubmitContext = { account: string; details: Details | null; receipt: string | null };
export type SubmitOutput = { outcome: 'submitted' | 'kept' | 'declined' | 'cancelled'; details: Details | null; receipt: string | null };

const questions = defineQuestions<SubmitContext>()({
  details: { message: 'Describe the request for account {{account}}.', schema: detailsSchema },
  confirm: {
    message: ({ context }) => `Submit ${context.details?.amount} for ${context.details?.name}?`,
    schema: z.object({ confirm: z.boolean() }),
  },
});

/** How often the effect really ran, across every engine made with the same counter. */
export interface SubmitCounter {
  runs: number;
}

/** The `submit_request` tool: details (form), confirm (yes/no), then `submit` at most once per run. */
export function makeSubmitTool(counter: SubmitCounter, name = 'submit_request') {
  const end = (outcome: SubmitOutput['outcome']) => ({
    type: 'final' as const,
    output: ({ context }: { context: SubmitContext }): SubmitOutput => ({ outcome, details: context.details, receipt: context.receipt }),
  });
  const machine = setup({
    types: {
      context: {} as SubmitContext,
      input: {} as { account: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as SubmitOutput,
    },
    actors: {
      submit: fromPromise<{ receipt: string }, { account: string; amount: number }>(async ({ input }) => ({
        receipt: `r${++counter.runs}:${input.account}:${input.amount}`,
      })),
    },
    guards: { confirmed: ({ event }) => event.type === 'confirm.accept' && event.content.confirm },
  }).createMachine({
    id: 'submit',
    context: ({ input }) => ({ account: input.account, details: null, receipt: null }),
    initial: 'describing',
    states: {
      describing: {
        meta: { ask: ['details'] },
        on: {
          'details.accept': { target: 'confirming', actions: assign({ details: ({ event }) => event.content }) },
          'details.decline': 'declined',
          'details.cancel': 'cancelled',
        },
      },
      confirming: {
        meta: { ask: ['confirm'] },
        on: {
          'confirm.accept': [{ guard: 'confirmed', target: 'submitting' }, { target: 'kept' }],
          'confirm.decline': 'declined',
          'confirm.cancel': 'cancelled',
        },
      },
      submitting: {
        invoke: {
          id: 'submit',
          src: 'submit',
          input: ({ context }) => ({ account: context.account, amount: context.details?.amount ?? 0 }),
          onDone: { target: 'submitted', actions: assign({ receipt: ({ event }) => event.output.receipt }) },
        },
      },
      submitted: end('submitted'),
      kept: end('kept'),
      declined: end('declined'),
      cancelled: end('cancelled'),
    },
    output: ({ event }) => event.output as SubmitOutput,
  });
  return defineTool({
    name,
    description: 'Files a request after a form and a confirmation; submits it at most once per call',
    input: z.object({ account: z.string() }),
    questions,
    machine,
    result: (output) => ({ text: `${output.outcome}: ${output.receipt ?? 'no receipt'}`, structured: output }),
    effects: { submit: { once: true } },
    annotations: { destructiveHint: true },
  });
}
