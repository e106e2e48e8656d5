// The demo on N machines: its stores and the effect ledger in PostgreSQL. A full refund conversation
// through the real server over stdio with ROUNDTRIP_DB and ROUNDTRIP_LEDGER both postgres:// URLs; two
// engines in this process (two "servers" sharing one keyring and the database) answering the rounds of
// one conversation in turn, and fifty confirmations at once between them; a row another session locks
// turning into refund_order's `locked`. Needs ROUNDTRIP_TEST_PG (see the engine's postgres-test-database.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../../packages/engine/test/postgres-test-database.ts';
import { openDemoStores } from '../src/demo-stores.ts';
import { bundledScript } from './support/bundle.ts';
import { accept as acceptOverStdio, callRound, connectDemo, type DemoConnection } from './support/demo-client.ts';
import { accept, closeDemoEngines, type DemoEngine, demoEngine, done, question, textOf } from './support/demo-engine.ts';

const yes = { confirm: accept({ confirm: true }) };
const DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

/** How many refunds the database holds for `orderId`, read through a store of its own. */
async function refundsIn(url: string, orderId: string): Promise<number> {
  const stores = await openDemoStores(url);
  try {
    return await stores.orders.countRefunds(orderId);
  } finally {
    await stores.close();
  }
}

describe.skipIf(skipPostgres)('the demo on PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });
  afterEach(closeDemoEngines);

  describe('the server over stdio, ROUNDTRIP_DB and ROUNDTRIP_LEDGER postgres:// URLs', () => {
    const bundleDir = mkdtempSync(join(tmpdir(), 'rt-demo-pg-'));
    let launcher: string;
    const open: DemoConnection[] = [];
    beforeAll(async () => {
      launcher = await bundledScript(new URL('../src/server.ts', import.meta.url), bundleDir);
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((c) => c.close()));
    });
    afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

    it('refunds once in a full conversation, a duplicate confirmation answered from the ledger; no password in its log', async () => {
      const stores = await db.freshSchema();
      const ledger = await db.freshSchema();
      const demo = await connectDemo({ db: stores.url, ledger: ledger.url, key: generateKey(), launcher });
      open.push(demo);
      const ask = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' });
      expect(ask.inputRequests?.confirm?.params.message).toBe('Refund $49.00 for order ord_51?');
      const confirm = { requestState: ask.requestState!, inputResponses: { confirm: acceptOverStdio({ confirm: true }) } };
      const refunded = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, confirm);
      expect(refunded.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
      expect(refunded.structuredContent).toMatchObject({ status: 'refunded', amount_cents: 4900 });
      const again = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, confirm);
      expect(again.structuredContent).toEqual(refunded.structuredContent);
      const status = await callRound(demo.client, 'order_status', { order_id: 'ord_51' });
      expect(status.content?.[0]?.text).toMatch(/^Order ord_51 \(\$49\.00, customer ada\) was refunded on \d{4}-\d\d-\d\d\.$/);

      expect(await refundsIn(stores.url, 'ord_51')).toBe(1);
      // the demo's tables in one schema, the ledger's in the other
      const effects = await db.sql.query(`SELECT effect, state FROM ${ledger.schema}.roundtrip_effects`);
      expect(effects.rows).toEqual([{ effect: 'refund', state: 'done' }]);
      const demoTables = await db.sql.query(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
        [stores.schema],
      );
      expect(demoTables.rows.map((row) => row.table_name)).toEqual([
        'incidents',
        'meetings',
        'orders',
        'refunds',
        'roundtrip_demo_migrations',
      ]);
      const line = await demo.waitForLog(/info demo: database at /);
      expect(line).toContain(`database at postgres://roundtrip@127.0.0.1:`);
      expect(demo.stderr()).not.toContain('roundtrip:roundtrip@');
    });

    it('does not start when the database cannot be reached, saying which (without the password) and what to do', async () => {
      const server = spawn(process.execPath, [launcher], {
        env: { PATH: process.env.PATH, ROUNDTRIP_DB: 'postgres://demo:s3cret@127.0.0.1:1/shop', ROUNDTRIP_KEY: generateKey() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      server.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => server.on('close', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(
        '[roundtrip-demo] cannot start: Could not open the orders database at postgres://demo@127.0.0.1:1/shop: (ECONNREFUSED',
      );
      expect(stderr).toContain('start PostgreSQL');
      expect(stderr).toContain(
        'ROUNDTRIP_DB names the PostgreSQL database (postgres://user:password@host:5432/database), or a SQLite file path.',
      );
      expect(stderr).not.toContain('s3cret');
      expect(stdout).toBe('');
    });
  });

  describe('two servers sharing the keyring and the database', () => {
    const twoServers = async (): Promise<[DemoEngine, DemoEngine]> => {
      const { url } = await db.freshSchema();
      // the same keyring (support/demo-engine's), each with its own pools for the stores and the ledger
      return [await demoEngine({ db: url }), await demoEngine({ db: url })];
    };

    it('finish one refund conversation with the rounds alternating, refunding once what the user confirmed last', async () => {
      const [a, b] = await twoServers();
      const first = question(await a.call('refund_order', { order_id: 'ord_51' }), 'confirm');
      expect(first.message).toBe('Refund $49.00 for order ord_51?');
      await b.store.setOrderAmount('ord_51', 5900);
      const second = question(
        await b.call('refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: yes }),
        'confirm',
      );
      expect(second.message).toBe('The amount of order ord_51 changed to $59.00 since you were asked. Refund $59.00 for order ord_51?');
      const refunded = done(
        await a.call('refund_order', { order_id: 'ord_51' }, { requestState: second.requestState, inputResponses: yes }),
      );
      expect(textOf(refunded)).toBe('Refunded $59.00 for order ord_51.');
      const replayed = done(
        await b.call('refund_order', { order_id: 'ord_51' }, { requestState: second.requestState, inputResponses: yes }),
      );
      expect(replayed).toEqual(refunded);
      expect(await a.store.refundsOf('ord_51')).toEqual([expect.objectContaining({ amountCents: 5900 })]);
      expect(a.effectsRecorded() + b.effectsRecorded()).toBe(1);
    });

    it('finish one booking with the rounds alternating, booking once', async () => {
      const [a, b] = await twoServers();
      const args = { topic: 'Roadmap review' };
      const when = question(await a.call('book_meeting', args), 'when');
      const room = question(
        await b.call('book_meeting', args, {
          requestState: when.requestState,
          inputResponses: { when: accept({ date: DATE, time: '14:00', attendees: 8 }) },
        }),
        'room',
      );
      const review = question(
        await a.call('book_meeting', args, { requestState: room.requestState, inputResponses: { room: accept({ room: 'orion' }) } }),
        'confirm',
      );
      const confirm = { requestState: review.requestState, inputResponses: { confirm: accept({ choice: 'confirm' }) } };
      const booked = done(await b.call('book_meeting', args, confirm));
      expect(textOf(booked)).toBe(`Booked "Roadmap review" in Orion on ${DATE} at 14:00 for 8 people (booking 1).`);
      expect(done(await a.call('book_meeting', args, confirm))).toEqual(booked);
      // the slot is taken now for either server's next conversation
      const next = question(await b.call('book_meeting', { topic: 'Other' }), 'when');
      const refusedRoom = question(
        await a.call(
          'book_meeting',
          { topic: 'Other' },
          { requestState: next.requestState, inputResponses: { when: accept({ date: DATE, time: '14:00', attendees: 8 }) } },
        ),
        'room',
      );
      const taken = question(
        await b.call(
          'book_meeting',
          { topic: 'Other' },
          { requestState: refusedRoom.requestState, inputResponses: { room: accept({ room: 'orion' }) } },
        ),
        'room',
      );
      // Orion is booked now: the other server's room question does not offer it, and refuses it
      expect(JSON.stringify(refusedRoom.schema)).not.toContain('orion');
      expect(taken.message).toContain('"orion" is not one of the options offered (Atlas (up to 10), Auditorium (up to 40))');
      expect(await a.meetings.meetingsAbout('Roadmap review')).toHaveLength(1);
    });

    it('refund once when fifty confirmations of one conversation arrive at once, half at each server', async () => {
      const [a, b] = await twoServers();
      const { requestState } = question(await a.call('refund_order', { order_id: 'ord_52' }), 'confirm');
      const results = (
        await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            (i % 2 === 0 ? a : b).call('refund_order', { order_id: 'ord_52' }, { requestState, inputResponses: yes }),
          ),
        )
      ).map(done);
      for (const result of results) expect(result).toEqual(results[0]);
      expect(textOf(results[0]!)).toBe('Refunded $120.00 for order ord_52.');
      expect(await a.store.countRefunds('ord_52')).toBe(1);
      expect(a.effectsRecorded() + b.effectsRecorded()).toBe(1);
    });
  });

  describe('refund_order when another session holds the order', () => {
    it("answers 'locked' naming PostgreSQL, and refunds on a new call once the lock is gone", async () => {
      const { url, schema } = await db.freshSchema();
      const demo = await demoEngine({ db: url, stores: { busyTimeoutMs: 20 } });
      const { requestState } = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
      const session = await db.sql.connect();
      try {
        await session.query('BEGIN');
        await session.query(`SELECT id FROM ${schema}.orders WHERE id = 'ord_51' FOR UPDATE`);
        const locked = done(await demo.call('refund_order', { order_id: 'ord_51' }, { requestState, inputResponses: yes }));
        expect(locked.isError).toBe(true);
        expect(textOf(locked)).toBe(
          'Order ord_51 was not refunded: the orders database is locked by another connection (a long transaction on the same PostgreSQL database). Call refund_order again in a moment.',
        );
        expect(locked.structuredContent).toMatchObject({ status: 'locked' });
        expect(demo.logs.filter((e) => e.event === 'effect_failed').map((e) => e.message)).toEqual([
          expect.stringMatching(
            /^effect 'refund' failed: DatabaseLockedError: The orders database at postgres:\/\/roundtrip@.* is locked by another connection: /,
          ),
        ]);
      } finally {
        await session.query('COMMIT');
        session.release();
      }
      expect(await demo.store.countRefunds('ord_51')).toBe(0);
      const again = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
      expect(
        textOf(done(await demo.call('refund_order', { order_id: 'ord_51' }, { requestState: again.requestState, inputResponses: yes }))),
      ).toBe('Refunded $49.00 for order ord_51.');
      expect(await demo.store.countRefunds('ord_51')).toBe(1);
    });
  });
});
