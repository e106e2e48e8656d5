// The task store in one SQLite file (the effect ledger's, usually), so that a task outlives the process that
// created it and the processes of one machine sharing the file see the same tasks.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { decodeTaskRow, encodeTaskRow, TASK_COLUMNS, type TaskRow } from '../task-rows.ts';
import type { TaskStore } from '../task-store.ts';
import { ownerLiveness, THIS_PROCESS } from './effect-owner.ts';
import { waitForLock } from './wait-for-lock.ts';
import { useWalMode } from './wal-mode.ts';

export interface SqliteTaskStoreOptions {
  /** The database file (the ledger's, or another). Its folder is created if absent; it may hold other tables. */
  path: string;
  /** How long a call waits for another connection's write lock (without blocking the event loop) before failing. @defaultValue 5000 */
  busyTimeoutMs?: number;
}

/** A {@link TaskStore} in one SQLite file; every call returns a Promise. */
export interface SqliteTaskStore extends TaskStore {
  /** Closes the connection. Later calls fail; closing again does nothing. */
  close(): void;
  /** The database file, as given. */
  readonly path: string;
}

// the table's first version; a later change is a new ALTER beside this one, never an edit of it
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS roundtrip_tasks (
    task_id          TEXT    NOT NULL PRIMARY KEY,
    principal_tag    BLOB    NOT NULL,
    tool             TEXT    NOT NULL,
    args             TEXT    NOT NULL,
    capabilities     TEXT,
    run              TEXT    NOT NULL,
    status           TEXT    NOT NULL,
    status_message   TEXT,
    created_at       INTEGER NOT NULL,
    last_updated_at  INTEGER NOT NULL,
    ttl_ms           INTEGER NOT NULL,
    poll_interval_ms INTEGER NOT NULL,
    expires_at       INTEGER NOT NULL,
    sealed           TEXT,
    pending          TEXT    NOT NULL,
    next_key         INTEGER NOT NULL,
    result           TEXT,
    error            TEXT,
    cancel_requested INTEGER NOT NULL CHECK (cancel_requested IN (0, 1)),
    version          INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS roundtrip_tasks_expires_at ON roundtrip_tasks (expires_at);
`;
// the second: which process runs a working task's work (effect-owner.ts), so that one gone can be told
const OWNER_COLUMN = 'ALTER TABLE roundtrip_tasks ADD COLUMN owner TEXT';

type SqliteRow = Omit<TaskRow, 'cancel_requested'> & { cancel_requested: number; owner: string | null };

/**
 * Opens (creating if absent) the task store in the SQLite file at `options.path`: one table,
 * `roundtrip_tasks`, beside the effect ledger's and the application's own. `write` replaces a task only
 * at the version it was read at (compare-and-set), so two processes never overwrite each other's change.
 *
 * @throws Error naming the path and what to do, when the file cannot be opened or its table made.
 *
 * @example
 * import { createSqliteLedger, createSqliteTaskStore } from '@roundtrip/engine/sqlite';
 *
 * const ledger = createSqliteLedger({ path: '/var/lib/my-server/effects.db' });
 * const store = createSqliteTaskStore({ path: ledger.path });
 * const engine = createEngine({ tools, keyring, audience: 'orders', ledger, tasks: { store } });
 * // on shutdown: the engine first (its running tasks end cancelled, recorded in the store), then the store
 * await engine.close();
 * store.close();
 * ledger.close();
 */
export function createSqliteTaskStore(options: SqliteTaskStoreOptions): SqliteTaskStore {
  const { path } = options;
  if (typeof path !== 'string' || path === '') {
    throw new Error(
      'createSqliteTaskStore needs a path: set options.path to the SQLite file to keep tasks in (the effect ledger’s file will do).',
    );
  }
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (!Number.isFinite(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new Error(
      `createSqliteTaskStore got busyTimeoutMs = ${String(busyTimeoutMs)} for ${path}; set it to a number of milliseconds, 0 or more.`,
    );
  }
  let db: Database.Database | undefined;
  let statements: ReturnType<typeof prepare>;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma(`busy_timeout = ${Math.floor(busyTimeoutMs)}`);
    useWalMode(db, busyTimeoutMs);
    db.pragma('synchronous = FULL');
    const opening = db;
    // one write transaction: servers opening a file at once each see the table as the one before made it
    // (checked apart, two could both find the column missing, and the second's ALTER would fail)
    opening
      .transaction(() => {
        opening.exec(SCHEMA);
        const columns = opening.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('roundtrip_tasks')").all();
        if (!columns.some((c) => c.name === 'owner')) opening.exec(OWNER_COLUMN);
      })
      .immediate();
    statements = prepare(db);
    // from here on a lock is waited for in waitForLock, never inside SQLite (which would block the thread)
    db.pragma('busy_timeout = 0');
  } catch (error) {
    db?.close();
    throw new Error(
      `Cannot open the task store at ${path} (${describe(error)}). Set the path to a SQLite file in a folder this user can write to; ` +
        'if the file has a roundtrip_tasks table made by something else, rename that table or use another file.',
      { cause: error },
    );
  }
  const opened = db;
  const { insert, deleteExpired, select, deleteIfExpired, update, working } = statements;

  const createTx = opened.transaction((row: SqliteRow) => {
    deleteExpired.run(row.created_at);
    if (insert.run(row).changes !== 1) throw new Error(`task ${row.task_id} exists already in the task store at ${path}`);
  });

  /** Runs `work`; if the file is locked by another connection, again with backoff until `busyTimeoutMs` has passed. */
  const whenFree = async <T>(what: string, work: () => T): Promise<T> => {
    const attempt = () => {
      if (!opened.open)
        throw new Error(`The task store at ${path} is closed; create a new one with createSqliteTaskStore to use it again.`);
      return work();
    };
    const giveUp = (error: unknown) =>
      isBusy(error)
        ? new Error(
            `The task store at ${path} stayed locked by another connection for ${busyTimeoutMs} ms, so this server could not ${what}. ` +
              'Find the process that holds the database lock (a long transaction on the same file), or raise busyTimeoutMs.',
            { cause: error },
          )
        : error;
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || busyTimeoutMs === 0) throw giveUp(error);
    }
    return waitForLock(attempt, isBusy, busyTimeoutMs, giveUp);
  };

  return {
    path,
    async create(record) {
      const row = toSqlite(encodeTaskRow(record, record.version));
      await whenFree(`record task ${record.taskId}`, () => createTx.immediate(row));
    },
    async read(taskId, now) {
      return whenFree(`read task ${taskId}`, () => {
        const row = select.get(taskId);
        if (!row) return undefined;
        if (now >= row.expires_at) {
          deleteIfExpired.run(taskId, now);
          return undefined;
        }
        return decodeTaskRow({ ...row, cancel_requested: row.cancel_requested === 1 }, path);
      });
    },
    async abandoned(now) {
      const rows = await whenFree('look for tasks left working', () => working.all(now));
      return rows
        .filter((row) => row.owner !== null && ownerLiveness(row.owner) === 'gone')
        .map((row) => decodeTaskRow({ ...row, cancel_requested: row.cancel_requested === 1 }, path));
    },
    async write(record, expectedVersion) {
      const row = toSqlite(encodeTaskRow(record, expectedVersion + 1));
      const changed = await whenFree(
        `record a change to task ${record.taskId}`,
        () => update.run({ ...row, expected: expectedVersion }).changes,
      );
      return changed === 1 ? 'ok' : 'conflict';
    },
    close() {
      if (opened.open) opened.close();
    },
  };
}

// better-sqlite3 binds a Buffer as a BLOB, not a plain Uint8Array; a working task is this process's: on one
// machine the process that records a task working is the one that runs its work
const toSqlite = (row: TaskRow): SqliteRow => ({
  ...row,
  principal_tag: Buffer.from(row.principal_tag),
  cancel_requested: row.cancel_requested ? 1 : 0,
  owner: row.status === 'working' ? THIS_PROCESS : null,
});

function prepare(db: Database.Database) {
  const columns = [...TASK_COLUMNS, 'owner'];
  const names = columns.join(', ');
  const values = columns.map((c) => `@${c}`).join(', ');
  const sets = columns
    .filter((c) => c !== 'task_id')
    .map((c) => `${c} = @${c}`)
    .join(', ');
  return {
    insert: db.prepare<[SqliteRow]>(`INSERT INTO roundtrip_tasks (${names}) VALUES (${values}) ON CONFLICT (task_id) DO NOTHING`),
    deleteExpired: db.prepare<[number]>('DELETE FROM roundtrip_tasks WHERE expires_at <= ?'),
    select: db.prepare<[string], SqliteRow>(`SELECT ${names} FROM roundtrip_tasks WHERE task_id = ?`),
    working: db.prepare<[number], SqliteRow>(`SELECT ${names} FROM roundtrip_tasks WHERE status = 'working' AND expires_at > ?`),
    deleteIfExpired: db.prepare<[string, number]>('DELETE FROM roundtrip_tasks WHERE task_id = ? AND expires_at <= ?'),
    update: db.prepare<[SqliteRow & { expected: number }]>(
      `UPDATE roundtrip_tasks SET ${sets} WHERE task_id = @task_id AND version = @expected`,
    ),
  };
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
