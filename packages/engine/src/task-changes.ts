// How the task runner changes a task's record: one change at a time per task in this process, each a read,
// an edit and a compare-and-set write, so that of two processes changing one task the second learns it
// (TaskChanged) instead of overwriting; and what this process holds of a task while it does.
import type { StepContext } from './round-types.ts';
import { reportTaskChange } from './task-report.ts';
import type { TaskRecord, TaskStore } from './task-store.ts';
import { TERMINAL } from './task-view.ts';

/** What this process holds of a task besides its record: the signal its work stops on, the queue of its changes. */
interface Live {
  controller: AbortController;
  queue: Promise<void>;
  /** The work running in the background, until it settles and its outcome is recorded. */
  work?: Promise<unknown>;
}

/** The task changed under a change based on what was read before (another engine on the store wrote it first). */
export class TaskChanged extends Error {}

export interface TaskChanges {
  readonly live: Map<string, Live>;
  liveOf(taskId: string): Live;
  /** Runs `change` after every change to the task made before it. */
  serial<T>(taskId: string, change: () => Promise<T>): Promise<T>;
  /**
   * Reads the task, edits it (`edit` returns false to leave it as it is), and writes it back; a terminal task is
   * left as it is. `basedOn`: the version the change was worked out from (a parked task's snapshot); if the task
   * moved on since, or another writer gets in first, it throws TaskChanged and writes nothing.
   */
  change(taskId: string, edit: (record: TaskRecord) => unknown, basedOn?: number): Promise<TaskRecord | undefined>;
}

export function taskChanges(ctx: StepContext, store: TaskStore): TaskChanges {
  const live = new Map<string, Live>();
  const liveOf = (taskId: string): Live => {
    const entry = live.get(taskId);
    if (entry) return entry;
    const made: Live = { controller: new AbortController(), queue: Promise.resolve() };
    live.set(taskId, made);
    return made;
  };
  return {
    live,
    liveOf,
    serial(taskId, change) {
      const entry = liveOf(taskId);
      const run = entry.queue.then(change);
      entry.queue = run.then(
        () => {},
        () => {},
      );
      return run;
    },
    async change(taskId, edit, basedOn) {
      const record = await store.read(taskId, ctx.now());
      if (!record || TERMINAL.has(record.status)) return record;
      const version = record.version;
      if (basedOn !== undefined && version !== basedOn) throw new TaskChanged(`task ${taskId} was changed by another writer`);
      if (edit(record) === false) return record;
      record.lastUpdatedAt = ctx.now();
      if (TERMINAL.has(record.status)) {
        delete record.sealed;
        delete record.statusMessage;
        record.pending = [];
        const entry = live.get(taskId);
        if (entry && !entry.work) live.delete(taskId);
      }
      if ((await store.write(record, version)) === 'conflict') throw new TaskChanged(`task ${taskId} was changed by another writer`);
      const written = { ...record, version: version + 1 };
      reportTaskChange(ctx, written);
      return written;
    },
  };
}
