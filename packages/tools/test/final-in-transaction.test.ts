// A flow tool whose final action writes to the effect ledger's own database (finalInLedgerTransaction):
// through real rounds of a real engine, on a real SQLite file and on real PostgreSQL (ROUNDTRIP_TEST_PG,
// see the engine's postgres-test-database.ts), its row commits with its result, a replay on another
// server gets the recorded result, and a failure leaves no row. And how `final`'s arguments are typed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createEngine,
  createKeyring,
  createMemoryLedger,
  type EffectLedger,
  type EngineLogEntry,
  generateKey,
  type LedgerTransaction,
  type StepOutcome,
} from '@roundtrip/engine';
import { createPostgresLedger, type PostgresLedger, postgresTransaction } from '@roundtrip/engine/postgres';
import { createSqliteLedger, type SqliteLedger, sqliteTransaction } from '@roundtrip/engine/sqlite';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../engine/test/postgres-test-database.ts';
import { ask, defineFlowTool, field } from '../src/index.ts';

/** What the final action did: how often it ran, the transactions it got, whether it fails after writing. */
interface Refunds {
  runs: number;
  seen: Array<LedgerTransaction | undefined>;
  fail: boolean;
  write: (tx: LedgerTransaction | undefined, orderId: string) => Promise<void>;
}

function refundFlow(refunds: Refunds) {
  return defineFlowTool({
    name: 'refund_order',
    description: 'Refunds an order once the user confirms',
    input: z.object({ order_id: z.string() }),
    finalName: 'refund',
    finalInLedgerTransaction: true,
    steps: { confirm: ask({ message: 'Refund order {{input.order_id}}?', fields: { ok: field.boolean({ title: 'Refund it' }) } }) },
    final: async ({ input, transaction }) => {
      refunds.runs++;
      refunds.seen.push(transaction);
      await refunds.write(transaction, input.order_id);
      if (refunds.fail) throw new Error(`card declined (attempt ${refunds.runs})`);
      return { text: `Refunded ${input.order_id}.` };
    },
    failed: ({ error }) => ({ text: `Not refunded: ${(error as Error).message}`, isError: true }),
  });
}

const keyring = createKeyring([generateKey()]);
const base = { principal: 'ada', capabilities: { elicitation: {} }, name: 'refund_order' };

/** A server on `ledger`: asks, then confirms; `replay` sends the confirming round to another server on `other`. */
async function conversation(refunds: Refunds, ledger: EffectLedger, orderId: string) {
  const logs: EngineLogEntry[] = [];
  const engine = createEngine({ tools: [refundFlow(refunds)], keyring, audience: 'tools-test', ledger, log: (e) => logs.push(e) });
  const first = await engine.callTool({ ...base, arguments: { order_id: orderId } });
  if (first.type !== 'input_required') throw new Error(`expected a question, got ${JSON.stringify(first)}`);
  const round = {
    ...base,
    arguments: { order_id: orderId },
    requestState: first.requestState,
    inputResponses: { confirm: { action: 'accept' as const, content: { ok: true } } },
  };
  return {
    logs,
    confirm: async () => textOf(await engine.callTool(round)),
    replay: async (other: EffectLedger) =>
      textOf(await createEngine({ tools: [refundFlow(refunds)], keyring, audience: 'tools-test', ledger: other }).callTool(round)),
  };
}

function textOf(outcome: StepOutcome<unknown>): string {
  if (outcome.type !== 'complete') throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return (outcome.result as { content: Array<{ text: string }> }).content.map((block) => block.text).join('\n');
}

/** One refund committed with its result and replayed elsewhere; one failing, rolled back and replayed. */
async function checkRefunds(refunds: Refunds, ledger: EffectLedger, other: EffectLedger, rows: () => Promise<string[]>) {
  const paid = await conversation(refunds, ledger, 'ord_1');
  expect(await paid.confirm()).toBe('Refunded ord_1.');
  expect(refunds.seen[0]).toBeDefined();
  expect(await rows()).toEqual(['ord_1']);
  expect(paid.logs.find((e) => e.event === 'effect_recorded')).toMatchObject({ code: 'committed', effect: 'refund', ok: true });
  expect(await paid.replay(other)).toBe('Refunded ord_1.');
  expect(refunds.runs).toBe(1);

  refunds.fail = true;
  const declined = await conversation(refunds, ledger, 'ord_2');
  expect(await declined.confirm()).toBe('Not refunded: card declined (attempt 2)');
  expect(await rows()).toEqual(['ord_1']);
  expect(await declined.replay(other)).toBe('Not refunded: card declined (attempt 2)');
  expect(refunds.runs).toBe(2);
}

describe('a final action declared finalInLedgerTransaction', () => {
  it('on SQLite: commits its row with its result in the ledger’s file; another server replays it; a failure leaves no row', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'roundtrip-flow-tx-'));
    const path = join(folder, 'shop.db');
    const own = new Database(path);
    own.pragma('journal_mode = WAL');
    own.exec('CREATE TABLE refunds (order_id TEXT PRIMARY KEY)');
    const ledgers: SqliteLedger[] = [createSqliteLedger({ path }), createSqliteLedger({ path })];
    try {
      const refunds: Refunds = {
        runs: 0,
        seen: [],
        fail: false,
        write: async (tx, orderId) => {
          sqliteTransaction(tx).prepare('INSERT INTO refunds (order_id) VALUES (?)').run(orderId);
        },
      };
      const rows = async () =>
        own
          .prepare<[], { order_id: string }>('SELECT order_id FROM refunds ORDER BY order_id')
          .all()
          .map((r) => r.order_id);
      await checkRefunds(refunds, ledgers[0]!, ledgers[1]!, rows);
    } finally {
      for (const ledger of ledgers) ledger.close();
      own.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('gets transaction undefined from a ledger that offers none, and runs once all the same', async () => {
    const refunds: Refunds = { runs: 0, seen: [], fail: false, write: async () => undefined };
    const ledger = createMemoryLedger();
    const paid = await conversation(refunds, ledger, 'ord_1');
    expect(await paid.confirm()).toBe('Refunded ord_1.');
    expect(refunds.seen).toEqual([undefined]);
    expect(paid.logs.find((e) => e.event === 'effect_transaction_unavailable')).toMatchObject({ code: 'ledger_cannot', effect: 'refund' });
    expect(await paid.replay(ledger)).toBe('Refunded ord_1.');
    expect(refunds.runs).toBe(1);
  });

  describe.skipIf(skipPostgres)('on PostgreSQL', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('commits its row with its result in the ledger’s database; another server replays it; a failure leaves no row', async () => {
      const { url, schema } = await database.freshSchema();
      await database.sql.query(`CREATE TABLE ${schema}.refunds (order_id text PRIMARY KEY)`);
      const ledgers: PostgresLedger[] = [await createPostgresLedger({ url }), await createPostgresLedger({ url })];
      try {
        const refunds: Refunds = {
          runs: 0,
          seen: [],
          fail: false,
          write: async (tx, orderId) => {
            await postgresTransaction(tx).query('INSERT INTO refunds (order_id) VALUES ($1)', [orderId]);
          },
        };
        const rows = async () =>
          (await database.sql.query<{ order_id: string }>(`SELECT order_id FROM ${schema}.refunds ORDER BY order_id`)).rows.map(
            (r) => r.order_id,
          );
        await checkRefunds(refunds, ledgers[0]!, ledgers[1]!, rows);
      } finally {
        await Promise.all(ledgers.map((ledger) => ledger.close()));
      }
    });
  });
});

describe('the final action’s arguments', () => {
  const common = {
    name: 'refund_order',
    description: 'Refunds an order',
    input: z.object({ order_id: z.string() }),
    steps: { confirm: ask({ message: 'Refund?', fields: { ok: field.boolean() } }) },
  };

  it('have transaction (LedgerTransaction | undefined) with finalInLedgerTransaction: true or a boolean, and none without or with false', () => {
    defineFlowTool({
      ...common,
      finalInLedgerTransaction: true,
      final: ({ input, transaction }) => {
        expectTypeOf(transaction).toEqualTypeOf<LedgerTransaction | undefined>();
        expectTypeOf(input).toEqualTypeOf<{ order_id: string }>();
        return { text: 'done' };
      },
    });
    defineFlowTool({
      ...common,
      final: (args) => {
        // @ts-expect-error without finalInLedgerTransaction the final action runs in no transaction
        void args.transaction;
        return { text: 'done' };
      },
    });
    const decidedWhenMade = process.env.LEDGER_ELSEWHERE === undefined; // a boolean: the final action may run in one
    defineFlowTool({
      ...common,
      finalInLedgerTransaction: decidedWhenMade,
      final: ({ transaction }) => {
        expectTypeOf(transaction).toEqualTypeOf<LedgerTransaction | undefined>();
        return { text: 'done' };
      },
    });
    defineFlowTool({
      ...common,
      finalInLedgerTransaction: false,
      final: (args) => {
        // @ts-expect-error finalInLedgerTransaction: false is the same as leaving it out
        void args.transaction;
        return { text: 'done' };
      },
    });
  });
});
