// How a task (SEP-2663) looks to its client: its handle, its view (the handle with what its status inlines),
// and the one answer for a task that does not exist for the caller.
import { ErrorCode, type StepError } from './step-outcome.ts';
import type { TaskHandle, TaskStatus } from './task-shapes.ts';
import type { TaskRecord } from './task-store.ts';
import type { CallToolResult, InputRequest } from './wire-shapes.ts';

/** tasks/get's answer (less resultType): the handle plus what its status inlines. */
export type TaskView = TaskHandle & {
  /** Only when input_required: the open questions, each under a key never used before in this task. */
  inputRequests?: Record<string, InputRequest>;
  /** Only when completed (a tool error result too). */
  result?: CallToolResult;
  /** Only when failed: a JSON-RPC error. */
  error?: StepError;
};

/** How the engine answers tasks/get, tasks/update and tasks/cancel. */
export type TaskAnswer<T> = ({ type: 'complete' } & T) | { type: 'error'; error: StepError };

/** The statuses a task never leaves. */
export const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
export const UNKNOWN_TASK: TaskAnswer<never> = {
  type: 'error',
  error: {
    code: ErrorCode.InvalidParams,
    message: 'Unknown task',
    data: { hint: 'No task with this id is open to this caller (it may have expired). Call the tool again to start a new one.' },
  },
};

const iso = (ms: number) => new Date(ms).toISOString();

export function handleOf(record: TaskRecord): TaskHandle {
  const createdAt = iso(record.createdAt);
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt,
    // a new task's are the same: written once
    lastUpdatedAt: record.lastUpdatedAt === record.createdAt ? createdAt : iso(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

export function viewOf(record: TaskRecord): TaskView {
  const view: TaskView = handleOf(record);
  if (record.status === 'input_required') view.inputRequests = Object.fromEntries(record.pending.map((p) => [p.key, p.request]));
  if (record.status === 'completed' && record.result) view.result = record.result;
  if (record.status === 'failed' && record.error) view.error = record.error;
  return view;
}
