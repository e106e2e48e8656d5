// Two engines on one task store answering one parked task at the same instant: the store's compare-and-set
// takes one answer; the other request is told what happened and what to do, and its rehydrated work is stopped.
import { describe, expect, it } from 'vitest';
import { createMemoryTaskStore } from '../src/index.ts';
import { accept, makeEngine, textIn } from './support.ts';
import { heldWork, longTool, TASKS, untilStatus } from './tasks-tools.ts';

describe('a parked task answered on two engines at once', () => {
  it('takes them one after the other, as one engine would: the later answer is to a retired key, so it is ignored', async () => {
    const { state, work } = heldWork();
    const store = createMemoryTaskStore();
    const tool = longTool(work, { task: 'optional', after: 'confirm' });
    const a = makeEngine([tool], { tasks: { store } });
    const b = makeEngine([tool], { tasks: { store } });
    const created = await a.call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS });
    const { taskId } = (created as { task: { taskId: string } }).task;
    state.hold.resolve('r');
    await untilStatus(a.engine, taskId, 'input_required');
    const answer = (confirm: boolean) => ({
      taskId,
      principal: 'ada',
      capabilities: TASKS,
      inputResponses: { 'confirm.1': accept({ confirm }) },
    });
    // A's answer asks again (confirm.2); B's, on the snapshot both read, would finish the task
    const acks = await Promise.all([a.engine.updateTask(answer(false)), b.engine.updateTask(answer(true))]);
    expect(acks).toEqual([{ type: 'complete' }, { type: 'complete' }]);
    const now = await untilStatus(b.engine, taskId, 'input_required');
    expect(Object.keys(now.inputRequests!)).toEqual(['confirm.2']);
    // the task goes on from A's answer
    await b.engine.updateTask({ ...answer(true), inputResponses: { 'confirm.2': accept({ confirm: true }) } });
    expect(textIn((await untilStatus(a.engine, taskId, 'completed')).result?.content[0])).toBe('Done x: r');
    expect(a.logs.concat(b.logs).filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
