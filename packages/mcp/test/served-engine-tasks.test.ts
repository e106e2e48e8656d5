// A Node server keeps its tasks beside the effect ledger it opened (ROUNDTRIP_LEDGER): in the ledger's SQLite
// file, so a task parked on a question outlives a restart, or in its PostgreSQL database, so any instance
// answers tasks/get, tasks/update and tasks/cancel of a parked task, and runs its work as a job of the queue
// beside it. The PostgreSQL test needs ROUNDTRIP_TEST_PG
// (see the engine's postgres-test-database.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey, TASKS_EXTENSION } from '@roundtrip/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../engine/test/postgres-test-database.ts';
import { untilStatus } from '../../engine/test/tasks-tools.ts';
import { openServedEngine, resolveServerSettings, type ServedEngine } from '../src/node/index.ts';
import { createTaskTools } from './fixtures/task-definitions.ts';

const TASKS = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const asAda = (taskId: string) => ({ taskId, principal: 'ada', capabilities: TASKS });
const key = generateKey();
const served: ServedEngine[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((server) => server.close()));
});

/** A server's engine over ROUNDTRIP_LEDGER = `ledger`, with the report tool; its gate opens the report's long step. */
async function serve(ledger: string) {
  const { tools, compile } = createTaskTools();
  const settings = resolveServerSettings('tasks-test', { ROUNDTRIP_KEY: key, ROUNDTRIP_PRINCIPAL: 'ada', ROUNDTRIP_LEDGER: ledger });
  const server = await openServedEngine({ name: 'tasks-test', tools }, settings, () => {});
  served.push(server);
  return { engine: server.engine, server, compile };
}

/** Starts the report as a task on `engine`; its id. */
async function startReport(engine: ServedEngine['engine']): Promise<string> {
  const outcome = await engine.callTool({ name: 'gated_report', arguments: {}, principal: 'ada', capabilities: TASKS });
  expect(outcome.type, JSON.stringify(outcome)).toBe('task');
  return outcome.type === 'task' ? outcome.task.taskId : '';
}

describe('a Node server with its ledger in a SQLite file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'roundtrip-served-tasks-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps its tasks in that file: a task parked on its question is answered after a restart', async () => {
    const file = join(dir, 'effects.db');
    const before = await serve(file);
    const taskId = await startReport(before.engine);
    before.compile.open();
    expect(Object.keys((await untilStatus(before.engine, taskId, 'input_required')).inputRequests!)).toEqual(['publish.1']);
    await before.server.close();

    const after = await serve(file);
    expect(await after.engine.getTask(asAda(taskId))).toMatchObject({ type: 'complete', task: { status: 'input_required' } });
    const answered = await after.engine.updateTask({
      ...asAda(taskId),
      inputResponses: { 'publish.1': { action: 'accept', content: { publish: true } } },
    });
    expect(answered).toEqual({ type: 'complete' });
    const done = await untilStatus(after.engine, taskId, 'completed');
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Report published.' }]);
  });

  it('records a task whose work the closing server stopped as cancelled, as the next server reads it', async () => {
    const file = join(dir, 'stopped.db');
    const before = await serve(file);
    const taskId = await startReport(before.engine);
    await before.server.close();
    const after = await serve(file);
    expect(await after.engine.getTask(asAda(taskId))).toMatchObject({ type: 'complete', task: { status: 'cancelled' } });
  });
});

/**
 * Polls tasks/get with a short pause between polls until the task has `status`: on PostgreSQL its work is a job
 * of the queue, taken in its own time (NOTIFY, or the queue's next look), not within a few event-loop turns.
 */
async function settled(engine: ServedEngine['engine'], taskId: string, status: string) {
  for (let poll = 0; poll < 1500; poll++) {
    const got = await engine.getTask(asAda(taskId));
    if (got.type === 'complete' && got.task.status === status) return got.task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} did not become ${status} within 30 s`);
}

describe.skipIf(skipPostgres)('Node servers with their ledger in one PostgreSQL database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('answer each other’s tasks: created on A; read, answered and finished on B; a parked one cancelled from B', async () => {
    const { url, schema } = await db.freshSchema();
    const a = await serve(url);
    const b = await serve(url);
    const taskId = await startReport(a.engine);
    expect(await b.engine.getTask(asAda(taskId))).toMatchObject({ type: 'complete', task: { status: 'working' } });
    // its work is a job of the queue both servers take from: whichever runs it, its long step may go on
    a.compile.open();
    b.compile.open();
    await settled(b.engine, taskId, 'input_required');
    await b.engine.updateTask({ ...asAda(taskId), inputResponses: { 'publish.1': { action: 'accept', content: { publish: false } } } });
    const done = await settled(a.engine, taskId, 'completed');
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Report kept.' }]);

    const parkedId = await startReport(a.engine);
    await settled(b.engine, parkedId, 'input_required');
    expect(await b.engine.cancelTask(asAda(parkedId))).toEqual({ type: 'complete' });
    expect(await a.engine.getTask(asAda(parkedId))).toMatchObject({ type: 'complete', task: { status: 'cancelled' } });
    const { rows } = await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.roundtrip_tasks`);
    expect(Number(rows[0]!.n)).toBe(2);
  });
});
