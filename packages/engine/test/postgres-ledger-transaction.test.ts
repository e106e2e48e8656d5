// The PostgreSQL ledger running an effect in its own transaction, on a real server (ROUNDTRIP_TEST_PG,
// see postgres-test-database.ts): the transaction contract on a schema of its own per test, the function
// that hands the effect its connection, and a real round of the engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerTransaction } from '../src/index.ts';
import { createPostgresLedger, type PostgresLedger, type PostgresLedgerOptions, postgresTransaction } from '../src/postgres/index.ts';
import { describeTransactionContract, type TransactionFixture } from './ledger-transaction-contract.ts';
import { checkThroughRounds, type TransactionalRefunds } from './ledger-transaction-refund.ts';
import { createTestDatabase, skipPostgres, type TestDatabase } from './postgres-test-database.ts';
import { deferred } from './support.ts';

let database: TestDatabase;
beforeAll(async () => {
  if (!skipPostgres) database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** A fresh schema with the test's own `refunds` table, and ledgers opened on it. */
async function postgresStore(): Promise<
  TransactionFixture & { ledger: (options?: Partial<PostgresLedgerOptions>) => Promise<PostgresLedger> }
> {
  const { url, schema } = await database.freshSchema();
  await database.sql.query(`CREATE TABLE ${schema}.refunds (id text PRIMARY KEY)`);
  const ledgers: PostgresLedger[] = [];
  const ledger = async (options: Partial<PostgresLedgerOptions> = {}) => {
    const opened = await createPostgresLedger({ url, ...options });
    ledgers.push(opened);
    return opened;
  };
  return {
    ledger,
    open: () => ledger(),
    writeRefund: async (tx, id) => {
      await postgresTransaction(tx).query('INSERT INTO refunds (id) VALUES ($1)', [id]);
    },
    refunds: async () =>
      (await database.sql.query<{ id: string }>(`SELECT id FROM ${schema}.refunds ORDER BY id`)).rows.map((row) => row.id),
    // the server ends the transaction's session, as when its server process dies
    kill: async (_ledger, tx) => {
      const { rows } = await postgresTransaction(tx).query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await database.sql.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    },
    close: async () => {
      await Promise.all(ledgers.map((opened) => opened.close()));
    },
  };
}

describe.skipIf(skipPostgres)('on PostgreSQL', () => {
  describeTransactionContract('the PostgreSQL ledger', postgresStore);

  it('gives the effect its connection only while it runs, and says what is wrong otherwise', async () => {
    const store = await postgresStore();
    try {
      const ledger = await store.ledger();
      let kept: LedgerTransaction | undefined;
      let client: ReturnType<typeof postgresTransaction> | undefined;
      await ledger.runOnceInTransaction({ run: 'run_1', effect: 'refund' }, Date.now, async (tx) => {
        kept = tx;
        client = postgresTransaction(tx);
        const { rows } = await client.query<{ open: boolean }>('SELECT now() = statement_timestamp() AS open');
        // inside a transaction, now() is the transaction's start, not this statement's
        expect(rows[0]!.open).toBe(false);
        return { ok: true, value: null };
      });
      expect(() => postgresTransaction(kept)).toThrow(
        "postgresTransaction got a transaction of the PostgreSQL ledger that has ended (its effect finished, or its round's transaction was rolled back)",
      );
      expect(() => client!.query('SELECT 1')).toThrow(/has ended/);
      expect(() => postgresTransaction(undefined)).toThrow(/postgresTransaction got no transaction/);
      expect(() => postgresTransaction({ database: 'sqlite' })).toThrow(
        "postgresTransaction got a transaction of the SQLite ledger, not of the PostgreSQL one: use sqliteTransaction from '@roundtrip/engine/sqlite'.",
      );
    } finally {
      await store.close();
    }
  });

  it('lets a duplicate wait for the running transaction at most lockTimeoutMs, then says so; nothing of it is started', async () => {
    const store = await postgresStore();
    try {
      const key = { run: 'run_1', effect: 'refund' };
      const first = await store.ledger();
      const started = deferred();
      const hold = deferred();
      const running = first.runOnceInTransaction(key, Date.now, async (tx) => {
        await store.writeRefund(tx, 'ref_1');
        started.resolve();
        await hold.promise;
        return { ok: true, value: 'ref_1' };
      });
      await started.promise;
      let ran = false;
      const duplicate = (await store.ledger({ lockTimeoutMs: 50 })).runOnceInTransaction(key, Date.now, async () => {
        ran = true;
        return { ok: true, value: 'again' };
      });
      await expect(duplicate).rejects.toThrow(
        /could not run run "run_1", effect "refund" in its transaction \(the effect was not started\) \(55P03: .*lockTimeoutMs \(50 ms\)/,
      );
      hold.resolve();
      expect(await running).toBe('ran');
      expect(ran).toBe(false);
      expect(await store.refunds()).toEqual(['ref_1']);
    } finally {
      await store.close();
    }
  });

  it('through the engine: commits the row with the outcome; another server replays it; a failure leaves no row', async () => {
    const store = await postgresStore();
    try {
      const refunds: TransactionalRefunds = { runs: 0, seen: [], write: (tx, id) => store.writeRefund(tx!, id) };
      await checkThroughRounds(refunds, await store.ledger(), await store.ledger(), () => store.refunds());
    } finally {
      await store.close();
    }
  });
});
