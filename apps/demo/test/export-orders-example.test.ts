// The example of docs/long-running-steps.md works as the page says, through the protocol server in this
// process (raw 2026-07-28 JSON-RPC: the official client refuses task results): a client that consents to
// tasks gets a task handle as the export starts, follows it with tasks/get, answers the question the task asks
// with tasks/update, and gets the result; tasks/cancel stops the export on its AbortSignal; a client that
// does not consent gets the export done inside its request.
import { createEngine, createKeyring, type Engine, generateKey, TASKS_EXTENSION } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRaw, type RawConnection } from '../../../packages/mcp/test/fixtures/connect-raw.ts';
import { type CollectOrders, createExportOrders } from '../src/examples/export-orders.ts';

const CONSENTS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
const DOES_NOT = { elicitation: { form: {} } };

/** A collector the test lets finish once it has started, and that says when its AbortSignal fired. */
function heldCollector() {
  let finish: (rows: number) => void = () => {};
  let started: () => void = () => {};
  let aborted: () => void = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const stopped = new Promise<void>((resolve) => (aborted = resolve));
  const collect: CollectOrders = (month, signal) =>
    new Promise((resolve, reject) => {
      finish = (rows) => resolve({ file: `orders-${month}.csv`, rows });
      signal.addEventListener(
        'abort',
        () => {
          aborted();
          reject(signal.reason);
        },
        { once: true },
      );
      started();
    });
  return {
    collect,
    finish: async (rows: number) => {
      await running;
      finish(rows);
    },
    stopped,
  };
}

const opened: Array<{ engine: Engine; connection: RawConnection }> = [];
afterEach(async () => {
  for (const { engine, connection } of opened.splice(0)) {
    await connection.close();
    await engine.close();
  }
});

async function serve(collect: CollectOrders) {
  const engine = createEngine({
    tools: [createExportOrders(collect)],
    keyring: createKeyring([generateKey()]),
    audience: 'demo',
    log: () => {},
  });
  const connection = await connectRaw(engine);
  opened.push({ engine, connection });
  return connection;
}

async function until(connection: RawConnection, taskId: string, status: string): Promise<Record<string, unknown>> {
  for (let polls = 0; polls < 500; polls++) {
    const { result, error } = await connection.request('tasks/get', { taskId }, CONSENTS);
    if (error) throw new Error(`tasks/get answered ${JSON.stringify(error)}`);
    if (result?.status === status) return result;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

describe('export_orders (docs/long-running-steps.md)', () => {
  it('is a task for a client that consents: working, then the question, then the result', async () => {
    const held = heldCollector();
    const connection = await serve(held.collect);
    const call = await connection.request('tools/call', { name: 'export_orders', arguments: { month: '2026-11' } }, CONSENTS);
    expect(call.result).toMatchObject({ resultType: 'task', status: 'working', statusMessage: 'Collecting the orders…' });
    const taskId = String(call.result?.taskId);
    await held.finish(1284);
    const asking = await until(connection, taskId, 'input_required');
    const entries = Object.entries(asking.inputRequests as Record<string, { params: { message: string } }>);
    expect(entries).toHaveLength(1);
    const [key, request] = entries[0]!;
    expect(request.params.message).toBe('1284 orders of 2026-11 are in orders-2026-11.csv. Email the file?');
    const ack = await connection.request(
      'tasks/update',
      { taskId, inputResponses: { [key!]: { action: 'accept', content: { email: 'ada@example.com' } } } },
      CONSENTS,
    );
    expect(ack.error).toBeUndefined();
    const done = await until(connection, taskId, 'completed');
    expect(done.result).toMatchObject({
      content: [{ type: 'text', text: 'Exported 1284 orders of 2026-11 to orders-2026-11.csv, sent to ada@example.com.' }],
    });
  });

  it('stops the export on tasks/cancel', async () => {
    const held = heldCollector();
    const connection = await serve(held.collect);
    const call = await connection.request('tools/call', { name: 'export_orders', arguments: { month: '2026-10' } }, CONSENTS);
    const taskId = String(call.result?.taskId);
    expect((await connection.request('tasks/cancel', { taskId }, CONSENTS)).error).toBeUndefined();
    await held.stopped;
    await until(connection, taskId, 'cancelled');
  });

  it('runs inside the request for a client that does not consent to tasks', async () => {
    const held = heldCollector();
    const connection = await serve(held.collect);
    const reply = connection.request('tools/call', { name: 'export_orders', arguments: { month: '2026-09' } }, DOES_NOT);
    await held.finish(3);
    expect((await reply).result).toMatchObject({ resultType: 'input_required' });
  });
});
