// Tools for the task tests (SEP-2663): long work a test lets finish (or fail) by hand, questions after it,
// a question before it, and a once-effect inside it; plus the waits the tests use (no sleeps: each turn polls
// tasks/get once and yields to the event loop).
import { expect } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvents,
  type AskMeta,
  defineQuestions,
  defineTool,
  type Engine,
  TASKS_EXTENSION,
  type TaskStatus,
  type TaskView,
} from '../src/index.ts';
import { deferred } from './support.ts';

/** Capabilities of a client that consents to tasks and can be asked forms. */
export const TASKS = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

/** Work held open until the test settles it; counts how often it started and was stopped. */
export function heldWork() {
  const state = { started: 0, stopped: 0, hold: deferred<string>() };
  const work = fromPromise<string, { label: string }>(({ signal }) => {
    state.started++;
    return new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => {
        state.stopped++;
        reject(new Error('stopped'));
      });
      state.hold.promise.then(resolve, reject);
    });
  });
  return { state, work };
}

const questions = defineQuestions<{ label: string; name: string }>()({
  confirm: { message: 'Go on with {{label}}?', schema: z.object({ confirm: z.boolean() }) },
  name: { message: 'Your name?', schema: z.object({ name: z.string() }) },
});

type Ctx = { label: string; name: string; result: string };

/**
 * A tool whose long step runs `work`; then, as `after` says, it finishes, asks `confirm`, or asks `confirm`
 * and `name` at once (parallel regions), as `after` says. `before` asks `name` first (an MRTR round before the task).
 */
export function longTool(
  work: ReturnType<typeof heldWork>['work'],
  options: {
    name?: string;
    task?: 'optional' | 'required';
    after?: 'finish' | 'confirm' | 'both';
    before?: boolean;
    isError?: boolean;
  } = {},
) {
  const then = options.after ?? 'finish';
  const machine = setup({
    types: {
      context: {} as Ctx,
      input: {} as { label: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { text: string },
    },
    actors: { work },
  }).createMachine({
    id: `long-${then}`,
    context: ({ input }) => ({ label: input.label, name: '', result: '' }),
    initial: options.before ? 'naming' : 'working',
    states: {
      naming: {
        meta: { ask: ['name'] },
        on: {
          'name.accept': { target: 'working', actions: assign({ name: ({ event }) => event.content.name }) },
          'name.*': 'stopped',
        },
      },
      working: {
        meta: { long: true, progress: 'Computing…' },
        invoke: {
          id: 'compute',
          src: 'work',
          input: ({ context }) => ({ label: context.label }),
          onDone: { target: then === 'finish' ? 'done' : then, actions: assign({ result: ({ event }) => event.output }) },
        },
      },
      confirm: {
        meta: { ask: ['confirm'] },
        on: {
          'confirm.accept': [{ guard: ({ event }) => event.content.confirm, target: 'done' }, { target: 'confirm' }],
          'confirm.*': 'stopped',
        },
      },
      both: {
        type: 'parallel',
        states: {
          a: {
            initial: 'asking',
            states: { asking: { meta: { ask: ['confirm'] }, on: { 'confirm.*': 'answered' } }, answered: { type: 'final' } },
          },
          b: {
            initial: 'asking',
            states: {
              asking: {
                meta: { ask: ['name'] },
                on: {
                  'name.accept': { target: 'answered', actions: assign({ name: ({ event }) => event.content.name }) },
                  'name.*': 'answered',
                },
              },
              answered: { type: 'final' },
            },
          },
        },
        onDone: 'done',
      },
      stopped: { type: 'final', output: () => ({ text: 'Stopped.' }) },
      done: {
        type: 'final',
        output: ({ context }) => ({ text: `Done ${context.label}: ${context.result}${context.name ? ` for ${context.name}` : ''}` }),
      },
    },
    output: ({ event }) => event.output as { text: string },
  });
  return defineTool({
    name: options.name ?? 'slow_compute',
    description: 'Long work',
    input: z.object({ label: z.string() }),
    questions,
    machine,
    result: (output) => ({ text: output.text, ...(options.isError ? { isError: true } : {}) }),
    ...(options.task ? { task: options.task } : {}),
  });
}

/** Polls tasks/get, one event-loop turn apart, until the task has `status`; fails on an error or after 1000 turns. */
export async function untilStatus(engine: Engine, taskId: string, status: TaskStatus, principal = 'ada'): Promise<TaskView> {
  let last: TaskView | undefined;
  for (let turn = 0; turn < 1000; turn++) {
    const got = await engine.getTask({ taskId, principal, capabilities: TASKS });
    if (got.type === 'error') throw new Error(`tasks/get failed: ${JSON.stringify(got.error)}`);
    last = got.task;
    if (last.status === status) return last;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  expect(last?.status, JSON.stringify(last)).toBe(status);
  return last!;
}
