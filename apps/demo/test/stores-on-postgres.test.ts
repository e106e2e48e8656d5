// The stores' contract (store-contract.ts) on a PostgreSQL schema of its own per test, then what only
// PostgreSQL has: migrations under an advisory lock, errors that name the database without its password,
// and a lock held by another session turned into the DatabaseLockedError a locked SQLite file gives.
// Needs ROUNDTRIP_TEST_PG (see the engine's postgres-test-database.ts); the unreachable server runs without.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../../packages/engine/test/postgres-test-database.ts';
import { refusedPort } from '../../../packages/engine/test/refused-port.ts';
import { DatabaseLockedError } from '../src/database-locked.ts';
import { type DemoStores, openDemoStores } from '../src/demo-stores.ts';
import { describeStoresContract } from './store-contract.ts';

/** The URL as errors show it: without its password. */
const shown = (url: string) => {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.href;
};

describe("the demo's stores on PostgreSQL, before any server answers", () => {
  it('say which database they cannot reach (without the password) and to start PostgreSQL', async () => {
    const port = await refusedPort();
    const failure = openDemoStores(`postgres://demo:s3cret@127.0.0.1:${port}/shop`);
    await expect(failure).rejects.toThrow(`Could not open the orders database at postgres://demo@127.0.0.1:${port}/shop: (ECONNREFUSED`);
    await expect(failure).rejects.toThrow(/start PostgreSQL \(e\.g\. `pg_ctlcluster 15 main start` on Debian/);
    await expect(failure).rejects.not.toThrow('s3cret');
  });

  it('refuse a URL that does not parse without repeating it', async () => {
    const failure = openDemoStores('postgres://demo:p@ss:w/rd@db/shop');
    await expect(failure).rejects.toThrow('Could not open the orders database: its PostgreSQL URL does not parse.');
    await expect(failure).rejects.not.toThrow('p@ss');
  });
});

describe.skipIf(skipPostgres)("the demo's stores on PostgreSQL", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  describeStoresContract('PostgreSQL', async () => {
    const { url } = await db.freshSchema();
    const opened: DemoStores[] = [];
    return {
      open: async (options) => {
        const stores = await openDemoStores(url, options);
        opened.push(stores);
        return stores;
      },
      close: async () => {
        await Promise.all(opened.map((stores) => stores.close()));
      },
    };
  });

  describe('migrations', () => {
    it('make the tables once when ten servers open a new database together, and record the version', async () => {
      const { url, schema } = await db.freshSchema();
      const opened = await Promise.all(Array.from({ length: 10 }, () => openDemoStores(url)));
      try {
        const { rows } = await db.sql.query(`SELECT version, name FROM ${schema}.roundtrip_demo_migrations`);
        expect(rows).toEqual([
          { version: 1, name: expect.stringContaining('orders, refunds, meetings and incidents') },
          { version: 2, name: expect.stringContaining('customer lin') },
        ]);
        const counts = await db.sql.query(
          `SELECT (SELECT count(*) FROM ${schema}.orders)::int AS orders, (SELECT count(*) FROM ${schema}.refunds)::int AS refunds`,
        );
        expect(counts.rows).toEqual([{ orders: 9, refunds: 1 }]);
      } finally {
        await Promise.all(opened.map((stores) => stores.close()));
      }
    });

    it('refuse a database a newer demo migrated, saying to run one version everywhere', async () => {
      const { url, schema } = await db.freshSchema();
      await (await openDemoStores(url)).close();
      await db.sql.query(`INSERT INTO ${schema}.roundtrip_demo_migrations (version, name) VALUES (99, 'from the future')`);
      await expect(openDemoStores(url)).rejects.toThrow(
        /^Could not open the orders database at .*: its tables are at migration 99, made by a newer demo server than this one \(which knows migrations up to 2\)\. Run the same version/,
      );
    });

    it('name the login they were refused, without the password', async () => {
      const { url } = await db.freshSchema();
      const wrong = new URL(url);
      wrong.password = 'not-the-password';
      const failure = openDemoStores(wrong.href);
      await expect(failure).rejects.toThrow(
        /^Could not open the orders database at postgres:\/\/roundtrip@.*: \(28P01: password authentication failed/,
      );
      await expect(failure).rejects.toThrow('check the user and password in ROUNDTRIP_DB');
      await expect(failure).rejects.not.toThrow('not-the-password');
    });
  });
  describe('a lock another session holds', () => {
    /** Another session holding `sql` (a lock) in a transaction until `release()`. */
    async function holdLock(sql: string) {
      const session = await db.sql.connect();
      await session.query('BEGIN');
      await session.query(sql);
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          await session.query('COMMIT');
          session.release();
        },
      };
    }
    /** Whether a session of the demo in this database waits for a lock; each probe is a round trip, so no timer paces it. */
    const waitsForLock = async () =>
      (
        await db.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'roundtrip-demo' AND wait_event_type = 'Lock'",
        )
      ).rows[0]!.n > 0;

    it('makes a refund wait, and the refund is written once the lock is released', async () => {
      const { url, schema } = await db.freshSchema();
      const stores = await openDemoStores(url, { busyTimeoutMs: 60_000 });
      const lock = await holdLock(`SELECT id FROM ${schema}.orders WHERE id = 'ord_51' FOR UPDATE`);
      try {
        const refunding = stores.orders.refundOrder('ord_51', { expectedAmountCents: 4900 });
        while (!(await waitsForLock())) {}
        expect(await stores.orders.countRefunds('ord_51')).toBe(0);
        await lock.release();
        expect(await refunding).toMatchObject({ status: 'refunded', amountCents: 4900 });
        expect(await stores.orders.countRefunds('ord_51')).toBe(1);
      } finally {
        await lock.release();
        await stores.close();
      }
    });

    const writes = [
      { what: 'orders database', doing: 'refund order ord_51', write: (s: DemoStores) => s.orders.refundOrder('ord_51') },
      {
        what: 'orders database',
        doing: 'change the amount of order ord_52',
        write: (s: DemoStores) => s.orders.setOrderAmount('ord_52', 100),
      },
      {
        what: 'meetings database',
        doing: 'book orion on 2030-03-14 at 14:00',
        write: (s: DemoStores) => s.meetings.book({ topic: 'Planning', date: '2030-03-14', time: '14:00', attendees: 12, room: 'orion' }),
      },
      {
        what: 'incidents database',
        doing: 'record the incident',
        write: (s: DemoStores) =>
          s.incidents.record({ summary: 'Slow', severity: 'low', services: ['search'], description: 'p95 4 s', paged: null }),
      },
    ] as const;

    it.each(writes)(
      'fails the write ($doing) after busyTimeoutMs, naming the lock and the database, and writes nothing',
      async ({ what, doing, write }) => {
        const { url, schema } = await db.freshSchema();
        const stores = await openDemoStores(url, { busyTimeoutMs: 20 });
        // EXCLUSIVE: others may read, as a SQLite file's readers may while another connection writes
        const lock = await holdLock(`LOCK TABLE ${schema}.orders, ${schema}.meetings, ${schema}.incidents IN EXCLUSIVE MODE`);
        try {
          const failure = await write(stores).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect(failure).toBeInstanceOf(DatabaseLockedError);
          expect((failure as Error).message).toBe(
            `The ${what} at ${shown(url)} is locked by another connection: it stayed locked for 20 ms, so this server could not ${doing}, and nothing was written. ` +
              'Try again when that transaction has ended (find the session that holds it: pg_locks and pg_stat_activity name it), or let writes wait longer ' +
              '(ROUNDTRIP_DB_BUSY_TIMEOUT_MS for the demo server, busyTimeoutMs in code).',
          );
          expect((failure as Error).message).not.toContain('roundtrip:roundtrip@');
        } finally {
          await lock.release();
        }
        try {
          expect(await stores.orders.countRefunds('ord_51')).toBe(0);
          expect(await stores.orders.findOrder('ord_52')).toMatchObject({ amountCents: 12000 });
          expect(await stores.meetings.meetingsAbout('Planning')).toEqual([]);
          expect(await stores.incidents.incidentsAbout('Slow')).toEqual([]);
        } finally {
          await stores.close();
        }
      },
    );
  });
});
