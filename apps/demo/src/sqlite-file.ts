// Opening one of the demo's SQLite stores: the folder, the connection settings every store shares,
// the schema brought up to date in one write transaction when (and only when) it is not, and writes
// that wait for another connection's lock on timers (never in SQLite's busy handler, which blocks the thread).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { useWalMode } from '@roundtrip/engine/sqlite';
import Database from 'better-sqlite3';
import { whenUnlocked } from './sqlite-lock.ts';

export interface SqliteFileOptions {
  /** Named in errors: `Could not open the <what> at <path>: …`. */
  what: string;
  /**
   * How long a write waits for another connection's lock before failing with a DatabaseLockedError.
   * The wait never blocks the event loop. @defaultValue 5000
   */
  busyTimeoutMs?: number | undefined;
  /** Whether the file already holds this store's schema (and seed data); read without a write lock. */
  isUpToDate(db: Database.Database): boolean;
  /** Creates or migrates the schema; runs inside an immediate transaction, only when `isUpToDate` is false. */
  prepare(db: Database.Database): void;
}

/** Whether the file has a table of this name. */
export function hasTable(db: Database.Database, name: string): boolean {
  return (db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) as { n: number }).n > 0;
}

/** An open store file: its connection, and how its writes are made. */
export interface SqliteFile {
  readonly db: Database.Database;
  /**
   * Runs `work`, a write, now or (while another connection holds the file's write lock) as soon as the
   * lock is free, waiting on timers so that other requests go on being served; after `busyTimeoutMs` it
   * rejects with a DatabaseLockedError saying it could not `doing`. `work` must be one immediate
   * transaction (`tx.immediate(…)`) or one statement, so that a lock error means nothing was written.
   * Reads need no such wait: in WAL mode a reader never waits for a writer.
   */
  write<T>(doing: string, work: () => T): Promise<T>;
}

/**
 * Opens (creating the folder and file on first run) a SQLite file in WAL mode with foreign keys on,
 * and brings its schema up to date. Throws `Could not open the <what> at <path>: <reason>`.
 *
 * @example
 * const { db, write } = openSqliteFile(path, { what: 'meetings database', isUpToDate: (db) => hasTable(db, 'meetings'), prepare: (db) => db.exec(SCHEMA) });
 */
export function openSqliteFile(path: string, options: SqliteFileOptions): SqliteFile {
  const fail = (error: unknown): never => {
    throw new Error(`Could not open the ${options.what} at ${path}: ${(error as Error).message}`, { cause: error });
  };
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
  let db: Database.Database | undefined;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
  } catch (error) {
    fail(error);
  }
  const opened = db as Database.Database;
  try {
    // while opening (at startup, before any request is served) SQLite's own wait is fine
    opened.pragma(`busy_timeout = ${busyTimeoutMs}`);
    useWalMode(opened, busyTimeoutMs); // processes starting together on a new file all get there
    opened.pragma('foreign_keys = ON');
    opened.pragma('synchronous = NORMAL');
    // a file already up to date is only read, so that processes opening it together never wait for each other's write lock
    if (!options.isUpToDate(opened)) opened.transaction(() => options.prepare(opened)).immediate();
    // from here on a lock is waited for in whenUnlocked, on timers
    opened.pragma('busy_timeout = 0');
  } catch (error) {
    opened.close();
    fail(error);
  }
  return {
    db: opened,
    write: (doing, work) => whenUnlocked(work, { what: options.what, path, doing, timeoutMs: busyTimeoutMs }),
  };
}
