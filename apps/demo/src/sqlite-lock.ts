// Waiting for another connection's lock on a demo SQLite file without blocking the event loop: SQLite's
// own busy handler sleeps the thread, so every request of the process would wait with it; this tries
// again on timers instead, and gives up with an error that names the lock and the file.

const FIRST_DELAY_MS = 1;
const MAX_DELAY_MS = 50;

/** A write that could not be made because another connection held the database file's lock for too long. Nothing was written. */
export class DatabaseLockedError extends Error {
  override readonly name = 'DatabaseLockedError';
  /** The database file. */
  readonly path: string;

  constructor(what: string, path: string, doing: string, waitedMs: number, cause: unknown) {
    super(
      `The ${what} at ${path} ${LOCKED} it stayed locked for ${waitedMs} ms, so this server could not ${doing}, and nothing was written. ` +
        'Try again when that transaction has ended (find the process that holds a long transaction on this file), or let writes wait ' +
        'longer (ROUNDTRIP_DB_BUSY_TIMEOUT_MS for the demo server, busyTimeoutMs in code).',
      { cause },
    );
    this.path = path;
  }
}

const LOCKED = 'is locked by another connection:';
const LOCKED_MESSAGE = /^The [\w ]+ database at .+ is locked by another connection: it stayed locked for \d+ ms, /;

/**
 * Whether `error` says a database was locked: a {@link DatabaseLockedError}, or its message as the
 * engine replays a recorded failure (as a plain Error with the same message) to a duplicate round.
 */
export function isDatabaseLocked(error: unknown): boolean {
  return error instanceof DatabaseLockedError || (error instanceof Error && LOCKED_MESSAGE.test(error.message));
}

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
