// The task store in PostgreSQL, so that every server sharing the database sees the same tasks: any of them
// answers tasks/get, and tasks/update or tasks/cancel of a task parked on questions (its snapshot is sealed
// in its row, and any engine holding the keyring rehydrates it).
import { decodeTaskRow, encodeTaskRow, TASK_COLUMNS, type TaskRow } from '../task-rows.ts';
import type { TaskStore } from '../task-store.ts';
import { redactUrl } from './ledger-errors.ts';
import { NewerSchemaError } from './ledger-migrations.ts';
import { explainPoolError, openPool } from './open-pool.ts';
import { parsePostgresUrl } from './postgres-url.ts';
import { migrateTasks } from './task-migrations.ts';

export interface PostgresTaskStoreOptions {
  /** The server and database (the ledger's, or another): `postgres://user:password@host:5432/database`. */
  url: string;
  /** Connections at most in this store's pool. @defaultValue 5 */
  maxConnections?: number;
  /** How long a call waits for a connection before failing. @defaultValue 5000 */
  connectTimeoutMs?: number;
  /** How long one statement may run on the server before it is cancelled. @defaultValue 5000 */
  statementTimeoutMs?: number;
  /** Where the store reports what happens outside any call (a lost idle connection). @defaultValue process.emitWarning */
  onWarning?: (message: string) => void;
}

/** A {@link TaskStore} in PostgreSQL; every call returns a Promise. */
export interface PostgresTaskStore extends TaskStore {
  /** Closes the pool. Later calls fail; closing again does nothing. */
  close(): Promise<void>;
  /** The URL, without its password. */
  readonly url: string;
}

const JSON_COLUMNS = new Set(['args', 'capabilities', 'pending', 'result', 'error']);
const NAMES = TASK_COLUMNS.join(', ');
// the json columns as their text: one decoder for both stores, and the driver's parse of json skipped
const SELECTED = TASK_COLUMNS.map((c) => (JSON_COLUMNS.has(c) ? `${c}::text AS ${c}` : c)).join(', ');
const PLACEHOLDERS = TASK_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
const SETS = TASK_COLUMNS.map((c, i) => `${c} = $${i + 1}`)
  .slice(1)
  .join(', ');
const EXPECTED = `$${TASK_COLUMNS.length + 1}`;

const valuesOf = (row: TaskRow) => TASK_COLUMNS.map((c) => (c === 'principal_tag' ? Buffer.from(row.principal_tag) : row[c]));

/**
 * Opens the task store in the PostgreSQL database at `options.url`, migrating its table (`roundtrip_tasks`,
 * recorded in `roundtrip_task_migrations`) to this version first: servers that start together take turns.
 * `write` replaces a task only at the version it was read at (`UPDATE … WHERE version = $expected`), so two
 * servers never overwrite each other's change.
 *
 * @throws Error naming the server (never its password) and what to do, when it cannot connect or migrate.
 *
 * @example
 * import { createPostgresLedger, createPostgresTaskStore } from '@roundtrip/engine/postgres';
 *
 * const ledger = await createPostgresLedger({ url: process.env.DATABASE_URL! });
 * const store = await createPostgresTaskStore({ url: process.env.DATABASE_URL! });
 * const engine = createEngine({ tools, keyring, audience: 'orders', ledger, tasks: { store } });
 * // on shutdown: the engine first (its running tasks end cancelled, recorded in the store), then the store
 * await engine.close();
 * await store.close();
 * await ledger.close();
 */
export async function createPostgresTaskStore(options: PostgresTaskStoreOptions): Promise<PostgresTaskStore> {
  const shown = redactUrl(parsePostgresUrl(options.url, 'createPostgresTaskStore'));
  const number = (name: keyof PostgresTaskStoreOptions, value: number) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 1)
      throw new Error(`createPostgresTaskStore got ${name} = ${String(value)} for ${shown}; set it to a number, 1 or more.`);
    return Math.floor(value);
  };
  const settings = {
    connectTimeoutMs: number('connectTimeoutMs', options.connectTimeoutMs ?? 5000),
    statementTimeoutMs: number('statementTimeoutMs', options.statementTimeoutMs ?? 5000),
    lockTimeoutMs: 2000,
  };
  const maxConnections = number('maxConnections', options.maxConnections ?? 5);
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, 'RoundtripTaskStoreWarning'));
  const explain = (error: unknown) => explainPoolError(error, settings);
  const pool = openPool({
    url: options.url,
    shown,
    bounds: settings,
    maxConnections,
    applicationName: 'roundtrip-tasks',
    what: 'The task store',
    warn,
  });
  try {
    const client = await pool.connect();
    try {
      await migrateTasks(client, settings.statementTimeoutMs);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    const why = error instanceof NewerSchemaError ? `: ${error.message}` : explain(error);
    throw new Error(`Cannot open the task store at ${shown} ${why}`, { cause: error });
  }

  let closed = false;
  const query = async (what: string, text: string, values: unknown[]) => {
    if (closed) throw new Error(`The task store at ${shown} is closed; create a new one with createPostgresTaskStore to use it again.`);
    try {
      return await pool.query<TaskRow>(text, values);
    } catch (error) {
      throw new Error(`The task store at ${shown} could not ${what} ${explain(error)}`, { cause: error });
    }
  };

  return {
    url: shown,
    async create(record) {
      const what = `record task ${record.taskId}`;
      // expired tasks nobody reads again go as new ones come (by the index on expires_at)
      await query(what, 'DELETE FROM roundtrip_tasks WHERE expires_at <= $1', [record.createdAt]);
      const inserted = await query(
        what,
        `INSERT INTO roundtrip_tasks (${NAMES}) VALUES (${PLACEHOLDERS}) ON CONFLICT (task_id) DO NOTHING`,
        valuesOf(encodeTaskRow(record, record.version)),
      );
      if (inserted.rowCount !== 1) throw new Error(`task ${record.taskId} exists already in the task store at ${shown}`);
    },
    async read(taskId, now) {
      const what = `read task ${taskId}`;
      const { rows } = await query(what, `SELECT ${SELECTED} FROM roundtrip_tasks WHERE task_id = $1`, [taskId]);
      const row = rows[0];
      if (!row) return undefined;
      if (now >= Number(row.expires_at)) {
        await query(what, 'DELETE FROM roundtrip_tasks WHERE task_id = $1 AND expires_at <= $2', [taskId, Math.floor(now)]);
        return undefined;
      }
      return decodeTaskRow(row, shown);
    },
    async write(record, expectedVersion) {
      const values = valuesOf(encodeTaskRow(record, expectedVersion + 1));
      const updated = await query(
        `record a change to task ${record.taskId}`,
        `UPDATE roundtrip_tasks SET ${SETS} WHERE task_id = $1 AND version = ${EXPECTED}`,
        [...values, expectedVersion],
      );
      return updated.rowCount === 1 ? 'ok' : 'conflict';
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
