// The words of a task's work: the request that started the task hears of the work it started, then answers
// with the handle; what the work says after that goes to the task's statusMessage, never to that request
// (its client has its answer, and a transport has no request left to send progress on).

import { describe, expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { defineTool, type ProgressUpdate } from '../src/index.ts';
import { deferred, makeEngine } from './support.ts';
import { TASKS, untilStatus } from './tasks-tools.ts';

function twoStepTool(firstDone = false) {
  const first = deferred<void>();
  if (firstDone) first.resolve();
  const second = deferred<void>();
  const machine = setup({
    actors: { fetch: fromPromise(() => first.promise), write: fromPromise(() => second.promise) },
  }).createMachine({
    id: 'two-steps',
    initial: 'fetching',
    states: {
      fetching: { meta: { long: true, progress: 'Fetching the orders…' }, invoke: { id: 'fetch', src: 'fetch', onDone: 'writing' } },
      writing: { meta: { long: true, progress: 'Writing the report…' }, invoke: { id: 'write', src: 'write', onDone: 'done' } },
      done: { type: 'final' },
    },
  });
  const tool = defineTool({
    name: 'build_report',
    description: 'Builds a report in two long steps',
    input: z.object({}),
    machine,
    result: () => ({ text: 'Report built' }),
    task: 'optional',
  });
  return { tool, first, second };
}

describe('progress of a task', () => {
  it('reaches the starting request only until it has its handle; later words become the statusMessage', async () => {
    const { tool, first, second } = twoStepTool();
    const { engine, call } = makeEngine([tool]);
    const heard: ProgressUpdate[] = [];
    const outcome = await call({ name: 'build_report', arguments: {}, capabilities: TASKS, onProgress: (update) => heard.push(update) });
    expect(outcome.type).toBe('task');
    const taskId = outcome.type === 'task' ? outcome.task.taskId : '';
    expect(heard.map((update) => update.message)).toEqual(['Fetching the orders…']);
    first.resolve();
    // the work goes on to its second step: the task says so, the request hears nothing more
    for (let turn = 0; turn < 100; turn++) {
      const got = await engine.getTask({ taskId, principal: 'ada', capabilities: TASKS });
      if (got.type === 'complete' && got.task.statusMessage === 'Writing the report…') break;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const got = await engine.getTask({ taskId, principal: 'ada', capabilities: TASKS });
    expect(got).toMatchObject({ type: 'complete', task: { status: 'working', statusMessage: 'Writing the report…' } });
    second.resolve();
    await untilStatus(engine, taskId, 'completed');
    expect(heard.map((update) => update.message)).toEqual(['Fetching the orders…']);
    await engine.close();
  });

  it('records what the work did while the task was being recorded: the words of the step it moved on to', async () => {
    // the first step ends at once, while the round records the task: no later change would say so
    const { tool, second } = twoStepTool(true);
    const { engine, call } = makeEngine([tool]);
    const outcome = await call({ name: 'build_report', arguments: {}, capabilities: TASKS });
    const taskId = outcome.type === 'task' ? outcome.task.taskId : '';
    let said: string | undefined;
    for (let turn = 0; turn < 100 && said !== 'Writing the report…'; turn++) {
      const got = await engine.getTask({ taskId, principal: 'ada', capabilities: TASKS });
      said = got.type === 'complete' ? got.task.statusMessage : undefined;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(said).toBe('Writing the report…');
    second.resolve();
    await untilStatus(engine, taskId, 'completed');
    await engine.close();
  });
});
