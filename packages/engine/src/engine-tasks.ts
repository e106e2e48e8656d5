// The engine's side of MCP tasks (SEP-2663): its options, the methods a binding calls for tasks/get,
// tasks/update and tasks/cancel, and what a tools/call round of a tool that answers tasks is given.
import type { ToolDefinition } from './define-tool.ts';
import { definitionError } from './definition-error.ts';
import { createMemoryTaskStore } from './memory-task-store.ts';
import type { StepContext, StepTarget, TaskTarget } from './round-types.ts';
import { ErrorCode, type StepError } from './step-outcome.ts';
import type { TaskQueue } from './task-queue.ts';
import { createTaskRunner } from './task-runner.ts';
import { TASKS_EXTENSION, type TaskRequest } from './task-shapes.ts';
import type { TaskStore } from './task-store.ts';
import type { TaskView } from './task-view.ts';
import type { CallToolResult, JsonObject } from './wire-shapes.ts';

/** Tasks (SEP-2663): where they are kept, how long a task lives after it is created, and the poll interval suggested to clients. */
export interface TaskOptions {
  /**
   * Where tasks are kept. A shared store (`createPostgresTaskStore`, or `createSqliteTaskStore` for the processes
   * of one machine) lets any engine answer tasks/get, and tasks/update or tasks/cancel of a task parked on
   * questions; a task's running work stays in the process that runs it. The engine does not close it.
   * @defaultValue this process's memory (createMemoryTaskStore)
   */
  store?: TaskStore;
  /**
   * Where the tasks' work runs when several processes serve the store (`createPostgresTaskQueue`): each task's
   * work is a job that one process at a time runs, under a lease; when that process dies another runs it on
   * from where it last settled, and tasks/cancel stops it wherever it runs. Without, a task's work runs in the
   * process that started it (or answered its questions). The engine does not close it. Needs `store`.
   */
  queue?: TaskQueue;
  /** @defaultValue 3_600_000 (one hour); at most 7 days */
  ttlMs?: number;
  /** @defaultValue 500 */
  pollIntervalMs?: number;
}

/** What an engine answers to tasks/get, tasks/update and tasks/cancel; `close` stops the work of running tasks. */
export interface EngineTaskMethods {
  /** Whether any tool can answer a task: declare capabilities.extensions[TASKS_EXTENSION] then (2026-07-28 only). */
  offersTasks(): boolean;
  /** tasks/get: the task as its principal sees it; an unknown id, or another principal's, is an error -32602. */
  getTask(request: TaskRequest): Promise<{ type: 'complete'; task: TaskView } | { type: 'error'; error: StepError }>;
  /**
   * tasks/update: answers for the task's open inputRequests (unknown or retired keys ignored); resolves once the
   * answers are recorded (a tasks/get right after sees them applied), then the work goes on in the background.
   */
  updateTask(request: TaskRequest & { inputResponses: unknown }): Promise<{ type: 'complete' } | { type: 'error'; error: StepError }>;
  /** tasks/cancel: asks the work to stop (its AbortSignal); a finished task is acknowledged too. */
  cancelTask(request: TaskRequest): Promise<{ type: 'complete' } | { type: 'error'; error: StepError }>;
  /**
   * Starts this process's part in running tasks. With a `queue`, takes its jobs (the tasks whose process died
   * among them). With a store that can tell a process is gone (`createSqliteTaskStore`, the processes of one
   * machine), takes over the tasks left `working` by a process that has ended (killed, crashed) and runs each on
   * from the state it last settled in: its work there starts again; once-effects already recorded under its run
   * do not. Of two processes calling it, one takes each task. Call it once the server is up; resolves with how
   * many tasks it took over.
   */
  resumeTasks(): Promise<number>;
  /**
   * Stops the work of every running task: each ends cancelled, or, with a `queue`, is handed back to it and runs
   * on in another process. Resolves once the work has stopped.
   */
  close(): Promise<void>;
}

const MAX_TTL_MS = 7 * 86_400_000;

function checked(name: 'ttlMs' | 'pollIntervalMs', value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0 || value > max)
    throw definitionError(
      ['createEngine', `tasks.${name}`],
      'invalid_option',
      `'tasks.${name}' is ${String(value)}.`,
      `Give a whole number of milliseconds from 1 to ${max} (default ${fallback}).`,
    );
  return value;
}

/** The -32021 of a tool that answers only as a task, called by a client that does not consent. */
export function taskRequired(tool: string): { type: 'error'; error: StepError } {
  return {
    type: 'error',
    error: {
      code: ErrorCode.MissingRequiredClientCapability,
      message: `Tool '${tool}' runs only as a task, but this request did not declare the tasks extension (${TASKS_EXTENSION}). Use a client that supports tasks.`,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    },
  };
}

/** The engine's task methods, and the task target each tool that answers tasks gives its rounds. */
export function engineTasks(
  ctx: StepContext,
  tools: ReadonlyMap<string, ToolDefinition>,
  options: TaskOptions | undefined,
  targetOf: (tool: string, args: JsonObject) => StepTarget<CallToolResult> | undefined,
): { methods: EngineTaskMethods; targetFor(tool: ToolDefinition): TaskTarget<CallToolResult> | undefined } {
  if (options?.queue && !options.store)
    throw definitionError(
      ['createEngine', 'tasks.queue'],
      'invalid_option',
      "'tasks.queue' is given without 'tasks.store': the processes that take the queue's jobs must read the tasks from one store.",
      'Give the store they share as well, e.g. createPostgresTaskStore on the same database.',
    );
  const runner = createTaskRunner({
    ctx,
    store: options?.store ?? createMemoryTaskStore(),
    ttlMs: checked('ttlMs', options?.ttlMs, 3_600_000, MAX_TTL_MS),
    pollIntervalMs: checked('pollIntervalMs', options?.pollIntervalMs, 500, MAX_TTL_MS),
    targetOf,
    queue: options?.queue,
  });
  const targets = new Map<string, TaskTarget<CallToolResult>>();
  for (const tool of tools.values()) {
    if (tool.task) targets.set(tool.name, { mode: tool.task, tool: tool.name, start: runner.start, finished: runner.finished });
  }
  return {
    targetFor: (tool) => targets.get(tool.name),
    methods: {
      offersTasks: () => targets.size > 0,
      getTask: (request) => runner.get(request),
      updateTask: (request) => runner.update(request),
      cancelTask: (request) => runner.cancel(request),
      resumeTasks: () => runner.resumeAbandoned(),
      close: () => runner.close(),
    },
  };
}
