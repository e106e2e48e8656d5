// The demo's PostgreSQL database, shared by its three stores: one pool whose every wait is bounded
// (a connection, a statement, a lock), the tables migrated when it opens, and errors that name the
// database without its password and say what to do. A lock held past the wait is a DatabaseLockedError,
// as a locked SQLite file is, so refund_order answers `locked` on either backend.
import type { LedgerTransaction } from '@roundtrip/engine';
import { postgresTransaction } from '@roundtrip/engine/postgres';
import { Pool, type PoolClient, type QueryResultRow } from 'pg';
import { DatabaseLockedError } from './database-locked.ts';
import { codeOf, explain, type PostgresTimeouts, redactUrl } from './postgres-errors.ts';
import { migrate, NewerSchemaError } from './postgres-migrations.ts';

export interface PostgresDatabaseOptions {
  /** How long a statement waits for another connection's lock (PostgreSQL's lock_timeout). @defaultValue 5000 */
  busyTimeoutMs?: number | undefined;
  /** Connections at most in this server's pool. @defaultValue 10 */
  maxConnections?: number;
  /** Where a lost idle connection is reported (it happens outside any call). @defaultValue process.emitWarning */
  onWarning?: (message: string) => void;
}

/** Runs statements: the pool (each its own transaction) or one connection inside a transaction. */
export interface Statements {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
}

/** What one store does on the database, named in its errors as `the <what> at <url>`. */
interface StoreDatabase {
  /** One statement, its own transaction; `doing` follows "could not" in errors: `read order ord_51`. */
  query<R extends QueryResultRow>(doing: string, text: string, values?: unknown[]): Promise<R[]>;
  /** `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(doing: string, work: (statements: Statements) => Promise<T>): Promise<T>;
  /**
   * The effect ledger's transaction, when it is on this very database (the same database, and `table`
   * the same table through it): `work` then runs in it, its errors said as this store's; else undefined.
   */
  onLedger(transaction: LedgerTransaction | undefined, table: string): Promise<LedgerStatements | undefined>;
  /** Gives back this store's share of the pool; the pool ends when every store has. */
  close(): Promise<void>;
}

/** Running a store's work in the effect ledger's transaction (which the ledger commits or rolls back). */
interface LedgerStatements {
  run<T>(doing: string, work: (statements: Statements) => Promise<T>): Promise<T>;
}

/**
 * Which database and which `table` a connection reaches (equal on two connections: they reach the same rows);
 * with `lockTimeoutMs`, it sets that connection's lock_timeout for the rest of its transaction in the same query.
 */
const placeOf = async (on: Pick<PoolClient, 'query'>, table: string, lockTimeoutMs: number | undefined) => {
  const setting = lockTimeoutMs === undefined ? '' : `set_config('lock_timeout', '${lockTimeoutMs}ms', true), `;
  const { rows } = await on.query<{ db: string; tbl: string | null }>(
    `SELECT ${setting}current_database() AS db, to_regclass($1)::oid::text AS tbl`,
    [table],
  );
  return rows[0] && rows[0].tbl !== null ? `${rows[0].db}.${rows[0].tbl}` : undefined;
};

export interface PostgresDatabase {
  /** The URL, without its password. */
  readonly shown: string;
  /** A store's door to the database: `what` names it in errors (`orders database`). */
  forStore(what: string): StoreDatabase;
}

/** The URL, or an error that does not repeat it (it may hold a password). */
function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new Error(
      'Could not open the orders database: its PostgreSQL URL does not parse. Write it as postgres://user:password@host:5432/database, ' +
        'with any @, :, / or % in the user or password percent-encoded (%40, %3A, %2F, %25).',
    );
  }
}

const CONNECT_TIMEOUT_MS = 5000;
/** How long a statement may run once it has its locks. */
const WORK_TIMEOUT_MS = 5000;
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Opens the demo's database at `url` (`postgres://user:password@host:5432/database`; `postgresql://` too)
 * and migrates its tables: servers that start together take turns. Throws `Could not open the orders
 * database at <url without password>: (<code>: <message>). <what to do>`.
 *
 * @example
 * const db = await openPostgresDatabase('postgres://demo:secret@db.internal/shop');
 * const orders = openPostgresOrdersStore(db);
 */
export async function openPostgresDatabase(url: string, options: PostgresDatabaseOptions = {}): Promise<PostgresDatabase> {
  const shown = redactUrl(parseUrl(url));
  const lockTimeoutMs = Math.max(1, Math.floor(options.busyTimeoutMs ?? 5000));
  const timeouts: PostgresTimeouts = {
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    lockTimeoutMs,
    statementTimeoutMs: lockTimeoutMs + WORK_TIMEOUT_MS,
  };
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, 'RoundtripDemoWarning'));
  const pool = new Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    lock_timeout: timeouts.lockTimeoutMs,
    idle_in_transaction_session_timeout: timeouts.statementTimeoutMs,
    // the client's own bound, for a server that stops answering (a network partition sends no error)
    query_timeout: timeouts.statementTimeoutMs + timeouts.connectTimeoutMs,
    application_name: 'roundtrip-demo',
    keepAlive: true,
    allowExitOnIdle: true,
  });
  pool.on('error', (error) =>
    warn(`The demo's database at ${shown} lost an idle connection (${error.message}); the next call opens a new one.`),
  );

  let client: PoolClient | undefined;
  try {
    client = await pool.connect();
    await migrate(client, timeouts.statementTimeoutMs);
    client.release();
  } catch (error) {
    client?.release(true);
    await pool.end().catch(() => undefined);
    const why = error instanceof NewerSchemaError ? error.message : explain(error, timeouts);
    throw new Error(`Could not open the orders database at ${shown}: ${why}`, { cause: error });
  }

  let ownPlace: Promise<string | undefined> | undefined;
  let shares = 0;
  let ended: Promise<void> | undefined;
  const fail = (what: string, doing: string, error: unknown): never => {
    if (codeOf(error) === LOCK_NOT_AVAILABLE) throw new DatabaseLockedError(what, shown, doing, lockTimeoutMs, error, 'session');
    throw new Error(`The ${what} at ${shown} could not ${doing} ${explain(error, timeouts)}`, { cause: error });
  };
  const rowsOf = async <R extends QueryResultRow>(on: Pool | PoolClient, text: string, values: unknown[] | undefined) =>
    (await on.query<R>(text, values)).rows;

  return {
    shown,
    forStore(what) {
      shares++;
      let closed = false;
      const assertOpen = () => {
        if (closed || ended) throw new Error(`The ${what} at ${shown} is closed; open the demo's stores again to use it.`);
      };
      return {
        async query(doing, text, values) {
          assertOpen();
          try {
            return await rowsOf(pool, text, values);
          } catch (error) {
            return fail(what, doing, error);
          }
        },
        async transaction(doing, work) {
          assertOpen();
          let connection: PoolClient | undefined;
          try {
            connection = await pool.connect();
            await connection.query('BEGIN');
            const on = connection;
            const result = await work({ query: (text, values) => rowsOf(on, text, values) });
            await connection.query('COMMIT');
            connection.release();
            return result;
          } catch (error) {
            // a connection whose rollback fails is not given back to the pool
            const rolledBack = await connection?.query('ROLLBACK').then(
              () => true,
              () => false,
            );
            connection?.release(!rolledBack);
            return fail(what, doing, error);
          }
        },
        async onLedger(transaction, table) {
          if (transaction === undefined) return undefined;
          const client = postgresTransaction(transaction);
          ownPlace ??= placeOf(pool, table, undefined);
          const own = await ownPlace.catch((error) => {
            ownPlace = undefined; // asked again next time
            return fail(what, `find the ${table} table`, error);
          });
          // each transaction's connection is asked (its handle is new each time); the same query sets, for the rest of
          // the ledger's transaction, the store's own bound on lock waits (ROUNDTRIP_DB_BUSY_TIMEOUT_MS)
          const theirs = await placeOf(client, table, lockTimeoutMs).catch((error) => fail(what, `find the ${table} table`, error));
          if (own === undefined || own !== theirs) return undefined;
          return {
            async run(doing, work) {
              assertOpen();
              try {
                return await work({
                  query: async <R extends QueryResultRow>(text: string, values?: unknown[]) => (await client.query<R>(text, values)).rows,
                });
              } catch (error) {
                return fail(what, doing, error);
              }
            },
          };
        },
        async close() {
          if (closed) return;
          closed = true;
          shares--;
          if (shares === 0) ended ??= pool.end();
          await ended;
        },
      };
    },
  };
}
