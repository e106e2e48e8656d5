// Tasks across servers on PostgreSQL (createPostgresTaskQueue, pg-boss): two engines on one task store and one
// job queue, in this process. A task one creates runs as a job (on whichever takes it) and either answers for
// it; a cancel on the engine that does not run the work stops it where it runs; an engine that stops hands
// its running task to the other (told at once by NOTIFY), which runs it on from where it last settled. The
// death of a server (SIGKILL) is apps/demo/test/tasks-kill.test.ts. Needs ROUNDTRIP_TEST_PG (see
// postgres-test-database.ts); the option checks run without it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.ts';
import { createPostgresTaskQueue, createPostgresTaskStore, type PostgresTaskQueue, type PostgresTaskStore } from '../src/postgres/index.ts';
import { createTestDatabase, skipPostgres, type TestDatabase } from './postgres-test-database.ts';
import { refusedPort } from './refused-port.ts';
import { definitionError, makeEngine, sharedKeyring, type TestEngine, textIn } from './support.ts';
import { heldWork, longTool, TASKS } from './tasks-tools.ts';

describe('createPostgresTaskQueue, before any server answers', () => {
  it('refuses options it cannot use, naming them, and a URL that is not PostgreSQL', async () => {
    await expect(createPostgresTaskQueue({ url: 'postgres://u:p@127.0.0.1:1/db', leaseSeconds: 5 })).rejects.toThrow(
      "createPostgresTaskQueue: 'leaseSeconds' is 5; give a whole number from 10 (default 30).",
    );
    await expect(createPostgresTaskQueue({ url: 'mysql://u:p@host/db' })).rejects.toThrow(
      'createPostgresTaskQueue needs the URL of a PostgreSQL database, such as postgres://user:password@host:5432/database; it got a mysql: URL.',
    );
  });

  it('says which server it cannot reach, without the password', async () => {
    const port = await refusedPort();
    const failure = createPostgresTaskQueue({ url: `postgres://roundtrip:s3cret@127.0.0.1:${port}/orders`, onWarning: () => {} });
    await expect(failure).rejects.toThrow(
      `Could not open the task queue in the PostgreSQL database at postgres://roundtrip@127.0.0.1:${port}/orders`,
    );
    await expect(failure).rejects.not.toThrow('s3cret');
  });

  it('is refused by the engine without the store its servers share', async () => {
    const queue = { dispatch: async () => {}, work: async () => ({ stop: async () => {} }), cancel: async () => 'none' as const };
    const error = definitionError(() => createEngine({ tools: [], keyring: sharedKeyring, audience: 'x', tasks: { queue } }));
    expect(error.message).toContain("'tasks.queue' is given without 'tasks.store'");
  });
});

/** Polls, with a short pause between polls (a job queue answers in its own time), until `check` gives a value. */
async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  for (let poll = 0; poll < 1500; poll++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`waited 30 s for ${what}`);
}

describe.skipIf(skipPostgres)('tasks on two engines sharing a PostgreSQL task store and job queue', () => {
  let db: TestDatabase;
  let url: string;
  let jobs: string;
  const closing: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    const fresh = await db.freshSchema();
    url = fresh.url;
    jobs = `${fresh.schema}_jobs`;
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });
  afterAll(async () => {
    await db?.drop();
  });

  /**
   * An engine on the shared store and queue; `takesJobs`: whether it runs tasks' work (resumeTasks);
   * `checkIntervalSeconds`: how often its queue looks for jobs besides hearing of them.
   */
  async function server(
    tool: ReturnType<typeof longTool>,
    takesJobs: boolean,
    checkIntervalSeconds = 1,
  ): Promise<TestEngine & { queue: PostgresTaskQueue }> {
    const store: PostgresTaskStore = await createPostgresTaskStore({ url });
    const queue = await createPostgresTaskQueue({ url, leaseSeconds: 10, checkIntervalSeconds });
    // the URL's search_path names the queue's schema: deployments kept apart by schema keep their jobs apart
    expect(queue.schema).toBe(jobs);
    const made = makeEngine([tool], { tasks: { store, queue } });
    closing.push(
      () => store.close(),
      () => queue.close(),
      () => made.engine.close(),
    );
    if (takesJobs) await made.engine.resumeTasks();
    return { ...made, queue };
  }

  it('looks for leases that ran out every tenth of the lease, from 1 to 5 s, unless told how often', async () => {
    const checks: number[] = [];
    for (const options of [{ leaseSeconds: 10 }, {}, { leaseSeconds: 120 }, { leaseSeconds: 10, checkIntervalSeconds: 7 }]) {
      const queue = await createPostgresTaskQueue({ url, ...options });
      checks.push(queue.checkIntervalSeconds);
      await queue.close();
    }
    expect(checks).toEqual([1, 3, 5, 7]);
  });

  const get = async (made: TestEngine, taskId: string) => {
    const got = await made.engine.getTask({ taskId, principal: 'ada', capabilities: TASKS });
    if (got.type === 'error') throw new Error(JSON.stringify(got.error));
    return got.task;
  };
  const startTask = async (made: TestEngine, label: string) => {
    const outcome = await made.call({ name: 'slow_compute', arguments: { label }, capabilities: TASKS });
    if (outcome.type !== 'task') throw new Error(`expected a task, got ${JSON.stringify(outcome)}`);
    return outcome.task.taskId;
  };

  it('runs a task created on one engine as a job, and the other answers for it once it is done', async () => {
    const { state, work } = heldWork();
    const tool = longTool(work, { task: 'optional' });
    const worker = await server(tool, true);
    const front = await server(tool, false);
    const taskId = await startTask(front, 'a');
    // the round's own start of the work stopped when it was handed to the queue; the job started it again
    await until('the job to start the work', async () => (state.started === 2 ? true : undefined));
    expect(state.stopped).toBe(1);
    expect((await get(front, taskId)).status).toBe('working');
    state.hold.resolve('42');
    const done = await until('completed', async () => {
      const task = await get(front, taskId);
      return task.status === 'completed' ? task : undefined;
    });
    expect(textIn(done.result?.content[0])).toBe('Done a: 42');
    expect((await get(worker, taskId)).status).toBe('completed');
  });

  it('stops the work where it runs when the other engine is asked to cancel, and records the task cancelled', async () => {
    const { state, work } = heldWork();
    const tool = longTool(work, { task: 'optional' });
    await server(tool, true);
    const front = await server(tool, false);
    const taskId = await startTask(front, 'b');
    await until('the job to start the work', async () => (state.started === 2 ? true : undefined));
    expect(await front.engine.cancelTask({ taskId, principal: 'ada', capabilities: TASKS })).toEqual({ type: 'complete' });
    // the job's signal fires at its next lease renewal, on the engine running it
    const cancelled = await until('cancelled', async () => {
      const task = await get(front, taskId);
      return task.status === 'cancelled' ? task : undefined;
    });
    expect(cancelled.status).toBe('cancelled');
    expect(state.stopped).toBe(2);
  });

  it('hands a running task to the other engine when the one running it stops, which runs it on to the end', async () => {
    const { state, work } = heldWork();
    const tool = longTool(work, { task: 'optional' });
    const first = await server(tool, true);
    // it looks for jobs once a minute: it hears of the one handed back (NOTIFY), or the wait below gives up
    const second = await server(tool, false, 60);
    const taskId = await startTask(second, 'c');
    await until('the first engine to start the work', async () => (state.started === 2 ? true : undefined));
    await second.engine.resumeTasks();
    await first.engine.close();
    expect(state.stopped).toBe(2);
    await until('the second engine to start the work again', async () => (state.started === 3 ? true : undefined));
    expect((await get(second, taskId)).status).toBe('working');
    state.hold.resolve('7');
    const done = await until('completed', async () => {
      const task = await get(second, taskId);
      return task.status === 'completed' ? task : undefined;
    });
    expect(textIn(done.result?.content[0])).toBe('Done c: 7');
  });
});
