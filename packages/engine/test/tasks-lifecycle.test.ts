// Tasks (SEP-2663) through the engine's API: a long step becomes a task only for a client that consents;
// completed, failed, cancelled; another principal sees no task; a tool that requires tasks.
import { describe, expect, it } from 'vitest';
import { createMemoryTaskStore, TASKS_EXTENSION, type TaskHandle, type TaskRecord, type TaskStore } from '../src/index.ts';
import { complete, failed, makeEngine, textIn } from './support.ts';
import { heldWork, longTool, TASKS, untilStatus } from './tasks-tools.ts';

function taskOf(outcome: { type: string; task?: TaskHandle }): TaskHandle {
  expect(outcome.type, JSON.stringify(outcome)).toBe('task');
  return outcome.task!;
}

describe('a long step of a tool with task: optional', () => {
  it('becomes a task for a client that declares the tasks extension, recorded before the handle is answered', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { task: 'optional' })], { tasks: { ttlMs: 60_000, pollIntervalMs: 250 } });
    expect(engine.offersTasks()).toBe(true);
    const task = taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    expect(task).toMatchObject({ status: 'working', statusMessage: 'Computing…', ttlMs: 60_000, pollIntervalMs: 250 });
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(task.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    // at once, before the work went any further
    const got = await engine.getTask({ taskId: task.taskId, principal: 'ada', capabilities: TASKS });
    expect(got).toMatchObject({ type: 'complete', task: { taskId: task.taskId, status: 'working' } });
    state.hold.resolve('42');
    const done = await untilStatus(engine, task.taskId, 'completed');
    expect(textIn(done.result?.content[0])).toBe('Done x: 42');
    expect(done.result?.isError).toBeUndefined();
    expect(done).not.toHaveProperty('error');
    expect(state.started).toBe(1);
  });

  it('runs inside the request, as without tasks, for a client that does not consent', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { task: 'optional' })]);
    state.hold.resolve('7');
    const outcome = complete(await call({ name: 'slow_compute', arguments: { label: 'y' } }));
    expect(textIn(outcome.result.content[0])).toBe('Done y: 7');
    expect(engine.offersTasks()).toBe(true);
  });

  it('is never a task for a tool without the task option, even when the client consents', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work)]);
    expect(engine.offersTasks()).toBe(false);
    state.hold.resolve('1');
    complete(await call({ name: 'slow_compute', arguments: { label: 'z' }, capabilities: TASKS }));
  });

  it('ends failed with a JSON-RPC error, and no result, when the work fails the machine', async () => {
    const { state, work } = heldWork();
    const { engine, call, logs } = makeEngine([longTool(work, { task: 'optional' })]);
    const task = taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    state.hold.reject(new Error('disk on fire'));
    const ended = await untilStatus(engine, task.taskId, 'failed');
    expect(ended.error).toEqual({
      code: -32603,
      message: "Tool 'slow_compute' failed on the server before it could finish; the details are in the server's log.",
    });
    expect(ended).not.toHaveProperty('result');
    expect(logs.map((e) => e.event)).toContain('machine_error');
  });

  it('is cancelled once its work has stopped; cancelling again, or a finished task, is acknowledged', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { task: 'optional' })]);
    const task = taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    const request = { taskId: task.taskId, principal: 'ada', capabilities: TASKS };
    expect(await engine.cancelTask(request)).toEqual({ type: 'complete' });
    const ended = await untilStatus(engine, task.taskId, 'cancelled');
    expect(ended).not.toHaveProperty('result');
    expect(state.stopped).toBe(1);
    expect(await engine.cancelTask(request)).toEqual({ type: 'complete' });
  });

  it('stops on close(): the engine leaves no work running', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { task: 'optional' })]);
    const task = taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    await engine.close();
    expect(state.stopped).toBe(1);
    expect(await engine.getTask({ taskId: task.taskId, principal: 'ada', capabilities: TASKS })).toMatchObject({
      task: { status: 'cancelled' },
    });
  });

  it('is unknown (-32602) to another principal, and so is an id that was never made', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { task: 'optional' })]);
    const task = taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    for (const request of [
      { taskId: task.taskId, principal: 'eve', capabilities: TASKS },
      { taskId: 'no-such-task', principal: 'ada', capabilities: TASKS },
    ]) {
      for (const answer of [
        await engine.getTask(request),
        await engine.cancelTask(request),
        await engine.updateTask({ ...request, inputResponses: {} }),
      ]) {
        expect(failed(answer as never).error).toMatchObject({ code: -32602, message: 'Unknown task' });
      }
    }
    state.hold.resolve('still mine');
    expect((await untilStatus(engine, task.taskId, 'completed')).result).toBeDefined();
  });
});

describe("a working task's snapshot", () => {
  /** A memory store that keeps every record written to it; `resumable` gives it `abandoned`, as SQLite has. */
  function watchedStore(resumable: boolean): { store: TaskStore; written: TaskRecord[] } {
    const inner = createMemoryTaskStore();
    const written: TaskRecord[] = [];
    const store: TaskStore = {
      create(record) {
        written.push(structuredClone(record));
        return inner.create(record);
      },
      read: (taskId, now) => inner.read(taskId, now),
      write(record, version) {
        written.push(structuredClone(record));
        return inner.write(record, version);
      },
      ...(resumable && { abandoned: async () => [] }),
    };
    return { store, written };
  }

  it('is not sealed where nothing runs the task on from it (no queue, a store without abandoned); a parked one is', async () => {
    const { state, work } = heldWork();
    const { store, written } = watchedStore(false);
    const { engine, call } = makeEngine([longTool(work, { task: 'optional', after: 'confirm' })], { tasks: { store } });
    const task = taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    expect(written[0]).toMatchObject({ status: 'working' });
    expect(written[0]).not.toHaveProperty('sealed');
    state.hold.resolve('r');
    await untilStatus(engine, task.taskId, 'input_required');
    expect(written.at(-1)).toMatchObject({ status: 'input_required', sealed: expect.stringMatching(/^rt1\./) });
    await engine.close();
  });

  it('is sealed from the start where resumeTasks can run the task on from it (a store with abandoned)', async () => {
    const { work } = heldWork();
    const { store, written } = watchedStore(true);
    const { engine, call } = makeEngine([longTool(work, { task: 'optional' })], { tasks: { store } });
    taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    expect(written[0]).toMatchObject({ status: 'working', sealed: expect.stringMatching(/^rt1\./) });
    await engine.close();
  });
});

describe('a tool with task: required', () => {
  it('refuses a client that does not consent with -32021 naming the tasks extension, before any work', async () => {
    const { state, work } = heldWork();
    const { call } = makeEngine([longTool(work, { name: 'failing_job', task: 'required' })]);
    const refused = failed(await call({ name: 'failing_job', arguments: { label: 'x' } }));
    expect(refused.error.code).toBe(-32021);
    expect(refused.error.message).toContain(TASKS_EXTENSION);
    expect(refused.error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    expect(state.started).toBe(0);
  });

  it('ends completed with an error result (isError), not failed, when its result is a tool error', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { name: 'failing_job', task: 'required', isError: true })]);
    const task = taskOf(await call({ name: 'failing_job', arguments: { label: 'x' }, tasks: true }));
    state.hold.resolve('no');
    const done = await untilStatus(engine, task.taskId, 'completed');
    expect(done.result?.isError).toBe(true);
  });

  it('answers a task, completed, even when its machine ends without waiting on long work', async () => {
    const { state, work } = heldWork();
    state.hold.resolve('fast');
    const { engine, call } = makeEngine([longTool(work, { name: 'quick', task: 'required' })]);
    // the work resolved already, but XState still runs it: settle through the runner or inside the request
    const task = taskOf(await call({ name: 'quick', arguments: { label: 'q' }, capabilities: TASKS }));
    const done = await untilStatus(engine, task.taskId, 'completed');
    expect(textIn(done.result?.content[0])).toBe('Done q: fast');
  });
});
