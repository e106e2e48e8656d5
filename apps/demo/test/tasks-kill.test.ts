// A task outlives the servers that run it (issue 28): three HTTP instances of the demo (real child processes)
// on one PostgreSQL database, its task store and its job queue (pg-boss). refund_customer is confirmed on one
// instance and its refunds run as a task, as a job of whichever instance takes it. That instance is SIGKILLed
// mid-task; another takes the job over once its lease ran out and runs the task on from where it was last
// recorded; that one is stopped (SIGTERM) mid-task and hands the job back at once; the third completes it. Every
// order of lin is refunded exactly once. The leases are 10 s here (ROUNDTRIP_TASK_LEASE_SECONDS, the least pg-boss
// takes), looked for every second (a tenth of the lease): one lease runs out, so this takes ~13 s.
// Needs ROUNDTRIP_TEST_PG: `eval "$(bash scripts/services.sh)"`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TASKS_EXTENSION } from '@roundtrip/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipPostgres } from '../../../packages/engine/test/postgres-test-database.ts';
import { openDemoStores } from '../src/demo-stores.ts';
import { SEED_LIN_ORDERS } from '../src/orders-store.ts';
import { bundledScript } from './support/bundle.ts';
import { type DemoInstance, startInstance } from './support/demo-instances.ts';
import { type SharedSetting, sharedSetting, startEach } from './support/instances-on-postgres.ts';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'kill-test', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } },
};

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

/** One 2026-07-28 request over HTTP to an instance; the JSON-RPC answer (sent as JSON or as one SSE event). */
async function rpc(instance: DemoInstance, method: string, params: Record<string, unknown>, name: string): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${instance.port}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }),
  });
  const text = await response.text();
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
  if (!data) throw new Error(`${method} to ${instance.name}: HTTP ${response.status}: ${text}`);
  return JSON.parse(data) as Answer;
}

/** Polls (a short pause between polls: leases run out in their own time) until `check` gives a value. */
async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  for (let poll = 0; poll < 600; poll++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`waited 60 s for ${what}`);
}

describe.skipIf(skipPostgres)('refund_customer as a task on three HTTP instances, one SIGKILLed, one stopped mid-task', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rt-tasks-kill-'));
  let setting: SharedSetting | undefined;
  const instances: DemoInstance[] = [];

  beforeAll(async () => {
    setting = await sharedSetting(dir);
    const launcher = await bundledScript(new URL('../src/http-server.ts', import.meta.url), join(dir, 'bundle'));
    const settings = {
      launcher,
      keyFile: setting.keyFile,
      db: setting.stores,
      ledger: setting.ledger,
      home: dir,
      // each order takes 0.8 s at the payment provider: long enough to be killed in the middle of one
      env: { ROUNDTRIP_TASK_LEASE_SECONDS: '10', ROUNDTRIP_DEMO_REFUND_MS: '800' },
    };
    await startEach(['i1', 'i2', 'i3'], (name) => startInstance(settings, name), instances);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
    await setting?.db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is taken over after the lease, handed back at a stop, completes on the third, and refunds every order once', async () => {
    const [front] = instances as [DemoInstance];
    const call = (extra: Record<string, unknown>) =>
      rpc(front, 'tools/call', { name: 'refund_customer', arguments: { customer: 'lin' }, ...extra }, 'refund_customer');
    const asked = await call({});
    expect(asked.result).toMatchObject({ resultType: 'input_required' });
    const answered = await call({
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: asked.result?.requestState,
    });
    expect(answered.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = answered.result?.taskId as string;
    const running = `task ${taskId} of tool 'refund_customer' runs in this server now`;
    const get = async (at: DemoInstance) => (await rpc(at, 'tasks/get', { taskId }, taskId)).result ?? {};
    /** The instance (among those that never ran it) that runs the task's work now, once one took its job. */
    const runner = (among: DemoInstance[]) =>
      until('an instance to take the task', async () => among.find((instance) => instance.stderr().includes(running)));

    // the first to take the job: killed once it refunded an order and is in the middle of the next
    const first = await runner(instances);
    await until('the first refund', async () => ((await get(front)).statusMessage === 'Refunded 1 of 5 orders' ? true : undefined));
    await first.kill();
    const left = instances.filter((instance) => instance !== first);

    // the next takes it over once the lease ran out, from the last recorded order; stopped in the middle of an
    // order, it hands the job back at once (no lease to wait for)
    const second = await runner(left);
    const [last] = left.filter((instance) => instance !== second) as [DemoInstance];
    const before = (await get(last)).statusMessage;
    await until('a refund by the second', async () => ((await get(last)).statusMessage !== before ? true : undefined));
    await second.stop();
    expect(second.stderr()).toContain('task_handed_back');

    // the third completes it
    await runner([last]);
    const done = await until('the task to complete', async () => {
      const task = await get(last);
      return task.status === 'completed' || task.status === 'failed' ? task : undefined;
    });
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed' });
    const text = ((done.result as { content: { text: string }[] }).content[0] as { text: string }).text;
    expect(text).toBe('Refunded 5 of 5 orders of lin ($225.49).');
    const stores = await openDemoStores(setting!.stores);
    try {
      const refunds = await Promise.all(SEED_LIN_ORDERS.map((order) => stores.orders.countRefunds(order.id)));
      expect(refunds).toEqual([1, 1, 1, 1, 1]);
    } finally {
      await stores.close();
    }
    // each of the three ran the task's work in turn
    for (const instance of instances) expect(instance.stderr()).toContain(running);
  }, 120_000);
});
