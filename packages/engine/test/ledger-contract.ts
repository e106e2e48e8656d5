// The one contract every effect ledger keeps (memory, SQLite, PostgreSQL): the same tests, run by each
// ledger's test file on a store of its own. First the ledger's calls, then what the engine builds on them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EffectLedger, EffectRecord } from '../src/index.ts';
import { args, confirmingRound, makeRefundTool, type RefundOutput, type Refunds, yes } from './ledger-contract-refund.ts';
import { accept, complete, deferred, inputRequired, makeEngine } from './support.ts';

/** One test's store. */
export interface LedgerFixture {
  /** A handle on the store: a new connection each call, where the ledger has connections; else the same ledger. */
  open(): Promise<EffectLedger>;
  /** Closes every handle opened and removes the store. */
  close(): Promise<void>;
}

/** What sets a ledger apart from the others, so that the contract holds it to what it promises. */
export interface LedgerTraits {
  /**
   * The store knows by its own means (a lease, a process check) that a claim's owner still holds it,
   * and says so with `alive` on its running records; else the engine's clock decides when one is orphaned.
   */
  knowsLiveness: boolean;
}

const key = { run: 'run_1', effect: 'refund' };

export function describeLedgerContract(name: string, freshStore: () => Promise<LedgerFixture>, traits: LedgerTraits): void {
  describe(`${name} keeps the ledger contract`, () => {
    let store: LedgerFixture;
    /** A running record as this store reads it while its owner holds the claim. */
    const running = (startedAt: number): EffectRecord =>
      traits.knowsLiveness ? { state: 'running', startedAt, alive: true } : { state: 'running', startedAt };
    beforeEach(async () => {
      store = await freshStore();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('claim, complete and read', () => {
      it('claims a key once, then returns its record: running, then done', async () => {
        const ledger = await store.open();
        expect(await ledger.read(key)).toBeUndefined();
        expect(await ledger.claim(key, 1000)).toBe('claimed');
        expect(await ledger.claim(key, 2000)).toEqual(running(1000));
        expect(await ledger.claim({ run: 'run_2', effect: 'refund' }, 2000)).toBe('claimed');
        expect(await ledger.claim({ run: 'run_1', effect: 'notify' }, 2000)).toBe('claimed');

        await ledger.complete(key, { ok: true, value: 'refunded' }, 3000);
        const done: EffectRecord = { state: 'done', startedAt: 1000, finishedAt: 3000, outcome: { ok: true, value: 'refunded' } };
        expect(await ledger.claim(key, 4000)).toEqual(done);
        expect(await ledger.read(key)).toEqual(done);
        expect(await ledger.read({ run: 'run_2', effect: 'refund' })).toEqual(running(2000));
      });

      it('gives back an output as it was recorded (same JSON, same key order), and records an error outcome', async () => {
        const ledger = await store.open();
        const value = { id: 'ref_9', amount: 49.5, items: [1, 'two', null, true, { nested: ['é', '🧾', '\u0000'] }], none: null, a: 0 };
        await ledger.claim(key, 10);
        await ledger.complete(key, { ok: true, value }, 20);
        const read = await ledger.read(key);
        expect(read).toEqual({ state: 'done', startedAt: 10, finishedAt: 20, outcome: { ok: true, value } });
        expect(read?.state === 'done' && read.outcome.ok && JSON.stringify(read.outcome.value)).toBe(JSON.stringify(value));

        const failed = { run: 'run_1', effect: 'charge' };
        await ledger.claim(failed, 30);
        await ledger.complete(failed, { ok: false, error: 'card declined: “insufficient funds” 💳' }, 40);
        expect(await ledger.read(failed)).toEqual({
          state: 'done',
          startedAt: 30,
          finishedAt: 40,
          outcome: { ok: false, error: 'card declined: “insufficient funds” 💳' },
        });
      });

      it('keeps the first outcome of a key, and records a completion that had no claim', async () => {
        const ledger = await store.open();
        await ledger.claim(key, 1);
        await ledger.complete(key, { ok: true, value: 1 }, 2);
        await ledger.complete(key, { ok: false, error: 'late' }, 3);
        expect(await ledger.read(key)).toEqual({ state: 'done', startedAt: 1, finishedAt: 2, outcome: { ok: true, value: 1 } });

        const unclaimed = { run: 'run_9', effect: 'refund' };
        await ledger.complete(unclaimed, { ok: true, value: null }, 5);
        expect(await ledger.read(unclaimed)).toEqual({ state: 'done', startedAt: 5, finishedAt: 5, outcome: { ok: true, value: null } });
      });

      it('shares records between two handles on the same store', async () => {
        const [a, b] = [await store.open(), await store.open()];
        expect(await a.claim(key, 100)).toBe('claimed');
        expect(await b.claim(key, 101)).toEqual(running(100));
        await a.complete(key, { ok: true, value: { refunded: true } }, 150);
        const done = { state: 'done', startedAt: 100, finishedAt: 150, outcome: { ok: true, value: { refunded: true } } };
        expect(await b.read(key)).toEqual(done);
        expect(await b.claim(key, 200)).toEqual(done);
      });

      it('lets exactly one of 20 concurrent claims of a key win, across two handles', async () => {
        const [a, b] = [await store.open(), await store.open()];
        const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claim(key, 1000 + i)));
        expect(claims.filter((claim) => claim === 'claimed')).toHaveLength(1);
        for (const claim of claims.filter((c) => c !== 'claimed')) expect(claim).toMatchObject({ state: 'running' });
      });
    });

    describe('effects declared once, through the engine', () => {
      it('replays the recorded outcome when the same confirming round arrives again, without running the effect again', async () => {
        const refunds: Refunds = { runs: 0 };
        const { confirm, logs } = await confirmingRound(refunds, await store.open());
        const first = complete(await confirm());
        expect(first.result.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
        expect(complete(await confirm())).toEqual(first);
        expect(complete(await confirm())).toEqual(first);
        expect(refunds.runs).toBe(1);
        expect(logs.filter((e) => e.event === 'effect_recorded')).toEqual([
          expect.objectContaining({ level: 'info', target: 'tool refund_order', code: 'recorded', effect: 'refund', ok: true }),
        ]);
      });

      it('runs the effect once for five concurrent duplicates of the confirming round, and gives each the same result', async () => {
        const hold = deferred();
        const refunds: Refunds = { runs: 0, hold: hold.promise };
        const { confirm, logged } = await confirmingRound(refunds, await store.open());
        const rounds = Promise.all([confirm(), confirm(), confirm(), confirm(), confirm()]);
        // the first holds the effect open until the four others have found it running
        await logged('effect_duplicate', 4);
        hold.resolve();
        const results = (await rounds).map((outcome) => complete(outcome).result);
        expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
        expect(results[0]!.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
        expect(refunds.runs).toBe(1);
      });

      it('serves a replay from another engine on another handle of the store with the recorded outcome', async () => {
        const refunds: Refunds = { runs: 0 };
        const a = await confirmingRound(refunds, await store.open());
        const ledgerB = await store.open();
        const b = makeEngine([makeRefundTool(refunds)], { ledger: ledgerB });
        const served = complete(await a.confirm());
        const replayed = complete(
          await b.call({ name: 'refund_order', arguments: args, requestState: a.first.requestState, inputResponses: yes }),
        );
        expect(replayed).toEqual(served);
        expect(refunds.runs).toBe(1);
        expect(b.logs.some((e) => e.event === 'effect_recorded')).toBe(false);
        const run = a.logs.find((e) => e.event === 'effect_recorded')!.run!;
        expect(await ledgerB.read({ run, effect: 'refund' })).toMatchObject({
          state: 'done',
          outcome: { ok: true, value: { refundId: 're_ord_1_1' } },
        });
      });

      it('records a failing effect’s error and replays it, without running the effect again', async () => {
        const refunds: Refunds = { runs: 0, fail: true };
        const { confirm, logs } = await confirmingRound(refunds, await store.open());
        const first = complete(await confirm());
        expect(first.result.structuredContent).toEqual({ refundId: null, error: 'Error: card declined (attempt 1)' });
        expect(complete(await confirm())).toEqual(first);
        expect(refunds.runs).toBe(1);
        expect(logs).toContainEqual(expect.objectContaining({ event: 'effect_recorded', code: 'recorded', effect: 'refund', ok: false }));
      });

      it('treats a new call (no requestState) as a new run, which runs the effect again', async () => {
        const refunds: Refunds = { runs: 0 };
        const { call, confirm } = await confirmingRound(refunds, await store.open());
        expect(complete(await confirm()).result.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
        const fresh = inputRequired(await call({ name: 'refund_order', arguments: args }));
        const second = complete(
          await call({ name: 'refund_order', arguments: args, requestState: fresh.requestState, inputResponses: yes }),
        );
        expect(second.result.structuredContent).toEqual({ refundId: 're_ord_1_2', error: null });
        expect(refunds.runs).toBe(2);
      });

      it('lets an effect whose round was aborted while it ran settle, records its real outcome, and replays it to a retry', async () => {
        const hold = deferred();
        const started = deferred();
        const refunds: Refunds = { runs: 0, hold: hold.promise, started: started.resolve };
        const ledger = await store.open();
        const { call, first, logged, logs } = await confirmingRound(refunds, ledger);
        const abort = new AbortController();
        const round = call({
          name: 'refund_order',
          arguments: args,
          requestState: first.requestState,
          inputResponses: yes,
          signal: abort.signal,
        });
        await started.promise;
        // the client cancels (or the connection drops, or the round times out) while the refund runs
        abort.abort();
        const aborted = await round;
        expect(aborted).toMatchObject({ type: 'complete', result: { isError: true } });
        expect(JSON.stringify(aborted)).toMatch(/cancelled before it finished/);
        // the refund goes through after all: what is recorded is what it did
        hold.resolve();
        await logged('effect_recorded');
        const run = logs.find((e) => e.event === 'effect_recorded')!.run!;
        expect(await ledger.read({ run, effect: 'refund' })).toMatchObject({
          state: 'done',
          outcome: { ok: true, value: { refundId: 're_ord_1_1' } },
        });
        const retried = complete(
          await call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes }),
        );
        expect(retried.result.structuredContent).toEqual({ refundId: 're_ord_1_1', error: null });
        expect(refunds.runs).toBe(1);
      });

      it.runIf(traits.knowsLiveness)(
        'waits for an effect whose owner the store knows is alive, however long ago it started by this machine’s clock',
        async () => {
          const refunds: Refunds = { runs: 0 };
          const ledger = await store.open();
          const clock = Date.UTC(2026, 11, 2, 12);
          const { call, first, logs, logged } = await confirmingRound(refunds, ledger, () => clock);
          const second = inputRequired(
            await call({
              name: 'refund_order',
              arguments: args,
              requestState: first.requestState,
              inputResponses: { confirm: accept({}) },
            }),
          );
          const run = logs.find((e) => e.event === 'answer_invalid')!.run!;
          // another server claimed it; by this machine's clock (running ahead) that was an hour ago, but its claim holds
          const owner = await store.open();
          expect(await owner.claim({ run, effect: 'refund' }, clock - 60 * 60_000)).toBe('claimed');
          const round = call({ name: 'refund_order', arguments: args, requestState: second.requestState, inputResponses: yes });
          await logged('effect_waiting');
          await owner.complete({ run, effect: 'refund' }, { ok: true, value: { refundId: 're_elsewhere' } }, clock);
          const outcome = complete(await round);
          expect(outcome.result.structuredContent).toEqual({ refundId: 're_elsewhere', error: null });
          expect(refunds.runs).toBe(0);
          expect(logs.some((e) => e.event === 'effect_outcome_unknown')).toBe(false);
        },
      );

      it.runIf(!traits.knowsLiveness)(
        'does not run an effect whose earlier start never recorded an outcome, and tells the machine the outcome is unknown',
        async () => {
          const refunds: Refunds = { runs: 0 };
          const ledger = await store.open();
          const clock = Date.UTC(2026, 11, 2, 12);
          const { call, first, logs } = await confirmingRound(refunds, ledger, () => clock);
          // a round with an invalid answer logs the run id, as every later round of this call will
          const second = inputRequired(
            await call({
              name: 'refund_order',
              arguments: args,
              requestState: first.requestState,
              inputResponses: { confirm: accept({}) },
            }),
          );
          const run = logs.find((e) => e.event === 'answer_invalid')!.run!;
          // a claim made a minute ago that never recorded an outcome
          expect(await ledger.claim({ run, effect: 'refund' }, clock - 60_000)).toBe('claimed');
          const outcome = complete(
            await call({ name: 'refund_order', arguments: args, requestState: second.requestState, inputResponses: yes }),
          );
          expect(refunds.runs).toBe(0);
          expect((outcome.result.structuredContent as RefundOutput).error).toMatch(
            /^EffectOutcomeUnknownError: Effect 'refund' of this conversation started at 2026-12-02T11:59:00\.000Z and never recorded an outcome/,
          );
        },
      );
    });
  });
}
