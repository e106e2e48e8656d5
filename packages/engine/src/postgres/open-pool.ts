// The connection pool every PostgreSQL store of the engine opens (the effect ledger, the task store): the same
// bounds on connecting, statements, locks and transactions left open, the client's own bound for a server that
// stops answering, and a warning (with the password left out) when an idle connection is lost.
import { Pool } from 'pg';
import { codeOf, hintFor, messageOf } from './ledger-errors.ts';

export interface PoolBounds {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

export interface PoolOptions {
  url: string;
  /** The URL as logs show it, without its password. */
  shown: string;
  bounds: PoolBounds;
  maxConnections: number;
  /** `application_name`, as pg_stat_activity shows it: `roundtrip-ledger`, `roundtrip-tasks`. */
  applicationName: string;
  /** What the store is called in a warning: `The effect ledger`, `The task store`. */
  what: string;
  warn: (message: string) => void;
}

export function openPool({ url, shown, bounds, maxConnections, applicationName, what, warn }: PoolOptions): Pool {
  const pool = new Pool({
    connectionString: url,
    max: maxConnections,
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    statement_timeout: bounds.statementTimeoutMs,
    lock_timeout: bounds.lockTimeoutMs,
    idle_in_transaction_session_timeout: bounds.statementTimeoutMs,
    // the client's own bound, for a server that stops answering (a network partition sends no error)
    query_timeout: bounds.statementTimeoutMs + bounds.connectTimeoutMs,
    application_name: applicationName,
    keepAlive: true,
    allowExitOnIdle: true,
  });
  pool.on('error', (error) => warn(`${what} at ${shown} lost an idle connection (${messageOf(error)}); the next call opens a new one.`));
  return pool;
}

/** A failed call's error in words: its code, its message, and what to do about it under these bounds. */
export function explainPoolError(error: unknown, bounds: PoolBounds): string {
  const code = codeOf(error);
  return `(${code ? `${code}: ` : ''}${messageOf(error)}). ${hintFor(error, bounds)}`;
}
