// The effect ledger a Node server opens from its settings: the SQLite file (`@roundtrip/engine/sqlite`, with its
// native better-sqlite3), the PostgreSQL database of a `postgres://` URL (`@roundtrip/engine/postgres`, with
// `pg`), or this process's memory for `:memory:`. Each driver is loaded only when its ledger is the one asked
// for, so a server on PostgreSQL or in memory runs where better-sqlite3 was never installed.
import { createMemoryLedger, type EffectLedger } from '@roundtrip/engine';
import { RoundtripConfigError } from '../config-error.ts';
import { isPostgresUrl } from './resolve-ledger-path.ts';

/** A ledger this server opened, and so closes when it stops. */
export type OpenedLedger = EffectLedger & { close(): void | Promise<void> };

/** The ledger location that keeps effects in this process's memory only (forgotten when it stops). */
export const MEMORY_LEDGER = ':memory:';

/** True when `error` says the package `name` is not installed (an import that found no such package). */
function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`'${name}'`);
}

/** What to say when the SQLite ledger at `path` cannot be served because better-sqlite3 is not installed. */
function sqliteMissingMessage(path: string): string {
  return (
    `The effect ledger ${path} is a SQLite file, which needs the package 'better-sqlite3' (version 12, a native module); ` +
    'it is not installed. Install it beside @roundtrip/engine: npm install better-sqlite3@12. Or set ROUNDTRIP_LEDGER to a ' +
    'postgres:// URL (a PostgreSQL database, through the package pg) or to :memory: (effects kept only while the process runs): ' +
    'neither needs better-sqlite3.'
  );
}

/** Loads `@roundtrip/engine/sqlite` for the ledger at `path`; a better-sqlite3 that is not installed is a setting to change. */
async function loadSqlite(path: string): Promise<typeof import('@roundtrip/engine/sqlite')> {
  try {
    return await import('@roundtrip/engine/sqlite');
  } catch (error) {
    if (!isMissingPackage(error, 'better-sqlite3')) throw error;
    throw new RoundtripConfigError('ROUNDTRIP_LEDGER', sqliteMissingMessage(path), { code: 'missing_dependency', cause: error });
  }
}

/**
 * Opens (creating if absent) the SQLite effect ledger at `path`. A file that cannot be opened is a
 * setting the server cannot start with: the error names ROUNDTRIP_LEDGER and what to do.
 */
async function openSqliteLedger(path: string): Promise<OpenedLedger> {
  const { createSqliteLedger } = await loadSqlite(path);
  try {
    return createSqliteLedger({ path });
  } catch (error) {
    throw new RoundtripConfigError('ROUNDTRIP_LEDGER', `${(error as Error).message} ROUNDTRIP_LEDGER sets the ledger path.`, {
      code: 'unavailable',
      cause: error,
    });
  }
}

/**
 * Opens the effect ledger where ROUNDTRIP_LEDGER (or the code) says: a PostgreSQL database for a
 * `postgres://` URL (`@roundtrip/engine/postgres`, loaded only then, with its `pg` driver), this process's
 * memory for `:memory:`, else the SQLite file at that path (`@roundtrip/engine/sqlite`, loaded only then,
 * with better-sqlite3). A ledger that cannot be opened is a setting the server cannot start with.
 */
export async function openLedgerAt(location: string): Promise<OpenedLedger> {
  if (location === MEMORY_LEDGER) return Object.assign(createMemoryLedger(), { close() {} });
  if (!isPostgresUrl(location)) return openSqliteLedger(location);
  let postgres: typeof import('@roundtrip/engine/postgres');
  try {
    postgres = await import('@roundtrip/engine/postgres');
  } catch (error) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_LEDGER',
      `ROUNDTRIP_LEDGER is a PostgreSQL URL, and the PostgreSQL ledger could not be loaded (${(error as Error).message}). ` +
        "Install its driver beside @roundtrip/engine ('npm install pg'), or set ROUNDTRIP_LEDGER to a SQLite file.",
      { code: 'missing_dependency', cause: error },
    );
  }
  try {
    return await postgres.createPostgresLedger({ url: location });
  } catch (error) {
    throw new RoundtripConfigError('ROUNDTRIP_LEDGER', `${(error as Error).message} ROUNDTRIP_LEDGER sets the ledger's URL.`, {
      code: 'unavailable',
      cause: error,
    });
  }
}
