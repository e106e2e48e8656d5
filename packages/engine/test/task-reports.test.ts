// Task reports for an inspector (`inspectTasks`): every recorded change of a task, from its creation through
// its questions to its end, with the author's words and the keys it asks, never answers, arguments, results
// or the sealed snapshot; a hook that throws is logged and the task goes on. The hook's types: its own, beside
// `inspect`, whose round-only handlers keep compiling (checked by tsc at the repository root).
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EngineOptions, RoundReport, TaskReport, TaskStatus } from '../src/index.ts';
import { accept, makeEngine } from './support.ts';
import { heldWork, longTool, TASKS, untilStatus } from './tasks-tools.ts';

const asAda = (taskId: string) => ({ taskId, principal: 'ada', capabilities: TASKS });

async function startTask(options: Parameters<typeof longTool>[1], inspectTasks: (report: TaskReport) => void) {
  const { state, work } = heldWork();
  const made = makeEngine([longTool(work, options)], { inspectTasks, now: () => 5_000 });
  const outcome = await made.call({ name: 'slow_compute', arguments: { label: 'the-secret-label' }, capabilities: TASKS });
  if (outcome.type !== 'task') throw new Error(`expected a task: ${JSON.stringify(outcome)}`);
  return { ...made, state, taskId: outcome.task.taskId };
}

/** The reports' statuses, each once in a row (a task reports every write: a working task sealed again is one more). */
const statuses = (reports: readonly TaskReport[]) =>
  reports.map((r) => r.status).filter((status, i, all) => i === 0 || all[i - 1] !== status);

describe('task reports for an inspector', () => {
  it('reports the task from its creation through its question to its end, every report newer than the one before', async () => {
    const reports: TaskReport[] = [];
    const { engine, state, taskId } = await startTask({ task: 'optional', after: 'confirm' }, (r) => reports.push(r));
    expect(reports).toEqual([
      {
        tool: 'slow_compute',
        run: expect.any(String),
        taskId,
        status: 'working',
        statusMessage: 'Computing…',
        asked: [],
        version: 0,
        createdAt: 5_000,
        lastUpdatedAt: 5_000,
        at: 5_000,
      },
    ]);
    state.hold.resolve('r');
    await untilStatus(engine, taskId, 'input_required');
    expect(reports.at(-1)).toMatchObject({ status: 'input_required', asked: ['confirm.1'] });
    await engine.updateTask({ ...asAda(taskId), inputResponses: { 'confirm.1': accept({ confirm: true }) } });
    await untilStatus(engine, taskId, 'completed');
    expect(statuses(reports)).toEqual(['working', 'input_required', 'completed']);
    expect(reports.at(-1)).toEqual({
      tool: 'slow_compute',
      run: reports[0]!.run,
      taskId,
      status: 'completed',
      asked: [],
      version: reports.length - 1,
      createdAt: 5_000,
      lastUpdatedAt: 5_000,
      at: 5_000,
    });
    expect(reports.map((r) => r.version)).toEqual(reports.map((_, i) => i));
    // no argument, answer, result or sealed state
    const text = JSON.stringify(reports);
    for (const secret of ['the-secret-label', '"confirm":true', 'Done ', 'rt1.', 'sealed', 'principal']) expect(text).not.toContain(secret);
    await engine.close();
  });

  it('reports a task asking two questions at once under both keys, and a cancelled one', async () => {
    const reports: TaskReport[] = [];
    const { engine, state, taskId } = await startTask({ task: 'optional', after: 'both' }, (r) => reports.push(r));
    state.hold.resolve('r');
    await untilStatus(engine, taskId, 'input_required');
    expect([...reports.at(-1)!.asked].sort()).toEqual(['confirm.1', 'name.2']);
    await engine.cancelTask(asAda(taskId));
    expect(reports.at(-1)).toMatchObject({ status: 'cancelled', asked: [] });
    expect(reports.at(-1)).not.toHaveProperty('cancelRequested');
    await engine.close();
  });

  it('reports a working task asked to cancel as cancelling, then cancelled once its work stopped', async () => {
    const reports: TaskReport[] = [];
    const { engine, state, taskId } = await startTask({ task: 'optional' }, (r) => reports.push(r));
    await engine.cancelTask(asAda(taskId));
    await untilStatus(engine, taskId, 'cancelled');
    expect(state.stopped).toBe(1);
    expect(reports.map((r) => [r.status, r.cancelRequested])).toEqual([
      ['working', undefined],
      ['working', true],
      ['cancelled', undefined],
    ]);
    await engine.close();
  });

  it('reports why a task failed: what its client was told', async () => {
    const reports: TaskReport[] = [];
    const { engine, state, taskId } = await startTask({ task: 'optional' }, (r) => reports.push(r));
    state.hold.reject(new Error('the database is down'));
    await untilStatus(engine, taskId, 'failed');
    expect(reports.at(-1)).toMatchObject({
      status: 'failed',
      error: "Tool 'slow_compute' failed on the server before it could finish; the details are in the server's log.",
    });
    expect(reports.at(-1)).not.toHaveProperty('statusMessage');
    await engine.close();
  });

  it('logs a hook that throws, and the task goes on', async () => {
    const { engine, state, taskId, logs } = await startTask({ task: 'optional' }, () => {
      throw new Error('inspector broke');
    });
    state.hold.resolve('r');
    await untilStatus(engine, taskId, 'completed');
    const failed = logs.filter((entry) => entry.event === 'inspect_failed');
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed[0]).toMatchObject({
      level: 'warn',
      code: 'inspect_threw',
      target: 'tool slow_compute',
      message: 'the inspect hook threw: inspector broke',
    });
    await engine.close();
  });
});

describe('the types of task reports', () => {
  it('has a hook of its own, beside the round reports of `inspect`', () => {
    expectTypeOf<EngineOptions['inspectTasks']>().toEqualTypeOf<((report: TaskReport) => void) | undefined>();
    // a round-only handler written before tasks still fits `inspect`
    expectTypeOf<(report: RoundReport) => void>().toExtend<NonNullable<EngineOptions['inspect']>>();
    expectTypeOf<TaskReport['status']>().toEqualTypeOf<TaskStatus>();
    expectTypeOf<TaskReport['asked']>().toEqualTypeOf<readonly string[]>();
    // nothing a task holds that an inspector must not see
    expectTypeOf<TaskReport>().not.toHaveProperty('sealed');
    expectTypeOf<TaskReport>().not.toHaveProperty('args');
    expectTypeOf<TaskReport>().not.toHaveProperty('result');
    expectTypeOf<TaskReport>().not.toHaveProperty('principalTag');
  });

  it("reports the round that became a task as settled in the long step's state", async () => {
    const rounds: RoundReport[] = [];
    const { work } = heldWork();
    const made = makeEngine([longTool(work, { task: 'optional' })], { inspect: (report) => rounds.push(report) });
    const outcome = await made.call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS });
    expect(outcome.type).toBe('task');
    expect(rounds).toMatchObject([{ outcome: 'task', settled: 'working' }]);
    await made.engine.close();
  });
});
