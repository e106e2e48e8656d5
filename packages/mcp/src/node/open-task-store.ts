// The task store a Node server keeps its tasks in, beside the effect ledger it opened from its settings: a
// table in the ledger's SQLite file, or in the ledger's PostgreSQL database (@roundtrip/engine/postgres,
// loaded only then). A ledger in memory (`:memory:`) keeps its tasks in memory too: the engine's own store.
import type { TaskStore } from '@roundtrip/engine';
import { createSqliteTaskStore } from '@roundtrip/engine/sqlite';
import { RoundtripConfigError } from './config-error.ts';
import { isPostgresUrl } from './resolve-ledger-path.ts';

/** A task store this server opened, and so closes when it stops. */
export type OpenedTaskStore = TaskStore & { close(): void | Promise<void> };

/**
 * Opens the task store where the ledger is (ROUNDTRIP_LEDGER, or the path the code gives); undefined for a
 * ledger in memory. A store that cannot be opened is a setting the server cannot start with.
 */
export async function openTaskStoreAt(location: string): Promise<OpenedTaskStore | undefined> {
  if (location === ':memory:') return undefined;
  try {
    if (!isPostgresUrl(location)) return createSqliteTaskStore({ path: location });
    // the ledger loaded this subpath already: a driver that is absent failed there, with its own advice
    const { createPostgresTaskStore } = await import('@roundtrip/engine/postgres');
    return await createPostgresTaskStore({ url: location });
  } catch (error) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_LEDGER',
      `${(error as Error).message} Tasks are kept where ROUNDTRIP_LEDGER keeps the effect ledger.`,
    );
  }
}
