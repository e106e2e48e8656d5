// MCP tasks (SEP-2663) through the binding, in process: a 2026-07-28 client that declares the tasks
// extension gets a tool's long work as a task handle and follows it with tasks/get, tasks/update and
// tasks/cancel; one that does not gets the tool answered in the request (or -32021 when the tool runs only
// as a task), and the task methods refuse it before looking anything up. Raw JSON-RPC: the official client
// refuses a `resultType: 'task'` and sends no task methods.
import { createEngine, createKeyring, type Engine, generateKey, TASKS_EXTENSION } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from './fixtures/connect-in-memory.ts';
import { connectRaw, type RawConnection, type RawReply } from './fixtures/connect-raw.ts';
import { greetingDefinitions } from './fixtures/greeting-definitions.ts';
import { createTaskTools, type TaskTools } from './fixtures/task-definitions.ts';

const CONSENTS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
const DOES_NOT = { elicitation: { form: {} } };
const REQUIRED = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };

const engines: Engine[] = [];
const connections: RawConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

function engineOf(tools: TaskTools['tools'] | undefined): Engine {
  const engine = createEngine({
    ...(tools ? { tools, prompts: [], resources: [] } : greetingDefinitions),
    keyring: createKeyring([generateKey()]),
    audience: 'raw-test',
    log: () => {},
  });
  engines.push(engine);
  return engine;
}
async function serve(engine: Engine, principal?: string): Promise<RawConnection> {
  const connection = await connectRaw(engine, principal);
  connections.push(connection);
  return connection;
}
async function taskServer(): Promise<TaskTools & { engine: Engine; connection: RawConnection }> {
  const tools = createTaskTools();
  const engine = engineOf(tools.tools);
  return { ...tools, engine, connection: await serve(engine) };
}

/** tasks/get until the task has `status` (the work runs in the background); a client polls the same way. */
async function until(connection: RawConnection, taskId: string, status: string): Promise<Record<string, unknown>> {
  for (let polls = 0; polls < 500; polls++) {
    const { result, error } = await connection.request('tasks/get', { taskId }, CONSENTS);
    if (error) throw new Error(`tasks/get answered ${JSON.stringify(error)}`);
    if (result?.status === status) return result;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`the task never reached ${status}`);
}
const created = async (connection: RawConnection): Promise<string> => {
  const { result } = await connection.request('tools/call', { name: 'gated_report', arguments: {} }, CONSENTS);
  expect(result).toMatchObject({ resultType: 'task', status: 'working' });
  return result?.taskId as string;
};
/** An empty ack as the SDK stamps it: complete, with nothing of a task in it. */
const expectAck = (reply: RawReply) => {
  expect(reply.error).toBeUndefined();
  expect(reply.result?.resultType).toBe('complete');
  expect(Object.keys(reply.result ?? {}).sort()).toEqual(['_meta', 'resultType']);
};

describe('the tasks extension in the server capabilities', () => {
  it('is declared on 2026-07-28 when a tool can answer a task, and not when none can', async () => {
    const { connection } = await taskServer();
    expect((await connection.request('server/discover', {}, {})).result?.capabilities).toEqual({
      tools: {},
      extensions: { [TASKS_EXTENSION]: {} },
    });
    const plain = await serve(engineOf(undefined));
    expect((await plain.request('server/discover', {}, {})).result?.capabilities).not.toHaveProperty('extensions');
  });

  it('is not declared to a 2025-era host, where the extension is not defined', async () => {
    const tools = createTaskTools();
    const host = await connectInMemory({ era: 'legacy', engine: { tools: tools.tools, prompts: [], resources: [] } });
    try {
      expect(host.client.getServerCapabilities()).toEqual({ tools: {} });
    } finally {
      await host.close();
      await host.engine.close();
    }
  });
});

describe('a client that declares the tasks extension', () => {
  it('gets the long work as a flat task handle (no content, no requestState), and tasks/get gives it back as working', async () => {
    const { connection } = await taskServer();
    const { result } = await connection.request('tools/call', { name: 'gated_report', arguments: {} }, CONSENTS);
    expect(result).toMatchObject({
      resultType: 'task',
      taskId: expect.any(String),
      status: 'working',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/),
      lastUpdatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/),
    });
    for (const absent of ['content', 'requestState', 'inputRequests', 'task', 'result', 'error']) expect(result).not.toHaveProperty(absent);

    const got = await connection.request('tasks/get', { taskId: result?.taskId }, CONSENTS);
    expect(got.result).toMatchObject({ resultType: 'complete', taskId: result?.taskId, status: 'working' });
  });

  it('answers the question the task asks through tasks/update, and the task completes with the tool result', async () => {
    const { connection, compile } = await taskServer();
    const taskId = await created(connection);
    compile.open();
    const parked = await until(connection, taskId, 'input_required');
    const inputRequests = parked.inputRequests as Record<string, { method: string; params: { message: string } }>;
    const [key, ...others] = Object.keys(inputRequests);
    expect(others).toEqual([]);
    expect(inputRequests[key!]).toMatchObject({ method: 'elicitation/create', params: { message: 'The report is compiled. Publish it?' } });

    expectAck(
      await connection.request(
        'tasks/update',
        { taskId, inputResponses: { [key!]: { action: 'accept', content: { publish: true } } } },
        CONSENTS,
      ),
    );
    const done = await until(connection, taskId, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Report published.' }] });
    expect(done).not.toHaveProperty('inputRequests');
  });

  it("tasks/cancel stops the work through its AbortSignal and acks with an empty result; a finished task's cancel is acked too", async () => {
    const { connection, aborted } = await taskServer();
    const taskId = await created(connection);
    expectAck(await connection.request('tasks/cancel', { taskId }, CONSENTS));
    await aborted;
    await until(connection, taskId, 'cancelled');
    expectAck(await connection.request('tasks/cancel', { taskId }, CONSENTS));
  });

  it("gets -32602 for a task id it does not know, another principal's included, and for params without a taskId", async () => {
    const { connection, engine } = await taskServer();
    const taskId = await created(connection);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect((await connection.request(method, { taskId: 'no-such-task' }, CONSENTS)).error).toMatchObject({ code: -32602 });
      expect((await connection.request(method, {}, CONSENTS)).error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('taskId'),
      });
    }
    const bob = await serve(engine, 'bob');
    expect((await bob.request('tasks/get', { taskId }, CONSENTS)).error).toMatchObject({ code: -32602 });
  });

  it('gets -32601 for tasks/result and tasks/list, which 2026-07-28 tasks do not have', async () => {
    const { connection } = await taskServer();
    for (const method of ['tasks/result', 'tasks/list']) {
      expect((await connection.request(method, { taskId: 'any' }, CONSENTS)).error).toMatchObject({ code: -32601 });
    }
  });
});

describe('a client that does not declare the tasks extension', () => {
  it('gets the tool answered in the request: its question, not a task', async () => {
    const { connection, compile } = await taskServer();
    compile.open();
    const { result } = await connection.request('tools/call', { name: 'gated_report', arguments: {} }, DOES_NOT);
    expect(result).toMatchObject({ resultType: 'input_required', inputRequests: expect.any(Object) });
    expect(result).not.toHaveProperty('taskId');
  });

  it('gets -32021 naming the extension for a tool that runs only as a task', async () => {
    const { connection } = await taskServer();
    const { error } = await connection.request('tools/call', { name: 'needs_task', arguments: {} }, DOES_NOT);
    expect(error).toMatchObject({ code: -32021, data: REQUIRED });
    expect((await connection.request('tools/call', { name: 'needs_task', arguments: {} }, CONSENTS)).result).toMatchObject({
      resultType: 'task',
    });
  });

  it('gets -32021 naming the extension from every task method, before the task is looked up', async () => {
    const { connection } = await taskServer();
    const taskId = await created(connection);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      for (const id of ['gate-test', taskId]) {
        const { error } = await connection.request(method, { taskId: id }, DOES_NOT);
        expect(error).toMatchObject({ code: -32021, message: expect.stringContaining(TASKS_EXTENSION), data: REQUIRED });
      }
    }
  });
});
