// What a ledger that runs effects in its own transaction (TransactionalLedger) promises, run by the
// SQLite and the PostgreSQL ledger's test files on a real store of their own: the effect's writes (a
// table of the test's own, in the ledger's database) and its outcome commit together or not at all,
// and a duplicate, from this ledger or another one on the same store, never runs it again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EffectOutcome, EffectRecord, LedgerTransaction, TransactionalLedger } from '../src/index.ts';
import { deferred } from './support.ts';

/** One test's store: the ledger's database, with a `refunds (id text primary key)` table of the test's own. */
export interface TransactionFixture {
  /** Another ledger on the same store: another process's view of it. */
  open(): Promise<TransactionalLedger>;
  /** Inserts a refund row through the effect's transaction. */
  writeRefund(tx: LedgerTransaction, id: string): Promise<void>;
  /** The refund rows committed, read on a connection of the test's own. */
  refunds(): Promise<string[]>;
  /** Cuts the transaction off as a crash would (closes the ledger's connection, or ends its server session). */
  kill(ledger: TransactionalLedger, tx: LedgerTransaction): Promise<void>;
  /** Closes every ledger opened and removes the store. */
  close(): Promise<void>;
}

const key = { run: 'run_1', effect: 'refund' };
/** Record times near now: a ledger prunes done records older than a week when it opens. */
const T = Date.now();
const ok = (value: EffectOutcome & { ok: true }) => value;

export function describeTransactionContract(name: string, freshStore: () => Promise<TransactionFixture>): void {
  describe(`${name} runs an effect, its claim and its outcome in one transaction`, () => {
    let store: TransactionFixture;
    beforeEach(async () => {
      store = await freshStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it("commits the effect's writes with its outcome; another ledger on the store gets the outcome and runs nothing", async () => {
      const ledger = await store.open();
      let runs = 0;
      const result = await ledger.runOnceInTransaction(
        key,
        () => T + 1000,
        async (tx) => {
          runs++;
          await store.writeRefund(tx, 'ref_1');
          return ok({ ok: true, value: { refundId: 'ref_1' } });
        },
      );
      expect(result).toBe('ran');
      expect(await store.refunds()).toEqual(['ref_1']);
      const done: EffectRecord = {
        state: 'done',
        startedAt: T + 1000,
        finishedAt: T + 1000,
        outcome: { ok: true, value: { refundId: 'ref_1' } },
      };
      const other = await store.open();
      expect(await other.read(key)).toEqual(done);
      expect(
        await other.runOnceInTransaction(
          key,
          () => T + 2000,
          async () => ok({ ok: true, value: 'again' }),
        ),
      ).toEqual(done);
      expect(runs).toBe(1);
      expect(await store.refunds()).toEqual(['ref_1']);
    });

    it('runs one of 20 concurrent duplicates, spread over 4 ledgers; the other 19 get its outcome', async () => {
      const ledgers = await Promise.all([1, 2, 3, 4].map(() => store.open()));
      const started = deferred();
      const hold = deferred();
      let runs = 0;
      const calls = Array.from({ length: 20 }, (_, i) =>
        ledgers[i % 4]!.runOnceInTransaction(
          key,
          () => T + 5000,
          async (tx) => {
            runs++;
            started.resolve();
            await hold.promise;
            await store.writeRefund(tx, `ref_${i}`);
            return ok({ ok: true, value: `ref_${i}` });
          },
        ),
      );
      await started.promise;
      hold.resolve();
      const results = await Promise.all(calls);
      expect(runs).toBe(1);
      expect(results.filter((r) => r === 'ran')).toHaveLength(1);
      const refunds = await store.refunds();
      expect(refunds).toHaveLength(1);
      const done = results.filter((r): r is EffectRecord => r !== 'ran');
      expect(done).toHaveLength(19);
      for (const record of done) expect(record).toMatchObject({ state: 'done', outcome: { ok: true, value: refunds[0] } });
    });

    it("rolls back a failed effect's writes, records its error, and replays it", async () => {
      const ledger = await store.open();
      const declined = await ledger.runOnceInTransaction(
        key,
        () => T + 1000,
        async (tx) => {
          await store.writeRefund(tx, 'ref_declined');
          return { ok: false, error: 'card declined' };
        },
      );
      expect(declined).toBe('ran');
      const threw = await ledger.runOnceInTransaction(
        { run: 'run_2', effect: 'refund' },
        () => T + 1000,
        async (tx) => {
          await store.writeRefund(tx, 'ref_threw');
          throw new Error('gateway down');
        },
      );
      expect(threw).toBe('ran');
      expect(await store.refunds()).toEqual([]);
      const other = await store.open();
      expect(
        await other.runOnceInTransaction(
          key,
          () => T + 2000,
          async () => ok({ ok: true, value: 'again' }),
        ),
      ).toMatchObject({
        state: 'done',
        outcome: { ok: false, error: 'card declined' },
      });
      expect(await other.read({ run: 'run_2', effect: 'refund' })).toMatchObject({
        state: 'done',
        outcome: { ok: false, error: 'gateway down' },
      });
    });

    it('leaves nothing of an effect whose transaction was cut off, not even a claim: a retry runs it', async () => {
      const ledger = await store.open();
      const started = deferred<LedgerTransaction>();
      const hold = deferred();
      const first = ledger.runOnceInTransaction(
        key,
        () => T + 1000,
        async (tx) => {
          await store.writeRefund(tx, 'ref_lost');
          started.resolve(tx);
          await hold.promise;
          return ok({ ok: true, value: 'ref_lost' });
        },
      );
      const failure = expect(first).rejects.toThrow(/the effect ran, but its writes, its claim and its outcome were all rolled back/i);
      await store.kill(ledger, await started.promise);
      hold.resolve();
      await failure;

      const retry = await store.open();
      expect(await retry.read(key)).toBeUndefined();
      expect(await store.refunds()).toEqual([]);
      const result = await retry.runOnceInTransaction(
        key,
        () => T + 2000,
        async (tx) => {
          await store.writeRefund(tx, 'ref_retry');
          return ok({ ok: true, value: 'ref_retry' });
        },
      );
      expect(result).toBe('ran');
      expect(await store.refunds()).toEqual(['ref_retry']);
      expect(await retry.read(key)).toMatchObject({ state: 'done', outcome: { ok: true, value: 'ref_retry' } });
    });

    it('rolls everything back when the outcome cannot be written, and says the effect ran but nothing was kept', async () => {
      const ledger = await store.open();
      const failure = ledger.runOnceInTransaction(
        key,
        () => T + 1000,
        async (tx) => {
          await store.writeRefund(tx, 'ref_1');
          // a value JSON cannot hold: the outcome's write fails inside the transaction
          return { ok: true, value: 1n as never };
        },
      );
      await expect(failure).rejects.toThrow(/nothing of it was kept/);
      expect(await ledger.read(key)).toBeUndefined();
      expect(await store.refunds()).toEqual([]);
    });
  });
}
