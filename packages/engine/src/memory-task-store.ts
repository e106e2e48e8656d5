// The task store of one process: tasks in a Map, expired ones removed as they are read and, so the map does
// not grow with tasks nobody reads again, from the oldest as new ones are created. A Map keeps the order tasks
// were created in, so that sweep stops at the first task still alive: creating a task costs the same however
// many are kept (scanning them all made creating N tasks cost N² in all). What it keeps and what it gives out
// are copies (task-record-copy.ts), as a store that serializes them would give.
import { copyTaskRecord } from './task-record-copy.ts';
import type { TaskRecord, TaskStore } from './task-store.ts';

const expired = (record: TaskRecord, now: number) => now >= record.createdAt + record.ttlMs;

/** A task store in this process's memory: tasks are lost when it exits. */
export function createMemoryTaskStore(): TaskStore {
  const tasks = new Map<string, TaskRecord>();
  return {
    async create(record) {
      for (const [id, kept] of tasks) {
        if (!expired(kept, record.createdAt)) break;
        tasks.delete(id);
      }
      if (tasks.has(record.taskId)) throw new Error(`task ${record.taskId} exists already`);
      tasks.set(record.taskId, copyTaskRecord(record));
    },
    async read(taskId, now) {
      const record = tasks.get(taskId);
      if (!record) return undefined;
      if (expired(record, now)) {
        tasks.delete(taskId);
        return undefined;
      }
      return copyTaskRecord(record);
    },
    async write(record, expectedVersion) {
      const kept = tasks.get(record.taskId);
      if (!kept || kept.version !== expectedVersion) return 'conflict';
      tasks.set(record.taskId, copyTaskRecord(record, expectedVersion + 1));
      return 'ok';
    },
  };
}
