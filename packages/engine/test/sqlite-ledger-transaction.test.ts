// The SQLite ledger running an effect in its own transaction, on a real file: the transaction contract,
// the connection's queue (nothing else of this process lands inside an open transaction), the function
// that hands the effect its connection, and a real round of the engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLedger, type LedgerTransaction } from '../src/index.ts';
import { createSqliteLedger, type SqliteLedger, sqliteTransaction } from '../src/sqlite/index.ts';
import { describeTransactionContract, type TransactionFixture } from './ledger-transaction-contract.ts';
import {
  checkThroughRounds,
  makeTransactionalRefundTool,
  type TransactionalRefunds,
  transactionalRound,
} from './ledger-transaction-refund.ts';
import { complete, deferred, problemsOf } from './support.ts';

/** A fresh file with the test's own `refunds` table, and ledgers opened on it. */
function sqliteStore(): TransactionFixture & { path: string; ledger: () => SqliteLedger } {
  const folder = mkdtempSync(join(tmpdir(), 'roundtrip-tx-'));
  const path = join(folder, 'shop.db');
  const own = new Database(path);
  own.pragma('journal_mode = WAL');
  own.exec('CREATE TABLE refunds (id TEXT PRIMARY KEY)');
  const ledgers: SqliteLedger[] = [];
  const ledger = () => {
    const opened = createSqliteLedger({ path });
    ledgers.push(opened);
    return opened;
  };
  return {
    path,
    ledger,
    open: async () => ledger(),
    writeRefund: async (tx, id) => {
      sqliteTransaction(tx).prepare('INSERT INTO refunds (id) VALUES (?)').run(id);
    },
    refunds: async () =>
      own
        .prepare<[], { id: string }>('SELECT id FROM refunds ORDER BY id')
        .all()
        .map((row) => row.id),
    kill: async (opened) => (opened as SqliteLedger).close(),
    close: async () => {
      for (const opened of ledgers) opened.close();
      own.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

describeTransactionContract('the SQLite ledger', async () => sqliteStore());

describe('the SQLite ledger while an effect runs in its transaction', () => {
  let store: ReturnType<typeof sqliteStore>;
  beforeEach(() => {
    store = sqliteStore();
  });
  afterEach(async () => {
    await store.close();
  });
  const key = { run: 'run_1', effect: 'refund' };
  // record times near now: a ledger prunes done records older than a week when it opens
  const T = Date.now();
  const other = { run: 'run_2', effect: 'refund' };

  it("queues this ledger's other calls until the transaction ends: a claim made meanwhile survives its rollback", async () => {
    const ledger = store.ledger();
    const started = deferred();
    const hold = deferred();
    const first = ledger.runOnceInTransaction(
      key,
      () => T + 1000,
      async (tx) => {
        await store.writeRefund(tx, 'ref_1');
        started.resolve();
        await hold.promise;
        // the outcome's write fails (not JSON), so the whole transaction is rolled back
        return { ok: true, value: 1n as never };
      },
    );
    await started.promise;
    const claim = ledger.claim(other, T + 1500);
    const read = ledger.read(key);
    const second = ledger.runOnceInTransaction(
      { run: 'run_3', effect: 'refund' },
      () => T + 1600,
      async (tx) => {
        await store.writeRefund(tx, 'ref_3');
        return { ok: true, value: 'ref_3' };
      },
    );
    // they wait for their turn (Promises), rather than answer from inside the open transaction
    expect(claim).toBeInstanceOf(Promise);
    expect(read).toBeInstanceOf(Promise);
    hold.resolve();
    await expect(first).rejects.toThrow(/nothing of it was kept/);
    expect(await claim).toBe('claimed');
    expect(await read).toBeUndefined();
    expect(await second).toBe('ran');
    expect(await ledger.read(other)).toEqual({ state: 'running', startedAt: T + 1500, alive: true });
    expect(await ledger.read(key)).toBeUndefined();
    expect(await store.refunds()).toEqual(['ref_3']);
  });

  it("lets another connection's writes wait for the file's lock, and then go on", async () => {
    const ledger = store.ledger();
    const otherLedger = store.ledger();
    const started = deferred();
    const hold = deferred();
    const first = ledger.runOnceInTransaction(
      key,
      () => T + 1000,
      async (tx) => {
        await store.writeRefund(tx, 'ref_1');
        started.resolve();
        await hold.promise;
        return { ok: true, value: 'ref_1' };
      },
    );
    await started.promise;
    const claim = otherLedger.claim(other, T + 1500);
    expect(claim).toBeInstanceOf(Promise);
    hold.resolve();
    expect(await first).toBe('ran');
    expect(await claim).toBe('claimed');
  });

  it('gives the effect its connection only while it runs, and says what is wrong otherwise', async () => {
    const ledger = store.ledger();
    let kept: LedgerTransaction | undefined;
    await ledger.runOnceInTransaction(
      key,
      () => T + 1000,
      async (tx) => {
        kept = tx;
        expect(sqliteTransaction(tx).inTransaction).toBe(true);
        return { ok: true, value: null };
      },
    );
    expect(() => sqliteTransaction(kept)).toThrow(
      "sqliteTransaction got a transaction of the SQLite ledger that has ended (its effect finished, or its round's transaction was rolled back)",
    );
    expect(() => sqliteTransaction(undefined)).toThrow(/sqliteTransaction got no transaction: .*inLedgerTransaction: true/);
    expect(() => sqliteTransaction({ database: 'postgres' })).toThrow(
      "sqliteTransaction got a transaction of the PostgreSQL ledger, not of the SQLite one: use postgresTransaction from '@roundtrip/engine/postgres'.",
    );
  });
});

describe('an effect declared inLedgerTransaction, through the engine', () => {
  let store: ReturnType<typeof sqliteStore>;
  beforeEach(() => {
    store = sqliteStore();
  });
  afterEach(async () => {
    await store.close();
  });
  const refunds = (): TransactionalRefunds => ({ runs: 0, seen: [], write: (tx, id) => store.writeRefund(tx!, id) });

  it('commits its row with its outcome; another server on the file replays it; a failure leaves no row', async () => {
    await checkThroughRounds(refunds(), store.ledger(), store.ledger(), () => store.refunds());
  });

  it('keeps nothing of an effect whose connection was lost before the commit, says so, and a retry runs it once', async () => {
    const ledger = store.ledger();
    const crash: TransactionalRefunds = {
      runs: 0,
      seen: [],
      write: async (tx, id) => {
        await store.writeRefund(tx!, id);
        // the server loses its ledger connection while the effect runs
        if (crash.runs === 1) ledger.close();
      },
    };
    const test = await transactionalRound(crash, ledger);
    const lost = complete(await test.confirm());
    expect(lost.result.structuredContent).toMatchObject({ refundId: null, error: expect.stringMatching(/nothing of it was kept/) });
    expect(test.logs.find((e) => e.event === 'effect_transaction_failed')).toMatchObject({ code: 'not_committed', effect: 'refund' });
    expect(await store.refunds()).toEqual([]);

    const retried = complete(await test.confirmOn(store.ledger()));
    expect(retried.result.structuredContent).toEqual({ refundId: 're_ord_1_2', error: null });
    expect(await store.refunds()).toEqual(['re_ord_1_2']);
    expect(crash.runs).toBe(2);
  });

  it('refuses inLedgerTransaction on an effect not declared once', () => {
    expect(problemsOf(() => makeTransactionalRefundTool({ runs: 0, seen: [], write: async () => undefined }, false))).toEqual([
      expect.objectContaining({
        code: 'invalid_option',
        path: ["Tool 'refund_order'", 'effects', "'issueRefund'", 'inLedgerTransaction'],
      }),
    ]);
  });

  it('runs once, with no transaction, on a ledger that offers none, and says so', async () => {
    const plain: TransactionalRefunds = { runs: 0, seen: [], write: async () => undefined };
    const test = await transactionalRound(plain, createMemoryLedger());
    const done = complete(await test.confirm());
    expect(done.result.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
    expect(plain.seen).toEqual([undefined]);
    expect(test.logs.find((e) => e.event === 'effect_transaction_unavailable')).toMatchObject({ code: 'ledger_cannot', effect: 'refund' });
    expect(test.logs.find((e) => e.event === 'effect_recorded')).toMatchObject({ code: 'recorded' });
  });
});
