// One effect, its claim and its outcome in one transaction on a connection of the PostgreSQL ledger's
// pool (the ledger's TransactionalLedger capability), and the function that gives the effect that connection.
import type { ClientBase, Pool, PoolClient } from 'pg';
import type { EffectKey, EffectOutcome, EffectRecord } from '../effect-ledger.ts';
import { type LedgerTransaction, transactionMisuse } from '../ledger-transaction.ts';
import { decodeRecord, type EffectRow, encodeError, encodeValue, SELECT_RECORD } from './ledger-rows.ts';

/** The connection of the ledger's transaction, as an effect gets it: queries only (the ledger begins, commits and releases it). */
export type PostgresTransactionClient = Pick<ClientBase, 'query'>;

// the connections of the transactions open now, by their handle; a handle leaves when its effect ends
const open = new WeakMap<LedgerTransaction, PostgresTransactionClient>();

/**
 * The PostgreSQL connection of the ledger's transaction an effect runs in (see `ledgerTransactionOf`
 * and `inLedgerTransaction` of `@roundtrip/engine`): run the effect's statements with its `query`, and
 * they commit with its claim and outcome, or not at all. Use it only while the effect runs, and do not
 * `COMMIT` or `ROLLBACK` on it (a `SAVEPOINT` of the effect's own is fine). A statement that fails aborts
 * the transaction: let its error propagate (the effect then fails, and its writes are rolled back).
 *
 * @throws Error saying what is wrong when `tx` is undefined (the effect runs in no transaction), a
 * SQLite ledger's transaction, or one that has ended.
 */
export function postgresTransaction(tx: LedgerTransaction | undefined): PostgresTransactionClient {
  const client = tx === undefined ? undefined : open.get(tx);
  if (!client) throw new Error(transactionMisuse('postgresTransaction', 'postgres', tx));
  return client;
}

/** What the ledger lends its transactions: its pool, its owner token, its words for errors. */
export interface PostgresTransactionParts {
  readonly pool: Pool;
  /** The server as the URL names it, without its password. */
  readonly shown: string;
  readonly owner: string;
  readonly assertOpen: () => void;
  /** ` (code: message). What to do.` for an error of the driver or the server. */
  readonly explain: (error: unknown) => string;
  /** Called after an outcome was committed (prunes old records when due). */
  readonly afterComplete: () => void;
}

const SAVEPOINT = 'roundtrip_effect';

const INSERT_CLAIM = `
  INSERT INTO roundtrip_effects (run, effect, state, started_at, owner) VALUES ($1, $2, 'running', $3, $4)
  ON CONFLICT (run, effect) DO NOTHING`;
const WRITE_OUTCOME = `
  UPDATE roundtrip_effects SET state = 'done', finished_at = $3, ok = $4, value = $5, error = $6, lease_until = NULL
   WHERE run = $1 AND effect = $2`;

/** The ledger's runOnceInTransaction, on a connection of its pool (see TransactionalLedger). */
export async function runInPostgresTransaction(
  parts: PostgresTransactionParts,
  key: EffectKey,
  now: () => number,
  act: (tx: LedgerTransaction) => Promise<EffectOutcome>,
): Promise<'ran' | EffectRecord> {
  const { shown } = parts;
  const described = `run "${key.run}", effect "${key.effect}"`;
  parts.assertOpen();
  let client: PoolClient;
  try {
    client = await parts.pool.connect();
  } catch (error) {
    throw new Error(
      `The effect ledger at ${shown} could not run ${described} in its transaction (the effect was not started) ${parts.explain(error)}`,
      {
        cause: error,
      },
    );
  }
  // a connection lost while the effect runs is said here (a checked-out client has no other listener)
  let lost: unknown;
  const onError = (error: unknown) => {
    lost ??= error;
  };
  client.on('error', onError);
  let phase: 'claim' | 'effect' | 'commit' = 'claim';
  let failed: unknown;
  try {
    await client.query('BEGIN');
    // a concurrent claim of the same key waits here for the other transaction (at most lockTimeoutMs), then sees its row
    const inserted = await client.query(INSERT_CLAIM, [key.run, key.effect, Math.floor(now()), parts.owner]);
    if (inserted.rowCount !== 1) {
      const { rows } = await client.query<EffectRow>(SELECT_RECORD, [key.run, key.effect]);
      await client.query('ROLLBACK');
      if (rows[0]) return decodeRecord(rows[0], shown, key);
      throw new Error(`its row disappeared between the insert and the read. Check that nothing else deletes rows from roundtrip_effects.`);
    }
    await client.query(`SAVEPOINT ${SAVEPOINT}`);
    phase = 'effect';
    const outcome = await actWith(client, act);
    // an effect that failed leaves nothing of its own behind: its failure is what is recorded
    if (!outcome.ok) await client.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
    await client.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
    const value = outcome.ok ? encodeValue(outcome.value, shown, key) : null;
    await client.query(WRITE_OUTCOME, [
      key.run,
      key.effect,
      Math.floor(now()),
      outcome.ok,
      value,
      outcome.ok ? null : encodeError(outcome.error),
    ]);
    phase = 'commit';
    await client.query('COMMIT');
    parts.afterComplete();
    return 'ran';
  } catch (error) {
    failed = error;
    await client.query('ROLLBACK').catch(() => undefined);
    const cause = lost ?? error;
    const why = parts.explain(cause);
    const what =
      phase === 'claim'
        ? `could not run ${described} in its transaction (the effect was not started) ${why}`
        : phase === 'effect'
          ? `could not commit the transaction of ${described} ${why} The effect ran, but its writes, its claim and its outcome were all rolled back: nothing of it was kept, and a retry runs it again.`
          : `lost the commit of the transaction of ${described} ${why} If it committed, a retry gets its recorded outcome; if not, nothing of it was kept and a retry runs it.`;
    throw new Error(`The effect ledger at ${shown} ${what}`, { cause });
  } finally {
    client.off('error', onError);
    // a connection that failed is not given back to the pool: its session may be gone or in an unknown state
    client.release(failed === undefined ? undefined : true);
  }
}

/** Runs `act` with a handle to `client` that works only until it returns; a throw becomes a failed outcome. */
async function actWith(client: PoolClient, act: (tx: LedgerTransaction) => Promise<EffectOutcome>): Promise<EffectOutcome> {
  const tx: LedgerTransaction = Object.freeze({ database: 'postgres' });
  let live = true;
  const query = ((...args: unknown[]) => {
    if (!live) throw new Error(transactionMisuse('postgresTransaction', 'postgres', tx));
    return (client.query as (...a: unknown[]) => unknown)(...args);
  }) as ClientBase['query'];
  open.set(tx, { query });
  try {
    return await act(tx);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    live = false;
    open.delete(tx);
  }
}
