// Opening the PostgreSQL effect ledger's database: its tables migrated (servers starting together take turns under
// the migration lock), done records past their retention pruned, and the owner lock taken; or, when any of that
// fails, the pool closed and an error that says which step failed and what to do.
import type { Pool, PoolClient } from 'pg';
import { codeOf, messageOf } from './ledger-errors.ts';
import { migrate, NewerSchemaError } from './ledger-migrations.ts';
import { type OwnerLock, takeOwnerLock } from './owner-lock.ts';

export interface LedgerOpening {
  pool: Pool;
  url: string;
  /** The URL as errors show it (no password). */
  shown: string;
  settings: { connectTimeoutMs: number; statementTimeoutMs: number; lockTimeoutMs: number };
  /** Whether to take the owner lock (`ownerLock` option). */
  lock: boolean;
  warn: (message: string) => void;
  explain: (error: unknown) => string;
  /** Prunes done records past their retention, once the tables are there. */
  prune: () => Promise<void>;
}

/** Migrates, prunes and takes the owner lock; resolves to the lock (undefined when not wanted). */
export async function openLedgerDatabase({
  pool,
  url,
  shown,
  settings,
  lock,
  warn,
  explain,
  prune,
}: LedgerOpening): Promise<OwnerLock | undefined> {
  let client: PoolClient | undefined;
  let migrating = false;
  try {
    client = await pool.connect();
    migrating = true;
    await migrate(client, settings.statementTimeoutMs);
    migrating = false;
    client.release();
    client = undefined;
    await prune();
    if (!lock) return undefined;
    const lockConnection = {
      connectionString: url,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      statement_timeout: settings.statementTimeoutMs,
      query_timeout: settings.statementTimeoutMs + settings.connectTimeoutMs,
      keepAlive: true,
    };
    return await takeOwnerLock(lockConnection, shown, warn, explain);
  } catch (error) {
    client?.release(true);
    await pool.end().catch(() => undefined);
    // the migration waits for another server's migration lock as long as one statement may run
    const waitedForLock = migrating && (codeOf(error) === '55P03' || codeOf(error) === '57014');
    const why =
      error instanceof NewerSchemaError
        ? `: ${error.message}`
        : waitedForLock
          ? `(${messageOf(error)}). The migration did not finish within statementTimeoutMs (${settings.statementTimeoutMs} ms): another server may hold the ledger's migration lock (migrating, or stuck), or the server is slow; look in pg_stat_activity, or raise statementTimeoutMs.`
          : explain(error);
    throw new Error(`Cannot open the effect ledger at ${shown} ${why}`, { cause: error });
  }
}
