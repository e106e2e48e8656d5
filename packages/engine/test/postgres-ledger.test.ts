// The PostgreSQL ledger: the ledger contract (ledger-contract.ts) on a schema of its own per test, then
// what only it has: migrations, leases that find a dead owner, many servers claiming at once, bounded
// waits, pruning. Needs ROUNDTRIP_TEST_PG (see postgres-test-database.ts); the errors for a server that
// cannot be reached and the option checks run without it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresLedger, type PostgresLedger, type PostgresLedgerOptions } from '../src/postgres/index.ts';
import { describeLedgerContract } from './ledger-contract.ts';
import { args, confirmingRound, makeRefundTool, type RefundOutput, type Refunds, yes } from './ledger-contract-refund.ts';
import { createTestDatabase, skipPostgres, type TestDatabase } from './postgres-test-database.ts';
import { refusedPort } from './refused-port.ts';
import { accept, complete, inputRequired, makeEngine } from './support.ts';

const DAY = 24 * 60 * 60 * 1000;
const key = { run: 'run_1', effect: 'refund' };
const opened: PostgresLedger[] = [];
const open = async (options: PostgresLedgerOptions) => {
  const ledger = await createPostgresLedger(options);
  opened.push(ledger);
  return ledger;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((ledger) => ledger.close()));
});

/**
 * Probes until `probe` holds or the database's clock passes `untilMs` (milliseconds since the epoch);
 * each probe is a round trip to the server, so no timer paces it. Returns whether `probe` held.
 */
async function waitFor(sql: TestDatabase['sql'], untilMs: number, probe: () => Promise<boolean>): Promise<boolean> {
  for (;;) {
    if (await probe()) return true;
    const { rows } = await sql.query<{ ms: number }>('SELECT extract(epoch FROM clock_timestamp())::float8 * 1000 AS ms');
    if (rows[0]!.ms > untilMs) return probe();
  }
}

describe('createPostgresLedger, before any server answers', () => {
  it('says which server it cannot reach (without the password) and to start PostgreSQL', async () => {
    const port = await refusedPort();
    const failure = createPostgresLedger({ url: `postgres://roundtrip:s3cret@127.0.0.1:${port}/orders` });
    await expect(failure).rejects.toThrow(`Cannot open the effect ledger at postgres://roundtrip@127.0.0.1:${port}/orders (ECONNREFUSED`);
    await expect(failure).rejects.toThrow(/start PostgreSQL \(e\.g\. `pg_ctlcluster 15 main start` on Debian/);
    await expect(failure).rejects.not.toThrow('s3cret');
  });

  it('refuses what is not a PostgreSQL URL, and options it cannot use, naming them', async () => {
    await expect(createPostgresLedger({ url: 'mysql://u:p@host/db' })).rejects.toThrow(
      'createPostgresLedger needs the URL of a PostgreSQL database, such as postgres://user:password@host:5432/database; it got a mysql: URL.',
    );
    await expect(createPostgresLedger({ url: 'host=db password=secret' })).rejects.toThrow('it got a value that is not a URL.');
    const url = 'postgres://u:secret@127.0.0.1:1/db';
    await expect(createPostgresLedger({ url, leaseMs: 0 })).rejects.toThrow(
      'createPostgresLedger got leaseMs = 0 for postgres://u@127.0.0.1:1/db; set it to a number, 3 or more.',
    );
    await expect(createPostgresLedger({ url, statementTimeoutMs: Number.NaN })).rejects.toThrow('statementTimeoutMs = NaN');
    await expect(createPostgresLedger({ url, retainMs: -1 })).rejects.toThrow('retainMs = -1');
    // done records pruned sooner than a state can be replayed would let the replay run the effect again
    await expect(createPostgresLedger({ url, retainMs: 60_000 })).rejects.toThrow(
      'retainMs = 60000 for postgres://u@127.0.0.1:1/db; set it to a number, 3600000 or more (a done record must outlive every state that could replay it).',
    );
  });
});

describe.skipIf(skipPostgres)('the PostgreSQL ledger', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  describeLedgerContract(
    'the PostgreSQL ledger',
    async () => {
      const { url } = await db.freshSchema();
      const handles: PostgresLedger[] = [];
      return {
        open: async () => {
          const ledger = await createPostgresLedger({ url });
          handles.push(ledger);
          return ledger;
        },
        close: async () => {
          await Promise.all(handles.map((ledger) => ledger.close()));
        },
      };
    },
    { knowsLiveness: true },
  );

  describe('migrations', () => {
    it('makes its tables once when ten servers open a new database together, and records the version', async () => {
      const { url, schema } = await db.freshSchema();
      const ledgers = await Promise.all(Array.from({ length: 10 }, () => open({ url })));
      expect(await ledgers[3]!.claim(key, 1)).toBe('claimed');
      expect(await ledgers[7]!.read(key)).toEqual({ state: 'running', startedAt: 1, alive: true });
      const { rows } = await db.sql.query(`SELECT version, name FROM ${schema}.roundtrip_ledger_migrations`);
      expect(rows).toEqual([
        { version: 1, name: expect.stringContaining('roundtrip_effects') },
        { version: 2, name: expect.stringContaining('owner_lock') },
      ]);
    });

    it('refuses a database that newer code migrated, saying to upgrade', async () => {
      const { url, schema } = await db.freshSchema();
      await open({ url });
      await db.sql.query(`INSERT INTO ${schema}.roundtrip_ledger_migrations (version, name) VALUES (99, 'from the future')`);
      await expect(createPostgresLedger({ url })).rejects.toThrow(
        /^Cannot open the effect ledger at .*: its tables are at migration 99, made by a newer @roundtrip\/engine than this one \(which knows migrations up to 2\)\. Upgrade @roundtrip\/engine/,
      );
    });

    it('says to look for the other server when one holds the migration lock past statementTimeoutMs', async () => {
      const { url } = await db.freshSchema();
      const holder = await db.sql.connect();
      try {
        await holder.query('BEGIN');
        // the ledger's migration lock ('Roundtrp' as an int8), held as a migrating server would
        await holder.query('SELECT pg_advisory_xact_lock(5939295012364317296)');
        await expect(createPostgresLedger({ url, statementTimeoutMs: 200 })).rejects.toThrow(
          /The migration did not finish within statementTimeoutMs \(200 ms\): another server may hold the ledger's migration lock.*pg_stat_activity/,
        );
      } finally {
        await holder.query('ROLLBACK');
        holder.release();
      }
    });

    it('names the login it was refused, without the password', async () => {
      const { url } = await db.freshSchema();
      const wrong = new URL(url);
      wrong.password = 'not-the-password';
      const failure = createPostgresLedger({ url: wrong.href });
      await expect(failure).rejects.toThrow(
        /^Cannot open the effect ledger at postgres:\/\/roundtrip@.* \(28P01: password authentication failed/,
      );
      await expect(failure).rejects.toThrow('check the user and password in the URL');
      await expect(failure).rejects.not.toThrow('not-the-password');
    });
  });

  describe('leases', () => {
    /** When the lease of `run`'s refund ends, by the database's clock, in milliseconds; NaN when it has none. */
    const leaseUntil = async (schema: string, run: string) => {
      const { rows } = await db.sql.query<{ ms: number | null }>(
        `SELECT extract(epoch FROM lease_until)::float8 * 1000 AS ms FROM ${schema}.roundtrip_effects WHERE run = $1 AND effect = 'refund'`,
        [run],
      );
      return rows[0]!.ms ?? Number.NaN;
    };

    it('reads a claim whose server stopped renewing its lease as abandoned, and the engine says the outcome is unknown', async () => {
      const { url, schema } = await db.freshSchema();
      const refunds: Refunds = { runs: 0 };
      const ledger = await open({ url });
      const { call, first, logs } = await confirmingRound(refunds, ledger);
      const second = inputRequired(
        await call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: { confirm: accept({}) } }),
      );
      const run = logs.find((e) => e.event === 'answer_invalid')!.run!;
      // another server, without an owner lock (as behind a transaction-pooling proxy), claims the refund and
      // dies: its pool closes, nothing renews the lease (one with its lock: postgres-dead-owner.test.ts)
      const dying = await createPostgresLedger({ url, leaseMs: 50, ownerLock: false });
      const claimedAt = Date.now();
      expect(await dying.claim({ run, effect: 'refund' }, claimedAt)).toBe('claimed');
      await dying.close();
      const leaseEnd = await leaseUntil(schema, run);
      const abandoned = async () => {
        const record = await ledger.read({ run, effect: 'refund' });
        return record?.state === 'running' && record.abandoned === true;
      };
      expect(await waitFor(db.sql, leaseEnd + 1000, abandoned)).toBe(true);
      expect(await ledger.read({ run, effect: 'refund' })).toEqual({
        state: 'running',
        startedAt: claimedAt,
        abandoned: true,
        leaseLapsed: true,
      });

      const outcome = complete(
        await call({ name: 'refund_order', arguments: args, requestState: second.requestState, inputResponses: yes }),
      );
      expect(refunds.runs).toBe(0);
      expect((outcome.result.structuredContent as RefundOutput).error).toMatch(
        /^EffectOutcomeUnknownError: Effect 'refund' of this conversation was started at .* by a server process that stopped renewing its claim before it recorded an outcome \(it crashed, stalled, or lost its database\)/,
      );
    });

    it('renews the lease of an effect that still runs, so another server keeps waiting for it', async () => {
      const { url, schema } = await db.freshSchema();
      const owner = await open({ url, leaseMs: 1500 });
      const other = await open({ url });
      expect(await owner.claim(key, 1000)).toBe('claimed');
      const firstLease = await leaseUntil(schema, key.run);
      // the owner renews every 500 ms: well before the first lease would have passed
      expect(await waitFor(db.sql, firstLease, async () => (await leaseUntil(schema, key.run)) > firstLease)).toBe(true);
      expect(await other.read(key)).toEqual({ state: 'running', startedAt: 1000, alive: true });
      await owner.complete(key, { ok: true, value: 'refunded' }, 2000);
      expect(await leaseUntil(schema, key.run)).toBeNaN();
      expect(await other.read(key)).toMatchObject({ state: 'done', outcome: { ok: true, value: 'refunded' } });
    });
  });

  it('runs the effect once for 50 concurrent confirming rounds served by five servers', async () => {
    const { url } = await db.freshSchema();
    const refunds: Refunds = { runs: 0 };
    const first = await confirmingRound(refunds, await open({ url }));
    const servers = await Promise.all(
      Array.from({ length: 5 }, async () => makeEngine([makeRefundTool(refunds)], { ledger: await open({ url, maxConnections: 4 }) })),
    );
    const rounds = servers.flatMap((server) =>
      Array.from({ length: 10 }, () =>
        server.call({ name: 'refund_order', arguments: args, requestState: first.first.requestState, inputResponses: yes }),
      ),
    );
    const results = (await Promise.all(rounds)).map((outcome) => JSON.stringify(complete(outcome).result));
    expect(new Set(results)).toEqual(new Set([JSON.stringify(complete(await first.confirm()).result)]));
    expect(refunds.runs).toBe(1);
  });

  it('fails a claim that waits on a lock past lockTimeoutMs, saying so, while other keys are served', async () => {
    const { url, schema } = await db.freshSchema();
    const ledger = await open({ url, lockTimeoutMs: 100 });
    const holder = await db.sql.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`INSERT INTO ${schema}.roundtrip_effects (run, effect, state, started_at) VALUES ($1, $2, 'running', 0)`, [
        key.run,
        key.effect,
      ]);
      const [stuck, free] = await Promise.allSettled([ledger.claim(key, 1), ledger.claim({ run: 'run_2', effect: 'refund' }, 1)]);
      expect(stuck).toMatchObject({ status: 'rejected' });
      expect((stuck as PromiseRejectedResult).reason.message).toMatch(
        /^The effect ledger at postgres:\/\/roundtrip@.* could not claim run "run_1", effect "refund" \(the effect was not started\) \(55P03: canceling statement due to lock timeout\)\. A lock stayed held past lockTimeoutMs \(100 ms\): find the session that holds it/,
      );
      expect(free).toEqual({ status: 'fulfilled', value: 'claimed' });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(await ledger.claim(key, 2)).toBe('claimed');
  });

  it('prunes done records older than retainMs when it opens, never running ones', async () => {
    const { url } = await db.freshSchema();
    const t0 = 1_800_000_000_000;
    const first = await open({ url, now: () => t0 });
    const old = { run: 'run_old', effect: 'refund' };
    const recent = { run: 'run_recent', effect: 'refund' };
    await first.claim(old, t0);
    await first.complete(old, { ok: true, value: 1 }, t0);
    await first.claim(key, t0);
    await first.claim(recent, t0 + 6 * DAY);
    await first.complete(recent, { ok: true, value: 2 }, t0 + 6 * DAY);

    const later = await open({ url, now: () => t0 + 7 * DAY + 1 });
    expect(await later.read(old)).toBeUndefined();
    expect(await later.read(recent)).toMatchObject({ state: 'done', finishedAt: t0 + 6 * DAY });
    expect(await later.read(key)).toMatchObject({ state: 'running', startedAt: t0 });
  });

  it('keeps an error message that holds U+0000 (which PostgreSQL text cannot) with U+FFFD in its place', async () => {
    const ledger = await open({ url: (await db.freshSchema()).url });
    await ledger.claim(key, 1);
    await ledger.complete(key, { ok: false, error: 'bad\u0000byte' }, 2);
    expect(await ledger.read(key)).toMatchObject({ outcome: { ok: false, error: 'bad\uFFFDbyte' } });
  });

  it('fails calls after close with an error that names the ledger, and closes twice', async () => {
    const ledger = await createPostgresLedger({ url: (await db.freshSchema()).url });
    await ledger.close();
    await ledger.close();
    const closed = /^The effect ledger at postgres:\/\/roundtrip@.* is closed; create a new one with createPostgresLedger/;
    await expect(ledger.claim(key, 1)).rejects.toThrow(closed);
    await expect(ledger.complete(key, { ok: true, value: 1 }, 1)).rejects.toThrow(closed);
    await expect(ledger.read(key)).rejects.toThrow(closed);
  });
});
