// The example of docs/long-running-steps.md: a tool whose export takes minutes, served as an MCP task to a
// client that consents to tasks (and inside the request to one that does not), with a question after it.
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '@roundtrip/engine';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';

/** Collects a month's orders into a file; slow (minutes for a big shop). Stops when `signal` fires. */
export type CollectOrders = (month: string, signal: AbortSignal) => Promise<{ file: string; rows: number }>;

type Context = { month: string; file: string; rows: number; sendTo: string | null };

const questions = defineQuestions<Context>()({
  send: {
    message: '{{rows}} orders of {{month}} are in {{file}}. Email the file?',
    schema: z.object({ email: z.email().optional().describe('Where to send it; leave empty to keep it here') }),
  },
});

export function createExportOrders(collect: CollectOrders) {
  const machine = setup({
    types: {
      context: {} as Context,
      input: {} as { month: string },
      output: {} as { text: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
    },
    actors: {
      // long work takes the AbortSignal: tasks/cancel (or the server stopping) fires it
      collect: fromPromise<{ file: string; rows: number }, { month: string }>(({ input, signal }) => collect(input.month, signal)),
    },
  }).createMachine({
    id: 'export_orders',
    context: ({ input }) => ({ month: input.month, file: '', rows: 0, sendTo: null }),
    initial: 'collecting',
    states: {
      // `long`: to a client that consents to tasks, the call answers a task as this work starts
      collecting: {
        meta: { long: true, progress: 'Collecting the orders…' },
        invoke: {
          id: 'collect',
          src: 'collect',
          input: ({ context }) => ({ month: context.month }),
          onDone: { target: 'sending', actions: assign(({ event }) => ({ file: event.output.file, rows: event.output.rows })) },
        },
      },
      // a question inside a task: the task is input_required until tasks/update answers it
      sending: {
        meta: { ask: ['send'] },
        on: {
          'send.accept': { target: 'done', actions: assign({ sendTo: ({ event }) => event.content.email ?? null }) },
          'send.*': 'done',
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({
      text: `Exported ${context.rows} orders of ${context.month} to ${context.file}${context.sendTo ? `, sent to ${context.sendTo}` : ''}.`,
    }),
  });

  return defineTool({
    name: 'export_orders',
    description: "Exports a month's orders to a file, then offers to email it",
    input: z.object({
      month: z
        .string()
        .regex(/^\d{4}-\d{2}$/)
        .describe('e.g. 2026-11'),
    }),
    questions,
    machine,
    result: (output) => ({ text: output.text }),
    // a task when the client consents; inside the request (with progress) when it does not
    task: 'optional',
  });
}
