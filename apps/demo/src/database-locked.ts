// The error of a demo write (or read) that gave up waiting for another connection's lock, on either
// backend, and how to recognise it again when the effect ledger replays it as a plain Error.

const LOCKED = 'is locked by another connection:';
const LOCKED_MESSAGE = /^The [\w ]+ database at .+ is locked by another connection: it stayed locked for \d+ ms, /;

/** Where to look for the holder of the lock, said in the error: a SQLite file's, or a PostgreSQL session's. */
export type LockHolder = 'file' | 'session';

const FIND_HOLDER: Record<LockHolder, string> = {
  file: 'find the process that holds a long transaction on this file',
  session: 'find the session that holds it: pg_locks and pg_stat_activity name it',
};

/** A statement that could not run because another connection held a lock it needed for too long. Nothing was written. */
export class DatabaseLockedError extends Error {
  override readonly name = 'DatabaseLockedError';
  /** The database: a file path, or a PostgreSQL URL without its password. */
  readonly path: string;

  /**
   * @param what `orders database`
   * @param path the file, or the URL without its password
   * @param doing what the statement does, after "could not": `refund order ord_51`
   */
  constructor(what: string, path: string, doing: string, waitedMs: number, cause: unknown, holder: LockHolder = 'file') {
    super(
      `The ${what} at ${path} ${LOCKED} it stayed locked for ${waitedMs} ms, so this server could not ${doing}, and nothing was written. ` +
        `Try again when that transaction has ended (${FIND_HOLDER[holder]}), or let writes wait ` +
        'longer (ROUNDTRIP_DB_BUSY_TIMEOUT_MS for the demo server, busyTimeoutMs in code).',
      { cause },
    );
    this.path = path;
  }
}

/**
 * Whether `error` says a database was locked: a {@link DatabaseLockedError}, or its message as the
 * engine replays a recorded failure (as a plain Error with the same message) to a duplicate round.
 */
export function isDatabaseLocked(error: unknown): boolean {
  return error instanceof DatabaseLockedError || (error instanceof Error && LOCKED_MESSAGE.test(error.message));
}
