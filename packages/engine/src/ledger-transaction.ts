// Exactly once, when the effect writes to the ledger's own database: the claim, the effect's writes and
// its outcome in one transaction of the ledger. What the engine knows of such a transaction is an opaque
// handle; the SQLite and PostgreSQL subpaths turn it into their driver's connection (sqliteTransaction,
// postgresTransaction), so this file, and the root entry, stay free of Node modules and drivers.
import type { EffectKey, EffectLedger, EffectOutcome, EffectRecord } from './effect-ledger.ts';

/**
 * The ledger's open transaction, as an effect receives it: opaque here. Turn it into the database's
 * connection with `sqliteTransaction(tx)` from `@roundtrip/engine/sqlite` or `postgresTransaction(tx)`
 * from `@roundtrip/engine/postgres`, and only while the effect runs: it ends with the effect.
 */
export interface LedgerTransaction {
  /** Which ledger opened it (`'sqlite'`, `'postgres'`, or another ledger's own name). */
  readonly database: string;
}

/**
 * An optional capability of an {@link EffectLedger}: running one effect inside a transaction of the
 * ledger's own database, so that its claim, its writes and its outcome commit together (one durable
 * commit), and a crash before the commit leaves nothing, not even a claim: exactly once, where the
 * plain ledger gives at most once. `createSqliteLedger` and `createPostgresLedger` offer it.
 */
export interface TransactionalLedger extends EffectLedger {
  /**
   * Opens a transaction, claims `key` in it if absent, runs `act` with the transaction, writes the outcome
   * `act` returns, and commits. Resolves `'ran'` once committed. When the key is already recorded, nothing
   * runs: the transaction is rolled back and the record returned (done: its outcome; running: a claim made
   * outside a transaction, still to be waited for). An outcome that is not ok rolls back what `act` wrote
   * (a savepoint is taken before it) and is recorded in its place. If anything fails before the commit,
   * everything is rolled back and the promise rejects: neither the effect's writes nor its claim are kept.
   * `now` is read when the claim is made and again when the outcome is written.
   */
  runOnceInTransaction(
    key: EffectKey,
    now: () => number,
    act: (tx: LedgerTransaction) => Promise<EffectOutcome>,
  ): Promise<'ran' | EffectRecord>;
}

/** The ledger, if it can run effects in its own transaction. */
export function transactionalLedger(ledger: EffectLedger): TransactionalLedger | undefined {
  return typeof (ledger as Partial<TransactionalLedger>).runOnceInTransaction === 'function' ? (ledger as TransactionalLedger) : undefined;
}

// keyed by the actor system the engine creates for one run of an effect's logic (see once-effect.ts):
// the transaction never travels in the effect's input, so it cannot end up in a sealed state
const given = new WeakMap<object, LedgerTransaction>();

/** @internal Gives the effect logic run in `system` the ledger's transaction. */
export function giveLedgerTransaction(system: object, tx: LedgerTransaction): void {
  given.set(system, tx);
}

/**
 * The ledger's transaction the effect runs in, from the effect's own actor arguments (`system`), or
 * undefined when it runs in none: it is declared `once` with `inLedgerTransaction: true` and the engine's
 * ledger offers transactions (createSqliteLedger, createPostgresLedger), or it gets none.
 *
 * @example
 * import { ledgerTransactionOf } from '@roundtrip/engine';
 * import { sqliteTransaction } from '@roundtrip/engine/sqlite';
 *
 * const issueRefund = fromPromise(async ({ input, system }) => {
 *   const db = sqliteTransaction(ledgerTransactionOf({ system }));
 *   db.prepare('UPDATE orders SET refunded = 1 WHERE id = ?').run(input.orderId);
 *   return { refunded: true };
 * });
 */
export function ledgerTransactionOf(actor: { readonly system: object }): LedgerTransaction | undefined {
  return given.get(actor.system);
}

/**
 * What is wrong with `tx` given to `narrower` (e.g. `sqliteTransaction`), which takes the transactions of
 * `database` (e.g. `sqlite`), when it is not one of them that is still open; `ended` says it was one.
 * @internal For the subpaths' narrowing functions.
 */
export function transactionMisuse(narrower: string, database: string, tx: unknown): string {
  const name = (db: string) => (db === 'sqlite' ? 'SQLite' : db === 'postgres' ? 'PostgreSQL' : `'${db}'`);
  if (tx === undefined || tx === null)
    return (
      `${narrower} got no transaction: the effect runs in the ledger's transaction only when it is declared once with ` +
      `inLedgerTransaction: true and the engine's ledger offers transactions (createSqliteLedger, createPostgresLedger). ` +
      `Declare it so, or give the engine such a ledger; with another ledger, write through the store's own connection.`
    );
  const other = typeof tx === 'object' && 'database' in tx && typeof tx.database === 'string' ? tx.database : undefined;
  if (other === undefined)
    return `${narrower} got ${typeof tx === 'object' ? 'an object' : `a ${typeof tx}`} that is not a ledger transaction: pass what ledgerTransactionOf({ system }) returns.`;
  if (other !== database) {
    const fix =
      other === 'sqlite'
        ? "use sqliteTransaction from '@roundtrip/engine/sqlite'"
        : other === 'postgres'
          ? "use postgresTransaction from '@roundtrip/engine/postgres'"
          : "use that ledger's own function";
    return `${narrower} got a transaction of the ${name(other)} ledger, not of the ${name(database)} one: ${fix}.`;
  }
  return `${narrower} got a transaction of the ${name(database)} ledger that has ended (its effect finished, or its round's transaction was rolled back): use it only while the effect runs, and do not keep it.`;
}
