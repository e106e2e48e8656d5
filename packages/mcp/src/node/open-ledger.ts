import type { EffectLedger } from '@roundtrip/engine';
import { createSqliteLedger, type SqliteLedger } from '@roundtrip/engine/sqlite';
import { RoundtripConfigError } from '../config-error.ts';
import { isPostgresUrl } from './resolve-ledger-path.ts';

/** A ledger this server opened, and so closes when it stops. */
export type OpenedLedger = EffectLedger & { close(): void | Promise<void> };

/**
 * Opens (creating if absent) the SQLite effect ledger at `path`. A file that cannot be opened is a
 * setting the server cannot start with: the error names ROUNDTRIP_LEDGER and what to do.
 */
export function openLedger(path: string): SqliteLedger {
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
 * `postgres://` URL (`@roundtrip/engine/postgres`, loaded only then, with its `pg` driver), else the
 * SQLite file at that path. A ledger that cannot be opened is a setting the server cannot start with.
 */
export async function openLedgerAt(location: string): Promise<OpenedLedger> {
  if (!isPostgresUrl(location)) return openLedger(location);
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
