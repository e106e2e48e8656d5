// The tasks reported so far: the latest change of each (the highest version; a report older than the one
// kept is ignored), the most recently changed last. Pages see a task id's first characters only: the whole
// id stays in the inspector. Bounded: past `maxTasks` the task changed longest ago is dropped.
import type { TaskReport } from '@roundtrip/engine';
import type { PostedTask } from './task-body.ts';

/** How many characters of a task id a page sees: enough to tell tasks apart and find one in a server's log. */
const SHORT_ID_LENGTH = 8;

/** A task as a page sees it: its latest report, with its id shortened, and the server that reported it. */
interface InspectedTask extends Omit<TaskReport, 'taskId'> {
  readonly server: string;
  /** The task id's first SHORT_ID_LENGTH characters. */
  readonly task: string;
}

export interface TaskList {
  /** Keeps the change when it is the task's latest; returns the task as a page sees it then, or undefined for an older one. */
  add(posted: PostedTask): InspectedTask | undefined;
  /** Every task kept, the most recently changed last. */
  tasks(): InspectedTask[];
}

export function createTaskList(limits: { maxTasks?: number } = {}): TaskList {
  const maxTasks = limits.maxTasks ?? 200;
  const kept = new Map<string, { version: number; shown: InspectedTask }>();
  return {
    add({ server, task }) {
      const known = kept.get(task.taskId);
      if (known && known.version > task.version) return undefined;
      const { taskId, ...report } = task;
      const shown: InspectedTask = { ...report, server, task: taskId.slice(0, SHORT_ID_LENGTH) };
      // a Map keeps insertion order: re-adding moves the task to the end, the most recently changed
      kept.delete(taskId);
      kept.set(taskId, { version: task.version, shown });
      if (kept.size > maxTasks) kept.delete(kept.keys().next().value!);
      return shown;
    },
    tasks: () => [...kept.values()].map((entry) => entry.shown),
  };
}
