// refund_order's refund in the effect ledger's transaction (issue 16 item 3): with the ledger in the demo's
// own database (the default), the store writes the refund on the ledger's connection, inside the transaction
// that holds the claim and commits the outcome, so another connection sees the refund only once it is
// recorded; with the ledger elsewhere the store commits it on its own connection first. On a SQLite file and
// on PostgreSQL (ROUNDTRIP_TEST_PG).
import { createEngine, createMemoryLedger, type EffectLedger } from '@roundtrip/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../../packages/engine/test/postgres-test-database.ts';
import { openDemoStores } from '../src/demo-stores.ts';
import type { OrdersStore } from '../src/orders-store.ts';
import { createRefundOrderTool } from '../src/refund-order-tool.ts';
import { accept, closeDemoEngines, demoEngine, done, FORM, question, sharedKeyring, textOf } from './support/demo-engine.ts';

afterEach(closeDemoEngines);

const request = { name: 'refund_order', arguments: { order_id: 'ord_51' }, principal: 'ada', capabilities: FORM };
const yes = { confirm: accept({ confirm: true }) };

/**
 * Refunds ord_51 through an engine on `ledger` whose store, right after writing the refund, asks `observer`
 * (another connection to the same database) how many refunds it sees; resolves with that count.
 */
async function refundsSeenWhileWriting(store: OrdersStore, observer: OrdersStore, ledger: EffectLedger, ledgerInDatabase: boolean) {
  let seen: number | undefined;
  const watched = {
    findOrder: store.findOrder,
    backend: store.backend,
    refundOrder: async (...args: Parameters<OrdersStore['refundOrder']>) => {
      const result = await store.refundOrder(...args);
      seen = await observer.countRefunds('ord_51');
      return result;
    },
  };
  const engine = createEngine({
    tools: [createRefundOrderTool(watched, { ledgerInDatabase })],
    keyring: sharedKeyring,
    audience: 'in-tx',
    ledger,
  });
  const { requestState } = question(await engine.callTool(request), 'confirm');
  const result = done(await engine.callTool({ ...request, requestState, inputResponses: yes }));
  expect(textOf(result)).toBe('Refunded $49.00 for order ord_51.');
  expect(await observer.countRefunds('ord_51')).toBe(1);
  return seen;
}

describe('refund_order with the ledger in the demo database', () => {
  it('on a SQLite file: the refund is not committed before its ledger record is (one transaction)', async () => {
    const demo = await demoEngine();
    const observer = await openDemoStores(demo.db);
    try {
      expect(await refundsSeenWhileWriting(demo.store, observer.orders, demo.ledger, true)).toBe(0);
    } finally {
      await observer.close();
    }
  });

  it('on a SQLite file with the ledger elsewhere: the store commits the refund on its own connection first', async () => {
    const demo = await demoEngine();
    const observer = await openDemoStores(demo.db);
    try {
      expect(await refundsSeenWhileWriting(demo.store, observer.orders, createMemoryLedger(), false)).toBe(1);
    } finally {
      await observer.close();
    }
  });

  describe.skipIf(skipPostgres)('on PostgreSQL', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('the ledger in the same database and schema: the refund commits with its ledger record', async () => {
      const { url } = await db.freshSchema();
      const demo = await demoEngine({ db: url });
      const observer = await openDemoStores(url);
      try {
        expect(await refundsSeenWhileWriting(demo.store, observer.orders, demo.ledger, true)).toBe(0);
      } finally {
        await observer.close();
      }
    });

    it('declared in the database but kept in another schema: the store sees it is not its own and commits on its own connection', async () => {
      const stores = await db.freshSchema();
      const ledgerSchema = await db.freshSchema();
      const demo = await demoEngine({ db: stores.url });
      const otherLedger = await demoEngine({ db: ledgerSchema.url });
      const observer = await openDemoStores(stores.url);
      try {
        expect(await refundsSeenWhileWriting(demo.store, observer.orders, otherLedger.ledger, true)).toBe(1);
      } finally {
        await observer.close();
      }
    });
  });
});
