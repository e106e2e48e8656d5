// The tools the tasks-* scenarios call (MCP tasks, SEP-2663): long work as a state with `meta: { long: true }`,
// which a client that declares the tasks extension gets as a task and follows with tasks/get, tasks/update and
// tasks/cancel. `task: 'optional'` runs it inside the request for a client that does not; `task: 'required'`
// answers that client -32021. Plus `greet`, which never is a task. Waits honour their AbortSignal: a cancelled
// task stops at once.
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, safeText, type ToolDefinition } from '@roundtrip/engine';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { finishedMachine } from './finished-machine.ts';
import { nameQuestions } from './single-question-tools.ts';

const NO_ARGUMENTS = z.object({});

/** What a state doing long work says about itself: it runs as the task's work, and what its status message is. */
type LongMeta = { long?: boolean; progress?: string };

/** Resolves after `ms`, or rejects as soon as `signal` fires (the task was cancelled). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** An invoked wait of `ms`, or of the `seconds` its input gives. */
const waitFor = (ms: number) => fromPromise<void>(({ signal }) => pause(ms, signal));
const waitSeconds = fromPromise<void, { seconds: number }>(({ input, signal }) => pause(input.seconds * 1000, signal));

// ─── greet: never a task ────────────────────────────────────────────────────────────────────────

const greetInput = z.object({ name: z.string() });
const greet = defineTool({
  name: 'greet',
  description: 'Greets someone by name, at once (never a task)',
  input: greetInput,
  machine: finishedMachine<z.infer<typeof greetInput>>('greet'),
  annotations: { readOnlyHint: true },
  result: ({ name }) => ({ text: `Hello, ${safeText(name)}!` }),
});

// ─── slow_compute: a task when the client consents, in the request otherwise ─────────────────────

const computeInput = z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() });
type Compute = { seconds: number; label: string };
const computeMachine = setup({
  types: { input: {} as z.infer<typeof computeInput>, context: {} as Compute, output: {} as Compute, meta: {} as LongMeta },
  guards: { instant: ({ context }) => context.seconds === 0 },
  actors: { compute: waitSeconds },
}).createMachine({
  id: 'slow_compute',
  context: ({ input }) => ({ seconds: input.seconds, label: input.label ?? '' }),
  initial: 'starting',
  states: {
    starting: { always: [{ guard: 'instant', target: 'done' }, { target: 'computing' }] },
    computing: {
      meta: { long: true, progress: 'Computing' },
      invoke: { id: 'compute', src: 'compute', input: ({ context }) => ({ seconds: context.seconds }), onDone: 'done' },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context,
});
const slowCompute = defineTool({
  name: 'slow_compute',
  description: 'Computes for the given number of seconds: a task when the client declares the tasks extension',
  input: computeInput,
  machine: computeMachine,
  task: 'optional',
  result: ({ seconds, label }) => ({ text: `Computed ${safeText(label) || 'the value'} in ${seconds} s.` }),
});

// ─── failing_job and protocol_error_job: a task that ends in a tool error, or in a JSON-RPC error ───

const failingJob = defineTool({
  name: 'failing_job',
  description: 'Runs for a second as a task, then reports a tool error (isError); only as a task',
  input: NO_ARGUMENTS,
  machine: setup({ types: { meta: {} as LongMeta }, actors: { work: waitFor(1000) } }).createMachine({
    id: 'failing_job',
    initial: 'working',
    states: {
      working: { meta: { long: true, progress: 'Running the job' }, invoke: { id: 'work', src: 'work', onDone: 'done' } },
      done: { type: 'final' },
    },
  }),
  task: 'required',
  result: () => ({ text: 'The job failed: it found nothing to do.', isError: true }),
});

const protocolErrorJob = defineTool({
  name: 'protocol_error_job',
  description: 'Runs as a task whose work crashes: the task fails with a JSON-RPC error',
  input: NO_ARGUMENTS,
  machine: setup({
    types: { meta: {} as LongMeta },
    actors: {
      work: fromPromise<void>(async ({ signal }) => {
        await pause(100, signal);
        throw new Error('the job crashed');
      }),
    },
  }).createMachine({
    id: 'protocol_error_job',
    initial: 'working',
    // the work's error is not handled: the machine ends in error, and the task fails
    states: {
      working: { meta: { long: true, progress: 'Running the job' }, invoke: { id: 'work', src: 'work', onDone: 'done' } },
      done: { type: 'final' },
    },
  }),
  task: 'required',
  result: () => ({ text: 'The job ran.' }),
});

// ─── confirm_delete and multi_input: tasks that ask the user ────────────────────────────────────

const confirmQuestions = defineQuestions<{ filename: string; confirmed: boolean }>()({
  confirm: {
    message: ({ context }) => `Delete ${safeText(context.filename)}?`,
    schema: z.object({ confirm: z.boolean() }),
  },
});
const confirmInput = z.object({ filename: z.string() });
const confirmMachine = setup({
  types: {
    input: {} as z.infer<typeof confirmInput>,
    context: {} as { filename: string; confirmed: boolean },
    events: {} as AnswerEvents<typeof confirmQuestions>,
    meta: {} as AskMeta<typeof confirmQuestions>,
    output: {} as { filename: string; confirmed: boolean },
  },
  actors: { lookUp: waitFor(100) },
}).createMachine({
  id: 'confirm_delete',
  context: ({ input }) => ({ filename: input.filename, confirmed: false }),
  initial: 'lookingUp',
  states: {
    // the long step makes the call a task; the question is then asked through tasks/get
    lookingUp: { meta: { long: true, progress: 'Looking up the file' }, invoke: { id: 'lookUp', src: 'lookUp', onDone: 'asking' } },
    asking: {
      meta: { ask: ['confirm'] },
      on: {
        'confirm.accept': { target: 'done', actions: assign({ confirmed: ({ event }) => event.content.confirm }) },
        'confirm.*': 'done',
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context,
});
const confirmDelete = defineTool({
  name: 'confirm_delete',
  description: 'Asks the user to confirm before deleting a file (nothing is deleted): a task that asks',
  input: confirmInput,
  questions: confirmQuestions,
  machine: confirmMachine,
  task: 'required',
  result: ({ filename, confirmed }) => ({ text: confirmed ? `Deleted ${safeText(filename)}.` : `Kept ${safeText(filename)}.` }),
});

const multiQuestions = defineQuestions<{ name: string | null }>()({
  name: { message: 'What is your name?', schema: z.object({ name: z.string() }) },
  confirm: { message: 'Go ahead?', schema: z.object({ confirm: z.boolean() }) },
});
const multiMachine = setup({
  types: {
    context: {} as { name: string | null },
    events: {} as AnswerEvents<typeof multiQuestions>,
    meta: {} as AskMeta<typeof multiQuestions>,
    output: {} as { name: string | null },
  },
  actors: { prepare: waitFor(100) },
}).createMachine({
  id: 'multi_input',
  context: { name: null },
  initial: 'preparing',
  states: {
    preparing: { meta: { long: true, progress: 'Preparing' }, invoke: { id: 'prepare', src: 'prepare', onDone: 'asking' } },
    // both questions at once, one region each: answered together or one by one
    asking: {
      type: 'parallel',
      states: {
        person: {
          initial: 'ask',
          states: {
            ask: {
              meta: { ask: ['name'] },
              on: { 'name.accept': { target: 'over', actions: assign({ name: ({ event }) => event.content.name }) }, 'name.*': 'over' },
            },
            over: { type: 'final' },
          },
        },
        go: {
          initial: 'ask',
          states: { ask: { meta: { ask: ['confirm'] }, on: { 'confirm.*': 'over' } }, over: { type: 'final' } },
        },
      },
      onDone: 'done',
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context,
});
const multiInput = defineTool({
  name: 'multi_input',
  description: 'A task that asks two questions at once',
  input: NO_ARGUMENTS,
  questions: multiQuestions,
  machine: multiMachine,
  task: 'required',
  result: ({ name }) => ({ text: name === null ? 'Both answered.' : `Both answered, ${safeText(name)}.` }),
});

// ─── test_tool_with_task: a question in the request (MRTR), then a task ─────────────────────────

const greetLaterMachine = setup({
  types: {
    context: {} as { name: string | null },
    events: {} as AnswerEvents<typeof nameQuestions>,
    meta: {} as AskMeta<typeof nameQuestions>,
    output: {} as { name: string | null },
  },
  actors: { compose: waitFor(300) },
}).createMachine({
  id: 'tool_with_task',
  context: { name: null },
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['user_name'] },
      on: {
        'user_name.accept': { target: 'composing', actions: assign({ name: ({ event }) => event.content.name }) },
        'user_name.*': 'composing',
      },
    },
    composing: { meta: { long: true, progress: 'Composing the greeting' }, invoke: { id: 'compose', src: 'compose', onDone: 'done' } },
    done: { type: 'final' },
  },
  output: ({ context }) => context,
});
const toolWithTask = defineTool({
  name: 'test_tool_with_task',
  description: 'Asks your name in the request (MRTR), then greets you as a task',
  input: NO_ARGUMENTS,
  questions: nameQuestions,
  machine: greetLaterMachine,
  task: 'required',
  result: ({ name }) => ({ text: name === null ? 'Hello!' : `Hello, ${safeText(name)}!` }),
});

export const taskTools: readonly ToolDefinition[] = [
  greet,
  slowCompute,
  failingJob,
  protocolErrorJob,
  confirmDelete,
  multiInput,
  toolWithTask,
];
