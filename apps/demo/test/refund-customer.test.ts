// refund_customer through the protocol server in this process (raw 2026-07-28 JSON-RPC, as a client that
// consents to tasks): one MRTR round confirms the count and the total, then the refunds run as a task, each
// order once through the ledger; an order whose amount changed is asked about inside the task; tasks/cancel
// stops after the order in progress, whose refund stays made; a client without tasks gets it in its request.
// The payment provider waits ROUNDTRIP_DEMO_REFUND_MS (1 here); where a test must hold one order in progress,
// the provider is one the test releases. On the demo's SQLite file, and on PostgreSQL when ROUNDTRIP_TEST_PG is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClientCapabilities, createEngine, type EngineLogEntry, TASKS_EXTENSION } from '@roundtrip/engine';
import { createPostgresLedger } from '@roundtrip/engine/postgres';
import { createSqliteLedger } from '@roundtrip/engine/sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../../packages/engine/test/postgres-test-database.ts';
import { connectRaw, type RawConnection } from '../../../packages/mcp/test/fixtures/connect-raw.ts';
import { isPostgresUrl } from '../src/db-location.ts';
import { type DemoStores, openDemoStores } from '../src/demo-stores.ts';
import { SEED_LIN_ORDERS } from '../src/orders-store.ts';
import { createRefundCustomerTool, type PaymentProvider } from '../src/refund-customer-tool.ts';
import { sharedKeyring } from './support/demo-engine.ts';
import { copySeededDemoFile } from './support/seeded-demo-file.ts';

const CONSENTS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
const DOES_NOT = { elicitation: { form: {} } };
const LIN = SEED_LIN_ORDERS.map((o) => o.id); // ord_61 … ord_65, $225.49 in all
const yes = { confirm: { action: 'accept', content: { confirm: true } } };

/** A provider that refunds at once, except `held`: it waits there until the test releases it. */
function heldProvider(held: string) {
  let release: () => void = () => {};
  let reached: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const reachedHeld = new Promise<void>((resolve) => (reached = resolve));
  const provider: PaymentProvider = async (order) => {
    if (order.id !== held) return;
    reached();
    await released;
  };
  return { provider, reached: reachedHeld, release };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
beforeAll(() => {
  vi.stubEnv('ROUNDTRIP_DEMO_REFUND_MS', '1');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** Polls until `check` holds (each poll after the event loop turned once), or fails saying what never happened. */
async function until<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let polls = 0; polls < 2000; polls++) {
    const value = await read();
    if (check(value)) return value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`${what} never happened`);
}

let pg: TestDatabase | undefined;
beforeAll(async () => {
  if (!skipPostgres) pg = await createTestDatabase();
});
afterAll(async () => {
  await pg?.drop();
});

/** A fresh demo database: a copy of the seeded SQLite file, or a new schema of the PostgreSQL test database. */
async function freshDatabase(backend: 'sqlite' | 'postgres'): Promise<string> {
  if (backend === 'postgres') return (await pg!.freshSchema()).url;
  const dir = mkdtempSync(join(tmpdir(), 'rt-refund-customer-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'orders.db');
  await copySeededDemoFile(path);
  return path;
}

interface Served {
  connection: RawConnection;
  stores: DemoStores;
  logs: EngineLogEntry[];
  /** The first round of refund_customer for lin, and its retry with the confirmation. */
  confirm(capabilities: ClientCapabilities): Promise<Record<string, unknown>>;
  task(taskId: string, status: string): Promise<Record<string, unknown>>;
  refundsOf(ids: readonly string[]): Promise<number[]>;
}

/** refund_customer over the demo's stores in `db`, the effect ledger beside them, as the demo server keeps it. */
async function serve(db: string, provider?: PaymentProvider): Promise<Served> {
  const stores = await openDemoStores(db);
  const ledger = isPostgresUrl(db) ? await createPostgresLedger({ url: db }) : createSqliteLedger({ path: db });
  const logs: EngineLogEntry[] = [];
  const engine = createEngine({
    tools: [createRefundCustomerTool(stores.orders, provider ? { provider } : {})],
    keyring: sharedKeyring,
    audience: 'demo',
    ledger,
    log: (entry) => logs.push(entry),
  });
  const connection = await connectRaw(engine);
  cleanups.push(async () => {
    await connection.close();
    await engine.close();
    await ledger.close();
    await stores.close();
  });
  const call = async (capabilities: ClientCapabilities, retry: Record<string, unknown> = {}) => {
    const { result, error } = await connection.request(
      'tools/call',
      { name: 'refund_customer', arguments: { customer: 'lin' }, ...retry },
      capabilities,
    );
    if (error) throw new Error(`tools/call answered ${JSON.stringify(error)}`);
    return result!;
  };
  return {
    connection,
    stores,
    logs,
    confirm: async (capabilities) => {
      const first = await call(capabilities);
      expect(first.resultType).toBe('input_required');
      const requests = first.inputRequests as Record<string, { params: { message: string } }>;
      expect(requests.confirm?.params.message).toBe('Refund 5 orders of lin totalling $225.49?');
      return call(capabilities, { requestState: first.requestState, inputResponses: yes });
    },
    task: (taskId, status) =>
      until(
        `task ${status}`,
        async () => {
          const { result, error } = await connection.request('tasks/get', { taskId }, CONSENTS);
          if (error) throw new Error(`tasks/get answered ${JSON.stringify(error)}`);
          return result!;
        },
        (result) => result.status === status,
      ),
    refundsOf: (ids) => Promise.all(ids.map((id) => stores.orders.countRefunds(id))),
  };
}

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content.map((c) => c.text).join('\n');

describe.each([
  { backend: 'sqlite' as const, skip: false },
  { backend: 'postgres' as const, skip: skipPostgres },
])('refund_customer on $backend', ({ backend, skip }) => {
  it.skipIf(skip)('confirms the count and the total, then refunds every order once as a task', async () => {
    const served = await serve(await freshDatabase(backend));
    const started = await served.confirm(CONSENTS);
    expect(started).toMatchObject({ resultType: 'task', status: 'working', statusMessage: 'Refunded 0 of 5 orders' });
    const done = await served.task(String(started.taskId), 'completed');
    expect(textOf(done.result)).toBe('Refunded 5 of 5 orders of lin ($225.49).');
    expect(await served.refundsOf(LIN)).toEqual([1, 1, 1, 1, 1]);
    // one ledger record per order, each its own effect
    const recorded = served.logs.flatMap((l) => (l.event === 'effect_recorded' && 'effect' in l ? [l.effect] : []));
    expect(recorded).toEqual(LIN.map((id) => `refund ${id}`));
    // nothing is left to refund
    const again = await served.connection.request('tools/call', { name: 'refund_customer', arguments: { customer: 'lin' } }, CONSENTS);
    expect(textOf(again.result)).toBe('lin has no paid orders; nothing was refunded.');
  });

  it.skipIf(skip)('asks inside the task about an order whose amount changed mid-task, and refunds the new amount', async () => {
    const db = await freshDatabase(backend);
    const held = heldProvider('ord_62');
    const served = await serve(db, held.provider);
    const started = await served.confirm(CONSENTS);
    const taskId = String(started.taskId);
    await held.reached; // ord_61 refunded, ord_62 at the provider: now ord_63's amount changes
    // the task counts as it goes (its statusMessage, from the long state's progress words over its context)
    const counting = await until(
      'the task to count the first refund',
      async () => (await served.connection.request('tasks/get', { taskId }, CONSENTS)).result!,
      (result) => result.statusMessage === 'Refunded 1 of 5 orders',
    );
    expect(counting.status).toBe('working');
    await served.stores.orders.setOrderAmount('ord_63', 4500);
    held.release();
    const asking = await served.task(taskId, 'input_required');
    const [[key, request]] = Object.entries(asking.inputRequests as Record<string, { params: { message: string } }>) as [
      [string, { params: { message: string } }],
    ];
    expect(request.params.message).toBe(
      'Refunded 2 of 5 orders. The amount of order ord_63 changed from $42.00 to $45.00 since you confirmed. Refund $45.00 for it?',
    );
    const ack = await served.connection.request(
      'tasks/update',
      { taskId, inputResponses: { [key]: { action: 'accept', content: { refund: true } } } },
      CONSENTS,
    );
    expect(ack.error).toBeUndefined();
    const done = await served.task(taskId, 'completed');
    expect(textOf(done.result)).toBe('Refunded 5 of 5 orders of lin ($228.49).');
    expect(await served.refundsOf(LIN)).toEqual([1, 1, 1, 1, 1]);
    expect((await served.stores.orders.refundsOf('ord_63'))[0]?.amountCents).toBe(4500);
  });

  it.skipIf(skip)('skips an order whose amount changed when the user says no', async () => {
    const db = await freshDatabase(backend);
    const served = await serve(db);
    const first = await served.connection.request('tools/call', { name: 'refund_customer', arguments: { customer: 'lin' } }, CONSENTS);
    await served.stores.orders.setOrderAmount('ord_64', 900); // after the question, before the answer
    const retry = { requestState: first.result?.requestState, inputResponses: yes };
    const started = await served.connection.request(
      'tools/call',
      { name: 'refund_customer', arguments: { customer: 'lin' }, ...retry },
      CONSENTS,
    );
    const taskId = String(started.result?.taskId);
    const asking = await served.task(taskId, 'input_required');
    const [key] = Object.keys(asking.inputRequests as object);
    await served.connection.request('tasks/update', { taskId, inputResponses: { [key!]: { action: 'decline' } } }, CONSENTS);
    const done = await served.task(taskId, 'completed');
    expect(textOf(done.result)).toBe('Refunded 4 of 5 orders of lin ($216.99); ord_64 was skipped (its amount changed).');
    expect(await served.refundsOf(LIN)).toEqual([1, 1, 1, 0, 1]);
  });

  it.skipIf(skip)('stops after the order in progress on tasks/cancel; the refunds made stay made', async () => {
    const held = heldProvider('ord_62');
    const served = await serve(await freshDatabase(backend), held.provider);
    const started = await served.confirm(CONSENTS);
    const taskId = String(started.taskId);
    await held.reached;
    expect((await served.connection.request('tasks/cancel', { taskId }, CONSENTS)).error).toBeUndefined();
    await served.task(taskId, 'cancelled');
    held.release(); // the order in progress finishes: a refund once started is let settle and recorded
    await until(
      'the refund of ord_62',
      () => served.stores.orders.countRefunds('ord_62'),
      (n) => n === 1,
    );
    expect(await served.refundsOf(LIN)).toEqual([1, 1, 0, 0, 0]);
    // a new call offers what is left
    const again = await served.connection.request('tools/call', { name: 'refund_customer', arguments: { customer: 'lin' } }, CONSENTS);
    const requests = again.result?.inputRequests as Record<string, { params: { message: string } }>;
    expect(requests.confirm?.params.message).toBe('Refund 3 orders of lin totalling $180.50?');
  });

  it.skipIf(skip)('refunds inside the request for a client that does not consent to tasks', async () => {
    const served = await serve(await freshDatabase(backend));
    const done = await served.confirm(DOES_NOT);
    expect(done.resultType).not.toBe('task');
    expect(textOf(done)).toBe('Refunded 5 of 5 orders of lin ($225.49).');
    expect(await served.refundsOf(LIN)).toEqual([1, 1, 1, 1, 1]);
  });
});
