// A tool of two questions that fall back to the model, and what a test playing the model reads from a
// fallback result. Shared by the fallback tests.
import { expect } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvents,
  type AskMeta,
  type CallToolResult,
  defineQuestions,
  defineTool,
  type QuestionFallback,
  type StepOutcome,
  type ToolAnnotations,
} from '../src/index.ts';
import { complete, textIn } from './support.ts';

type TripContext = { traveller: string; city: string | null; nights: number | null; date: string | null };
type TripOutput = { status: 'booked' | 'declined' | 'cancelled'; trip: TripContext };

function tripQuestions(fallback: QuestionFallback | undefined) {
  const extra = fallback === undefined ? {} : { fallback };
  return defineQuestions<TripContext>()({
    city: {
      message: 'Where does {{traveller}} want to go?',
      schema: z.object({
        city: z.union([z.literal('lis').meta({ title: 'Lisbon' }), z.literal('osl').meta({ title: 'Oslo' })]),
        window: z.boolean().optional().describe('A window seat'),
      }),
      ...extra,
    },
    dates: {
      message: 'When, and for how many nights?',
      schema: z.object({ date: z.iso.date(), nights: z.int().min(1).max(30).default(2) }),
      ...extra,
    },
  });
}

/** Two rounds: the city, then the dates; decline and cancel end it. */
export function tripTool(options: { fallback?: QuestionFallback; annotations?: ToolAnnotations; output?: boolean; name?: string } = {}) {
  const questions = tripQuestions('fallback' in options ? options.fallback : 'model');
  const machine = setup({
    types: {
      context: {} as TripContext,
      input: {} as { traveller: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as TripOutput,
    },
  }).createMachine({
    id: 'trip',
    context: ({ input }) => ({ traveller: input.traveller, city: null, nights: null, date: null }),
    initial: 'city',
    states: {
      city: {
        meta: { ask: ['city'] },
        on: {
          'city.accept': { target: 'dates', actions: assign({ city: ({ event }) => event.content.city }) },
          'city.decline': 'declined',
          'city.cancel': 'cancelled',
        },
      },
      dates: {
        meta: { ask: ['dates'] },
        on: {
          'dates.accept': {
            target: 'booked',
            actions: assign({ date: ({ event }) => event.content.date, nights: ({ event }) => event.content.nights }),
          },
          'dates.decline': 'declined',
          'dates.cancel': 'cancelled',
        },
      },
      booked: { type: 'final', output: { status: 'booked' } },
      declined: { type: 'final', output: { status: 'declined' } },
      cancelled: { type: 'final', output: { status: 'cancelled' } },
    },
    output: ({ context, event }) => ({ status: (event.output as { status: TripOutput['status'] }).status, trip: context }),
  });
  return defineTool({
    name: options.name ?? 'plan_trip',
    description: 'Plans a trip',
    input: z.object({ traveller: z.string() }),
    questions,
    machine,
    result: (output) => ({ text: `${output.status}: ${JSON.stringify(output.trip)}`, structured: output }),
    annotations: options.annotations ?? { destructiveHint: false },
    ...(options.output ? { output: z.object({ status: z.string(), trip: z.looseObject({}) }) } : {}),
  });
}

export const ARGS = { traveller: 'Ada' };

/** The text of a tool result, checking it is one. */
export function textOf(outcome: StepOutcome<CallToolResult>): string {
  const { result } = complete(outcome);
  expect(result.content).toHaveLength(1);
  return textIn(result.content[0]);
}

/** What the model reads from a fallback result: the token to send back. */
export function continuationIn(text: string): string {
  const token = /^- "continuation": "([^"]+)"$/m.exec(text)?.[1];
  expect(token, text).toBeDefined();
  return token!;
}
