import { createSqliteLedger, type SqliteLedger } from '@roundtrip/engine/sqlite';
import { RoundtripConfigError } from './config-error.ts';

/**
 * Opens (creating if absent) the SQLite effect ledger at `path`. A file that cannot be opened is a
 * setting the server cannot start with: the error names ROUNDTRIP_LEDGER and what to do.
 */
export function openLedger(path: string): SqliteLedger {
  try {
    return createSqliteLedger({ path });
  } catch (error) {
    throw new RoundtripConfigError('ROUNDTRIP_LEDGER', `${(error as Error).message} ROUNDTRIP_LEDGER sets the ledger path.`);
  }
}
