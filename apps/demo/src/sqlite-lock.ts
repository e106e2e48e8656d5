// Waiting for another connection's lock on a demo SQLite file without blocking the event loop: SQLite's
// own busy handler sleeps the thread, so every request of the process would wait with it; this tries
// again on timers instead, and gives up with an error that names the lock and the file.
import { DatabaseLockedError } from './database-locked.ts';

const FIRST_DELAY_MS = 1;
const MAX_DELAY_MS = 50;

/** Whether SQLite refused because another connection holds a lock (SQLITE_BUSY…, SQLITE_LOCKED…). */
function isBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Names the file and the write in the error of a write that gave up waiting. */
export interface LockWait {
  /** `orders database` */
  what: string;
  path: string;
  /** What the write does, after "could not": `refund order ord_51`. */
  doing: string;
  /** How long to keep trying, in milliseconds. */
  timeoutMs: number;
}

/**
 * Runs `work` now and, while it fails because another connection holds the file's lock, again with a
 * backoff from 1 ms to 50 ms between tries, until it succeeds or `wait.timeoutMs` has passed; then
 * rejects with a {@link DatabaseLockedError}. Other errors reject at once. `work` must be one
 * immediate transaction (or one statement): a lock error then means it wrote nothing, so it may run again.
 *
 * @example
 * await whenUnlocked(() => insert.run(row), { what: 'incidents database', path, doing: 'record the incident', timeoutMs: 5000 });
 */
export async function whenUnlocked<T>(work: () => T, wait: LockWait): Promise<T> {
  const started = performance.now();
  let delay = FIRST_DELAY_MS;
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error)) throw error;
      const waited = performance.now() - started;
      if (waited >= wait.timeoutMs) throw new DatabaseLockedError(wait.what, wait.path, wait.doing, Math.round(wait.timeoutMs), error);
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, wait.timeoutMs - waited)));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
