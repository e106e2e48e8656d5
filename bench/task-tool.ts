// The tools of bench/tasks.bench.ts (SEP-2663): one machine, a long step (`meta: { long: true }`) whose work
// is held open until its AbortSignal fires, then a question. `ask_first` asks a question before the long
// step, so its first call is a plain MRTR round (input_required, state sealed); `long_compute` starts in the
// long step, so a client that consents to tasks gets a task handle. Called with label 'quick', the work
// finishes one event-loop turn after it starts, and the task parks on the question (input_required).
// Imports by path, as bench/refund-tool.ts explains: one xstate and one zod instance with the engine's.
import { assign, fromPromise, setup } from '../packages/engine/node_modules/xstate/dist/xstate.cjs.mjs';
import type { z as ZodTypes } from '../packages/engine/node_modules/zod/index.cjs';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, type ToolDefinition } from '../packages/engine/src/index.ts';

const zodEsm: string = '../packages/engine/node_modules/zod/index.js';
const { z } = (await import(zodEsm)) as { z: typeof ZodTypes };

const questions = defineQuestions<{ label: string }>()({
  name: { message: 'Whose report is {{label}}?', schema: z.object({ name: z.string() }) },
  confirm: { message: 'The report {{label}} is compiled. Publish it?', schema: z.object({ confirm: z.boolean() }) },
});

/** Held open until its signal fires; for 'quick', done one event-loop turn after it starts. */
const work = fromPromise<string, { label: string }>(
  ({ input, signal }) =>
    new Promise((resolve, reject) => {
      if (input.label === 'quick') setImmediate(() => resolve('compiled'));
      signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
    }),
);

function reportTool(name: string, askFirst: boolean): ToolDefinition {
  const machine = setup({
    types: {
      context: {} as { label: string; name: string; published: boolean },
      input: {} as { label: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions> & { long?: boolean; progress?: string },
      output: {} as { text: string },
    },
    actors: { work },
  }).createMachine({
    id: name,
    context: ({ input }) => ({ label: input.label, name: '', published: false }),
    initial: askFirst ? 'naming' : 'working',
    states: {
      naming: {
        meta: { ask: ['name'] },
        on: {
          'name.accept': { target: 'working', actions: assign({ name: ({ event }) => event.content.name }) },
          'name.*': 'done',
        },
      },
      working: {
        meta: { long: true, progress: 'Compiling the report' },
        invoke: { id: 'compile', src: 'work', input: ({ context }) => ({ label: context.label }), onDone: 'confirming' },
      },
      confirming: {
        meta: { ask: ['confirm'] },
        on: {
          'confirm.accept': { target: 'done', actions: assign({ published: ({ event }) => event.content.confirm }) },
          'confirm.*': 'done',
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ text: context.published ? `Report ${context.label} published.` : `Report ${context.label} kept.` }),
  });
  return defineTool({
    name,
    description: askFirst
      ? 'Asks whose report it is, compiles it (long), then asks to publish'
      : 'Compiles a report (long), then asks to publish',
    input: z.object({ label: z.string() }),
    questions,
    machine,
    task: 'optional',
    result: ({ text }) => ({ text }),
  }) as ToolDefinition;
}

/** `ask_first` (a plain round first) and `long_compute` (a task at once, for a client that consents). */
export const taskBenchTools = (): ToolDefinition[] => [reportTool('ask_first', true), reportTool('long_compute', false)];
