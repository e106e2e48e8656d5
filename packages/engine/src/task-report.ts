// What one change of a task (SEP-2663) looks like to an inspector: its tool and run, its status with the
// author's progress words, the questions it asks while input_required, and when. Never answers, arguments,
// results or the sealed snapshot. Built only when the engine has an `inspectTasks` hook.
import { logEngineEvent } from './engine-events.ts';
import type { EngineLogEntry } from './step-outcome.ts';
import type { TaskStatus } from './task-shapes.ts';
import type { TaskRecord } from './task-store.ts';

/** One change of one task, reported to an inspector once it was recorded. */
export interface TaskReport {
  readonly tool: string;
  /** The run the task's rounds and effects are recorded under: the same as its round reports'. */
  readonly run: string;
  /**
   * The task's whole id. It opens the task only together with its creator's principal; an inspector page
   * shows it shortened.
   */
  readonly taskId: string;
  readonly status: TaskStatus;
  /** The author's progress words while working (e.g. "Refunded 2 of 5 orders"). */
  readonly statusMessage?: string;
  /** The keys the task asks under while input_required (minted `<question>.<n>`); none otherwise. */
  readonly asked: readonly string[];
  /** Only when failed: what the client was told. */
  readonly error?: string;
  /** Cancellation was asked for and the work is stopping. */
  readonly cancelRequested?: true;
  /** Grows by one with every change: of two reports of one task, the higher is the later. */
  readonly version: number;
  /** In ms since the epoch. */
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** When it was reported, in ms since the epoch. */
  readonly at: number;
}

/** What reporting a task's change needs of the engine (a StepContext has it). */
export interface TaskReporting {
  readonly inspectTasks?: ((report: TaskReport) => void) | undefined;
  readonly log: ((entry: EngineLogEntry) => void) | undefined;
  readonly now: () => number;
}

/** The report of a task as recorded. */
function taskReportOf(record: TaskRecord, at: number): TaskReport {
  return {
    tool: record.tool,
    run: record.run,
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    asked: record.status === 'input_required' ? record.pending.map((pending) => pending.key) : [],
    ...(record.status === 'failed' && record.error ? { error: record.error.message } : {}),
    ...(record.cancelRequested && record.status === 'working' ? { cancelRequested: true as const } : {}),
    version: record.version,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    at,
  };
}

/**
 * Hands a recorded change of a task to the engine's `inspectTasks` hook, if it has one. Never throws into the
 * caller: a hook that throws is logged (inspect_failed), as a round's inspector is.
 */
export function reportTaskChange(ctx: TaskReporting, record: TaskRecord): void {
  const inspect = ctx.inspectTasks;
  if (!inspect) return;
  try {
    inspect(taskReportOf(record, ctx.now()));
  } catch (error) {
    if (ctx.log)
      logEngineEvent(ctx.log, `tool ${record.tool}`, record.run, { level: 'warn', event: 'inspect_failed', code: 'inspect_threw', error });
  }
}
