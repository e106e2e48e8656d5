// One effect, its claim and its outcome in one transaction on the SQLite ledger's connection (the
// ledger's TransactionalLedger capability), and the function that gives the effect that connection.
import type Database from 'better-sqlite3';
import type { EffectKey, EffectOutcome, EffectRecord } from '../effect-ledger.ts';
import { type LedgerTransaction, transactionMisuse } from '../ledger-transaction.ts';
import type { ConnectionTurns } from './connection-turns.ts';
import { waitForLock } from './wait-for-lock.ts';

// the connections of the transactions open now, by their handle; a handle leaves when its effect ends
const open = new WeakMap<LedgerTransaction, Database.Database>();

/**
 * The SQLite connection of the ledger's transaction an effect runs in (see `ledgerTransactionOf` and
 * `inLedgerTransaction` of `@roundtrip/engine`): run the effect's statements on it, and they commit with
 * its claim and outcome, or not at all. Use it only while the effect runs; do not `COMMIT`, `ROLLBACK`
 * or close it (better-sqlite3's `db.transaction(fn)` nests as a savepoint and is fine).
 *
 * @throws Error saying what is wrong when `tx` is undefined (the effect runs in no transaction), a
 * PostgreSQL ledger's transaction, or one that has ended.
 */
export function sqliteTransaction(tx: LedgerTransaction | undefined): Database.Database {
  const db = tx === undefined ? undefined : open.get(tx);
  if (!db) throw new Error(transactionMisuse('sqliteTransaction', 'sqlite', tx));
  return db;
}

/** What the ledger lends its transactions: its connection, its turns on it, and its own statements. */
export interface SqliteTransactionParts {
  readonly db: Database.Database;
  readonly path: string;
  readonly busyTimeoutMs: number;
  readonly turns: ConnectionTurns;
  readonly assertOpen: () => void;
  readonly isBusy: (error: unknown) => boolean;
  /** The error of a wait for the file's lock that gave up, saying what could not be done. */
  readonly lockError: (error: unknown, what: string) => unknown;
  /** The error of a wait for this process's own transaction that gave up. */
  readonly turnTooLong: (what: string) => unknown;
  /** Inserts the running claim if absent; true when inserted. */
  readonly claim: (key: EffectKey, startedAt: number) => boolean;
  readonly read: (key: EffectKey) => EffectRecord | undefined;
  /** Writes the outcome into the claimed row (and prunes old records when due). */
  readonly complete: (key: EffectKey, outcome: EffectOutcome, finishedAt: number) => void;
}

const SAVEPOINT = 'roundtrip_effect';

/** The ledger's runOnceInTransaction, on its connection (see TransactionalLedger). */
export async function runInSqliteTransaction(
  parts: SqliteTransactionParts,
  key: EffectKey,
  now: () => number,
  act: (tx: LedgerTransaction) => Promise<EffectOutcome>,
): Promise<'ran' | EffectRecord> {
  const { db, path, turns } = parts;
  const described = `run "${key.run}", effect "${key.effect}"`;
  const notStarted = `run ${described} in its transaction (the effect was not started)`;
  parts.assertOpen();
  await turns.take(parts.busyTimeoutMs, () => parts.turnTooLong(notStarted));
  try {
    await begin(parts, notStarted);
    let acted = false;
    try {
      if (!parts.claim(key, Math.floor(now()))) {
        const record = parts.read(key);
        db.exec('ROLLBACK');
        if (record) return record;
        throw new Error(
          `The effect ledger at ${path} lost the record of ${described} inside one transaction; check that nothing else deletes rows from roundtrip_effects.`,
        );
      }
      db.exec(`SAVEPOINT ${SAVEPOINT}`);
      const tx: LedgerTransaction = Object.freeze({ database: 'sqlite' });
      open.set(tx, db);
      acted = true;
      let outcome: EffectOutcome;
      try {
        outcome = await act(tx);
      } catch (error) {
        outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
      } finally {
        open.delete(tx);
      }
      parts.assertOpen();
      if (!db.inTransaction)
        throw new Error(
          `the effect ended the ledger's transaction itself (COMMIT or ROLLBACK on the connection of sqliteTransaction); leave that to the ledger`,
        );
      // an effect that failed leaves nothing of its own behind: its failure is what is recorded
      if (!outcome.ok) db.exec(`ROLLBACK TO ${SAVEPOINT}`);
      db.exec(`RELEASE ${SAVEPOINT}`);
      parts.complete(key, outcome, Math.floor(now()));
      db.exec('COMMIT');
      return 'ran';
    } catch (error) {
      if (db.open && db.inTransaction) db.exec('ROLLBACK');
      if (!acted) throw error;
      throw new Error(
        `The effect ledger at ${path} could not commit the transaction of ${described} (${error instanceof Error ? error.message : String(error)}): ` +
          'the effect ran, but its writes, its claim and its outcome were all rolled back, so nothing of it was kept and a retry runs it again.',
        { cause: error },
      );
    }
  } finally {
    turns.give();
  }
}

/** `BEGIN IMMEDIATE` (the file's write lock), waiting for another connection's lock without blocking the event loop. */
async function begin(parts: SqliteTransactionParts, what: string): Promise<void> {
  const start = () => {
    parts.assertOpen();
    parts.db.exec('BEGIN IMMEDIATE');
  };
  try {
    start();
    return;
  } catch (error) {
    if (!parts.isBusy(error) || parts.busyTimeoutMs === 0) throw parts.lockError(error, what);
  }
  await waitForLock(start, parts.isBusy, parts.busyTimeoutMs, (error) => parts.lockError(error, what));
}
