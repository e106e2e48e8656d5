// The one contract every task store keeps (memory, SQLite, PostgreSQL): the same tests, run by each store's
// test file on a store of its own. First the store's calls, then what the engine builds on them: two engines
// on one store, where one creates a task and the other answers and finishes it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord, TaskStore } from '../src/index.ts';
import { accept, makeEngine, textIn } from './support.ts';
import { heldWork, longTool, TASKS, untilStatus } from './tasks-tools.ts';

/** One test's store. */
export interface TaskStoreFixture {
  /** A handle on the store: a new connection each call, where the store has connections; else the same store. */
  open(): Promise<TaskStore>;
  /** Closes every handle opened and removes the store. */
  close(): Promise<void>;
}

const T0 = 1_800_000_000_000;

/** A record with every field set; `overrides` replace some. */
function fullRecord(overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId: 'task_1',
    principalTag: new Uint8Array([0, 1, 2, 254, 255, 128, 7]),
    tool: 'export_orders',
    // key order kept, text as written: nested JSON, unicode, a NUL, numbers that are not integers, and a
    // "__proto__" key a client may send (JSON.parse makes it a key; it must stay one, not become a prototype)
    args: {
      zeta: 1,
      alpha: { b: [1, 'two', null, true, { nested: ['é', '🧾', '\u0000'] }], a: 0.5 },
      empty: {},
      ...(JSON.parse('{"nested":{"__proto__":{"isAdmin":true}}}') as Record<string, unknown>),
    },
    capabilities: { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
    run: 'cnVuXzE',
    status: 'input_required',
    statusMessage: 'Waiting for you…',
    createdAt: T0,
    lastUpdatedAt: T0 + 5,
    ttlMs: 60_000,
    pollIntervalMs: 250,
    sealed: 'rt1.k1.c2VhbGVk',
    pending: [
      {
        key: 'confirm.1',
        question: 'confirm',
        hash: new Uint8Array([9, 8, 7, 0, 255]),
        request: {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: {} } },
        },
      },
    ],
    nextKey: 2,
    result: { content: [{ type: 'text', text: 'Done' }], structuredContent: { z: 1, a: 2 } },
    error: { code: -32603, message: 'failed', data: { why: 'x' } },
    cancelRequested: true,
    version: 0,
    ...overrides,
  };
}

/** A working task's record with the optional fields absent (but those `overrides` set). */
export function bareRecord(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const record = fullRecord({ status: 'working', capabilities: undefined, pending: [], cancelRequested: false });
  for (const key of ['statusMessage', 'sealed', 'result', 'error'] as const) delete record[key];
  return { ...record, ...overrides };
}

export function describeTaskStoreContract(name: string, freshStore: () => Promise<TaskStoreFixture>): void {
  describe(`${name} keeps the task store contract`, () => {
    let fixture: TaskStoreFixture;
    beforeEach(async () => {
      fixture = await freshStore();
    });
    afterEach(async () => {
      await fixture.close();
    });

    it('gives a record back exactly as it was created: bytes as bytes, JSON with its key order, optional fields absent', async () => {
      const store = await fixture.open();
      const full = fullRecord();
      const bare = bareRecord({ taskId: 'task_2' });
      await store.create(full);
      await store.create(bare);
      const other = await fixture.open();
      const read = await other.read('task_1', T0 + 1);
      expect(read).toStrictEqual(full);
      expect(read!.principalTag).toBeInstanceOf(Uint8Array);
      expect(read!.pending[0]!.hash).toBeInstanceOf(Uint8Array);
      expect(JSON.stringify(read!.args)).toBe(JSON.stringify(full.args));
      expect(Object.keys(read!.args.nested as object)).toEqual(['__proto__']);
      expect((read!.args.nested as { isAdmin?: unknown }).isAdmin).toBeUndefined();
      expect(JSON.stringify(read!.result)).toBe(JSON.stringify(full.result));
      const readBare = await other.read('task_2', T0 + 1);
      expect(readBare).toEqual(bare);
      for (const key of ['statusMessage', 'sealed', 'result', 'error'] as const) expect(readBare).not.toHaveProperty(key);
      expect(await other.read('task_3', T0 + 1)).toBeUndefined();
    });

    it('keeps records apart from the objects given and read: changing those, nested values too, changes nothing kept', async () => {
      const store = await fixture.open();
      const given = fullRecord();
      await store.create(given);
      const change = (record: TaskRecord) => {
        record.principalTag[0] = 99;
        (record.args.alpha as { b: unknown[] }).b.push('more');
        record.capabilities!.elicitation = { url: {} };
        record.pending[0]!.hash[0] = 99;
        (record.pending[0]!.request.params as { message: string }).message = 'changed';
        record.result!.content.push({ type: 'text', text: 'more' });
        (record.error!.data as { why: string }).why = 'changed';
      };
      change(given);
      change((await store.read('task_1', T0))!);
      expect(await store.read('task_1', T0)).toStrictEqual(fullRecord());
      const written = fullRecord({ statusMessage: 'written' });
      expect(await store.write(written, 0)).toBe('ok');
      change(written);
      expect(await store.read('task_1', T0)).toStrictEqual(fullRecord({ statusMessage: 'written', version: 1 }));
    });

    it('refuses a second task with an id that exists, and keeps the first', async () => {
      const store = await fixture.open();
      await store.create(fullRecord());
      await expect(store.create(bareRecord())).rejects.toThrow('task task_1 exists already');
      expect(await store.read('task_1', T0)).toEqual(fullRecord());
    });

    it('writes only at the expected version (compare-and-set), one more each time; an unknown task is a conflict', async () => {
      const store = await fixture.open();
      await store.create(bareRecord());
      const working = await store.read('task_1', T0);
      const changed = { ...working!, status: 'completed' as const, result: { content: [{ type: 'text' as const, text: 'ok' }] } };
      expect(await store.write(changed, 0)).toBe('ok');
      expect(await store.read('task_1', T0)).toEqual({ ...changed, version: 1 });
      // a writer that read version 0 lost the race: nothing of its change is kept
      expect(await store.write({ ...working!, statusMessage: 'stale' }, 0)).toBe('conflict');
      expect(await store.read('task_1', T0)).toEqual({ ...changed, version: 1 });
      expect(await store.write({ ...changed, status: 'failed' }, 1)).toBe('ok');
      expect(await store.read('task_1', T0)).toMatchObject({ status: 'failed', version: 2 });
      expect(await store.write(bareRecord({ taskId: 'nobody' }), 0)).toBe('conflict');
      expect(await store.read('nobody', T0)).toBeUndefined();
    });

    it('lets exactly one of two writers at the same version win, on two handles at once', async () => {
      const store = await fixture.open();
      const other = await fixture.open();
      await store.create(bareRecord());
      const [a, b] = await Promise.all([
        store.write(bareRecord({ statusMessage: 'from a' }), 0),
        other.write(bareRecord({ statusMessage: 'from b' }), 0),
      ]);
      expect([a, b].sort()).toEqual(['conflict', 'ok']);
      const kept = await store.read('task_1', T0);
      expect(kept).toMatchObject({ statusMessage: a === 'ok' ? 'from a' : 'from b', version: 1 });
    });

    it('reads a task as absent from createdAt + ttlMs on, and removes it then', async () => {
      const store = await fixture.open();
      await store.create(bareRecord({ ttlMs: 1000 }));
      expect(await store.read('task_1', T0 + 999)).toMatchObject({ taskId: 'task_1' });
      expect(await store.read('task_1', T0 + 1000)).toBeUndefined();
      // removed: a reader whose clock is behind does not find it again, and a write to it is a conflict
      expect(await store.read('task_1', T0)).toBeUndefined();
      expect(await store.write(bareRecord({ ttlMs: 1000 }), 0)).toBe('conflict');
    });

    it('removes expired tasks nobody reads as new ones are created, and an expired id may be used again', async () => {
      const store = await fixture.open();
      await store.create(bareRecord({ taskId: 'old', ttlMs: 1000 }));
      await store.create(bareRecord({ taskId: 'young', ttlMs: 60_000 }));
      await store.create(bareRecord({ taskId: 'new', createdAt: T0 + 1000, lastUpdatedAt: T0 + 1000 }));
      // gone, even for a clock that says it has not expired yet
      expect(await store.read('old', T0)).toBeUndefined();
      expect(await store.read('young', T0)).toMatchObject({ taskId: 'young' });
      await store.create(bareRecord({ taskId: 'young', createdAt: T0 + 60_000, lastUpdatedAt: T0 + 60_000, tool: 'again' }));
      expect(await store.read('young', T0 + 60_000)).toMatchObject({ tool: 'again', version: 0 });
    });

    it('serves a task to any engine on the store: created on A, read, answered and finished on B', async () => {
      const { state, work } = heldWork();
      const tool = longTool(work, { task: 'optional', after: 'confirm' });
      const a = makeEngine([tool], { tasks: { store: await fixture.open() } });
      const b = makeEngine([tool], { tasks: { store: await fixture.open() } });
      const created = await a.call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS });
      expect(created.type, JSON.stringify(created)).toBe('task');
      const { taskId } = (created as { task: { taskId: string } }).task;
      // B sees the task A runs, as working
      expect(await b.engine.getTask({ taskId, principal: 'ada', capabilities: TASKS })).toMatchObject({
        type: 'complete',
        task: { taskId, status: 'working', statusMessage: 'Computing…' },
      });
      // another principal is told on B that there is no such task
      expect(await b.engine.getTask({ taskId, principal: 'eve', capabilities: TASKS })).toMatchObject({ type: 'error' });
      state.hold.resolve('r');
      const parked = await untilStatus(b.engine, taskId, 'input_required');
      expect(Object.keys(parked.inputRequests!)).toEqual(['confirm.1']);
      // B rehydrates the parked task from its sealed snapshot and feeds it the answer
      const answered = await b.engine.updateTask({
        taskId,
        principal: 'ada',
        capabilities: TASKS,
        inputResponses: { 'confirm.1': accept({ confirm: true }) },
      });
      expect(answered).toEqual({ type: 'complete' });
      const done = await untilStatus(a.engine, taskId, 'completed');
      expect(textIn(done.result?.content[0])).toBe('Done x: r');
      expect(state.started).toBe(1);
      await Promise.all([a.engine.close(), b.engine.close()]);
    });

    it('cancels a task parked on A from B at once', async () => {
      const { state, work } = heldWork();
      const tool = longTool(work, { task: 'optional', after: 'confirm' });
      const a = makeEngine([tool], { tasks: { store: await fixture.open() } });
      const b = makeEngine([tool], { tasks: { store: await fixture.open() } });
      const created = await a.call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS });
      const { taskId } = (created as { task: { taskId: string } }).task;
      state.hold.resolve('r');
      await untilStatus(a.engine, taskId, 'input_required');
      expect(await b.engine.cancelTask({ taskId, principal: 'ada', capabilities: TASKS })).toEqual({ type: 'complete' });
      const got = await a.engine.getTask({ taskId, principal: 'ada', capabilities: TASKS });
      expect(got).toMatchObject({ type: 'complete', task: { status: 'cancelled' } });
      expect(got.type === 'complete' && got.task).not.toHaveProperty('inputRequests');
      await Promise.all([a.engine.close(), b.engine.close()]);
    });
  });
}
