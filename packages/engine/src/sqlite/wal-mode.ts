// Switching a SQLite file to WAL while other processes open it too (servers started together on a new file): the
// switch needs the file to itself, and SQLite answers SQLITE_BUSY at once instead of calling its busy handler, so one
// of the servers failed to start. The switch is tried again, a few milliseconds apart, until the busy timeout; a file
// already in WAL needs no switch, so the others go on as soon as the first one's is done.
import type Database from 'better-sqlite3';

const PAUSE_MS = 5;
/** What the thread sleeps on between tries (opening is synchronous, as SQLite's own busy handler is). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Puts the database in WAL mode, trying again while another connection holds the file, for up to `timeoutMs`; then
 * the last SQLITE_BUSY is thrown. For a connection of your own to the ledger's file (your tables beside it), which
 * processes starting together open at once.
 *
 * @example
 * const db = new Database(path);
 * db.pragma('busy_timeout = 5000');
 * useWalMode(db, 5000);
 */
export function useWalMode(db: Database.Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, PAUSE_MS);
    }
  }
}
