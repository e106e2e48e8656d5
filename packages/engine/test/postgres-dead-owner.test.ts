// The PostgreSQL ledger's owner lock: a claim whose server lost its connection (its process died, on any
// host) reads as abandoned at once, not when its 30 s lease passes, and a retry is told at once that the
// outcome is unknown; a claim whose server is alive is waited for, and a retry that runs out of time is
// told to try again. The owner's connection is ended for real (pg_terminate_backend), no timing window.
// Needs ROUNDTRIP_TEST_PG (see postgres-test-database.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresLedger, type PostgresLedger, type PostgresLedgerOptions } from '../src/postgres/index.ts';
import { args, makeRefundTool, type RefundOutput, type Refunds, yes } from './ledger-contract-refund.ts';
import { createTestDatabase, skipPostgres, type TestDatabase } from './postgres-test-database.ts';
import { accept, complete, inputRequired, makeEngine, textIn } from './support.ts';

const opened: PostgresLedger[] = [];
const open = async (options: PostgresLedgerOptions) => {
  const ledger = await createPostgresLedger(options);
  opened.push(ledger);
  return ledger;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((ledger) => ledger.close()));
});

describe.skipIf(skipPostgres)('the owner of a PostgreSQL ledger claim', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** The backend holding the owner lock that the claim of `run`'s refund names, if any holds it. */
  async function lockHolder(schema: string, run: string): Promise<number | undefined> {
    const { rows } = await db.sql.query<{ pid: number }>(
      `SELECT l.pid FROM ${schema}.roundtrip_effects e
         JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                        AND l.classid = (e.owner_lock >> 32)::oid AND l.objid = (e.owner_lock & 4294967295)::oid
        WHERE e.run = $1 AND e.effect = 'refund'`,
      [run],
    );
    return rows[0]?.pid;
  }

  /** A refund conversation on `ledger` at its confirming round (its run id read from the log of a re-asked answer). */
  async function conversation(ledger: PostgresLedger, settleTimeoutMs: number) {
    const refunds: Refunds = { runs: 0 };
    const test = makeEngine([makeRefundTool(refunds)], { ledger, settleTimeoutMs });
    const first = inputRequired(await test.call({ name: 'refund_order', arguments: args }));
    const asked = { name: 'refund_order', arguments: args, requestState: first.requestState };
    const second = inputRequired(await test.call({ ...asked, inputResponses: { confirm: accept({}) } }));
    const run = test.logs.find((entry) => entry.event === 'answer_invalid')!.run!;
    const confirm = () => test.call({ ...asked, requestState: second.requestState, inputResponses: yes });
    return { refunds, run, confirm, logs: test.logs };
  }

  it('whose connection ended reads as abandoned at once, long before its lease passes, and a retry says so without waiting', async () => {
    const { url, schema } = await db.freshSchema();
    const ledger = await open({ url });
    // a retry that had to wait for the lease would wait a minute: the test's own timeout would end it first
    const { refunds, run, confirm } = await conversation(ledger, 60_000);
    const warnings: string[] = [];
    const owner = await open({ url, leaseMs: 60_000, onWarning: (message) => warnings.push(message) });
    const startedAt = Date.UTC(2026, 6, 28, 12);
    expect(await owner.claim({ run, effect: 'refund' }, startedAt)).toBe('claimed');
    expect(await ledger.read({ run, effect: 'refund' })).toEqual({ state: 'running', startedAt, alive: true });

    // the owner's server dies: the session holding its lock ends (PostgreSQL 14+ waits until it has)
    const pid = await lockHolder(schema, run);
    expect(pid).toBeTypeOf('number');
    expect((await db.sql.query('SELECT pg_terminate_backend($1, 5000) AS ended', [pid])).rows).toEqual([{ ended: true }]);

    expect(await ledger.read({ run, effect: 'refund' })).toEqual({ state: 'running', startedAt, abandoned: true, disconnected: true });
    const outcome = complete(await confirm());
    expect(refunds.runs).toBe(0);
    expect((outcome.result.structuredContent as RefundOutput).error).toBe(
      "EffectOutcomeUnknownError: Effect 'refund' of this conversation was started at 2026-07-28T12:00:00.000Z by a server process that lost its connection to the ledger before it recorded an outcome (it crashed, was killed, or lost its database), so whether it happened is unknown. Check before doing it again.",
    );

    // the owner itself lives on: it said what happened, its new claims hold by their lease meanwhile, and it takes a new lock
    expect(await owner.claim({ run: 'after', effect: 'refund' }, startedAt)).toBe('claimed');
    expect(await ledger.read({ run: 'after', effect: 'refund' })).toEqual({ state: 'running', startedAt, alive: true });
    expect(warnings).toEqual([
      expect.stringMatching(/lost the connection that holds its owner lock .* Its next claim takes a new lock\.$/),
    ]);
    let locked: number | undefined;
    for (let claim = 0; locked === undefined && claim < 1000; claim++) {
      await owner.claim({ run: `again_${claim}`, effect: 'refund' }, startedAt);
      locked = await lockHolder(schema, `again_${claim}`);
    }
    expect(locked).toBeTypeOf('number');
    expect(locked).not.toBe(pid);
  });

  it('that is alive is waited for; a retry that runs out of time says the step is in progress and when to try again', async () => {
    const { url } = await db.freshSchema();
    const ledger = await open({ url });
    const { refunds, run, confirm, logs } = await conversation(ledger, 300);
    const owner = await open({ url });
    const startedAt = Date.UTC(2026, 6, 28, 12);
    expect(await owner.claim({ run, effect: 'refund' }, startedAt)).toBe('claimed');

    const outcome = complete(await confirm());
    expect(refunds.runs).toBe(0);
    expect(outcome.result.isError).toBe(true);
    expect(textIn(outcome.result.content[0])).toBe(
      "Tool 'refund_order' could not finish yet: its step 'refund' is in progress, started at 2026-07-28T12:00:00.000Z by another request of this conversation, and has not recorded its outcome. Try again in 1 second to get it.",
    );
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'warn', event: 'effect_still_running', effect: 'refund', since: startedAt }),
    );
    expect(logs.map((entry) => entry.event)).not.toContain('settle_timeout');

    // once the owner records its outcome, the same retry gets it
    await owner.complete({ run, effect: 'refund' }, { ok: true, value: { refundId: 're_from_owner' } }, startedAt + 1000);
    expect((complete(await confirm()).result.structuredContent as RefundOutput).refundId).toBe('re_from_owner');
  });

  it('names no lock with ownerLock: false, so only its lease says whether it is alive', async () => {
    const { url, schema } = await db.freshSchema();
    const owner = await open({ url, ownerLock: false });
    expect(await owner.claim({ run: 'leased', effect: 'refund' }, 1)).toBe('claimed');
    const { rows } = await db.sql.query(`SELECT owner_lock FROM ${schema}.roundtrip_effects`);
    expect(rows).toEqual([{ owner_lock: null }]);
    expect(await owner.read({ run: 'leased', effect: 'refund' })).toEqual({ state: 'running', startedAt: 1, alive: true });
  });
});
