// Where a Node server keeps its tasks, beside the effect ledger it opened from its settings: a table in the
// ledger's SQLite file (the processes of one machine; a process started again runs on the tasks one that died
// left), or the ledger's PostgreSQL database with pg-boss's job queue beside it (@roundtrip/engine/postgres,
// loaded only then: any server answers for a task, one at a time runs its work, another takes it over when that
// one dies). A ledger in memory (`:memory:`) keeps its tasks in memory too: the engine's own store. The SQLite
// subpath (better-sqlite3) is loaded only for a SQLite file, as the ledger's is.
import type { TaskQueue, TaskStore } from '@roundtrip/engine';
import { RoundtripConfigError } from '../config-error.ts';
import { MEMORY_LEDGER } from './open-ledger.ts';
import { isPostgresUrl } from './resolve-ledger-path.ts';

/** The task store (and, on PostgreSQL, the job queue) this server opened, and so closes when it stops. */
export interface OpenedTasks {
  store: TaskStore;
  queue?: TaskQueue;
  /** Closes the queue (its running work handed back), then the store. */
  close(): Promise<void>;
}

/**
 * Opens the tasks' store (and queue) where the ledger is (ROUNDTRIP_LEDGER, or the path the code gives);
 * undefined for a ledger in memory. What cannot be opened is a setting the server cannot start with.
 */
export async function openTasksAt(location: string, leaseSeconds: number): Promise<OpenedTasks | undefined> {
  if (location === MEMORY_LEDGER) return undefined;
  // the ledger loaded the same subpath already: a driver that is absent failed there, with its own advice
  const opening = isPostgresUrl(location) ? openPostgresTasks(location, leaseSeconds) : openSqliteTasks(location);
  try {
    return await opening;
  } catch (error) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_LEDGER',
      `${(error as Error).message} Tasks are kept where ROUNDTRIP_LEDGER keeps the effect ledger.`,
      { code: 'unavailable', cause: error },
    );
  }
}

async function openSqliteTasks(path: string): Promise<OpenedTasks> {
  const { createSqliteTaskStore } = await import('@roundtrip/engine/sqlite');
  const store = createSqliteTaskStore({ path });
  return { store, close: async () => store.close() };
}

async function openPostgresTasks(url: string, leaseSeconds: number): Promise<OpenedTasks> {
  const { createPostgresTaskQueue, createPostgresTaskStore } = await import('@roundtrip/engine/postgres');
  const store = await createPostgresTaskStore({ url });
  const queue = await createPostgresTaskQueue({ url, leaseSeconds }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const close = async () => {
    try {
      await queue.close();
    } finally {
      await store.close();
    }
  };
  return { store, queue, close };
}
