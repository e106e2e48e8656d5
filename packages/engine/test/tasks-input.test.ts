// Tasks (SEP-2663) that ask: questions under minted keys, answered by tasks/update (in part, wrongly, or not at
// all), a parked task cancelled, an MRTR round before the task, and a once-effect kept at most once across rounds.
import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, type TaskHandle } from '../src/index.ts';
import { accept, inputRequired, makeEngine, textIn } from './support.ts';
import { heldWork, longTool, TASKS, untilStatus } from './tasks-tools.ts';

const taskOf = (outcome: { type: string; task?: TaskHandle }): TaskHandle => {
  expect(outcome.type, JSON.stringify(outcome)).toBe('task');
  return outcome.task!;
};
const asAda = (taskId: string) => ({ taskId, principal: 'ada', capabilities: TASKS });

describe('a task that asks', () => {
  it('parks input_required under minted keys; a wrong answer is asked again under a new key, never an old one', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { task: 'optional', after: 'confirm' })]);
    const { taskId } = taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    state.hold.resolve('r');
    const parked = await untilStatus(engine, taskId, 'input_required');
    expect(Object.keys(parked.inputRequests!)).toEqual(['confirm.1']);
    // unknown keys are acknowledged and ignored
    expect(await engine.updateTask({ ...asAda(taskId), inputResponses: { 'unknown-key': { ignored: true } } })).toEqual({
      type: 'complete',
    });
    expect(await engine.updateTask({ ...asAda(taskId), inputResponses: { 'confirm.1': accept({ confirm: 'yes' }) } })).toEqual({
      type: 'complete',
    });
    const again = await untilStatus(engine, taskId, 'input_required');
    expect(Object.keys(again.inputRequests!)).toEqual(['confirm.2']);
    // the retired key counts no more
    await engine.updateTask({ ...asAda(taskId), inputResponses: { 'confirm.1': accept({ confirm: true }) } });
    expect((await untilStatus(engine, taskId, 'input_required')).inputRequests).toHaveProperty(['confirm.2']);
    // the machine asks again (confirm: false loops): a third key
    await engine.updateTask({ ...asAda(taskId), inputResponses: { 'confirm.2': accept({ confirm: false }) } });
    expect(Object.keys((await untilStatus(engine, taskId, 'input_required')).inputRequests!)).toEqual(['confirm.3']);
    await engine.updateTask({ ...asAda(taskId), inputResponses: { 'confirm.3': accept({ confirm: true }) } });
    expect(textIn((await untilStatus(engine, taskId, 'completed')).result?.content[0])).toBe('Done x: r');
  });

  it('takes answers in part: right after the ack, the answered key is gone and the other still asked under its key', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { task: 'optional', after: 'both' })]);
    const { taskId } = taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    state.hold.resolve('r');
    const parked = await untilStatus(engine, taskId, 'input_required');
    expect(Object.keys(parked.inputRequests!).sort()).toEqual(['confirm.1', 'name.2']);
    await engine.updateTask({ ...asAda(taskId), inputResponses: { 'confirm.1': accept({ confirm: true }) } });
    const now = await engine.getTask(asAda(taskId));
    expect(now).toMatchObject({ task: { status: 'input_required' } });
    expect(Object.keys(now.type === 'complete' ? now.task.inputRequests! : {})).toEqual(['name.2']);
    await engine.updateTask({ ...asAda(taskId), inputResponses: { 'name.2': accept({ name: 'Ada' }) } });
    expect(textIn((await untilStatus(engine, taskId, 'completed')).result?.content[0])).toBe('Done x: r for Ada');
  });

  it('is cancelled at once while parked on a question', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { task: 'optional', after: 'confirm' })]);
    const { taskId } = taskOf(await call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS }));
    state.hold.resolve('r');
    await untilStatus(engine, taskId, 'input_required');
    expect(await engine.cancelTask(asAda(taskId))).toEqual({ type: 'complete' });
    const got = await engine.getTask(asAda(taskId));
    expect(got).toMatchObject({ task: { status: 'cancelled' } });
    expect(got.type === 'complete' && got.task).not.toHaveProperty('inputRequests');
  });

  it('may follow an MRTR round: the first call asks, the retry becomes the task and keeps the answer', async () => {
    const { state, work } = heldWork();
    const { engine, call } = makeEngine([longTool(work, { name: 'test_tool_with_task', task: 'required', before: true })]);
    const first = inputRequired(await call({ name: 'test_tool_with_task', arguments: { label: 'x' }, capabilities: TASKS }));
    expect(Object.keys(first.inputRequests)).toEqual(['name']);
    const retry = await call({
      name: 'test_tool_with_task',
      arguments: { label: 'x' },
      capabilities: TASKS,
      requestState: first.requestState,
      inputResponses: { name: accept({ name: 'Alice' }) },
    });
    const task = taskOf(retry);
    expect(task).not.toHaveProperty('requestState');
    state.hold.resolve('r');
    expect(textIn((await untilStatus(engine, task.taskId, 'completed')).result?.content[0])).toBe('Done x: r for Alice');
  });
});

describe('a once-effect inside a task', () => {
  const questions = defineQuestions<{ charges: string[] }>()({
    again: { message: 'Charge again?', schema: z.object({ again: z.boolean() }) },
  });

  it('runs once for the whole task, even when the task is rehydrated from its sealed snapshot and invokes it again', async () => {
    let charged = 0;
    const machine = setup({
      types: {
        context: {} as { charges: string[] },
        events: {} as AnswerEvents<typeof questions>,
        meta: {} as AskMeta<typeof questions>,
        output: {} as { charges: string[] },
      },
      actors: { charge: fromPromise(async () => `ch_${++charged}`) },
    }).createMachine({
      id: 'charging',
      context: { charges: [] },
      initial: 'charging',
      states: {
        charging: {
          meta: { long: true },
          invoke: {
            id: 'charge',
            src: 'charge',
            onDone: { target: 'asking', actions: assign({ charges: ({ context, event }) => [...context.charges, event.output] }) },
          },
        },
        asking: { meta: { ask: ['again'] }, on: { 'again.accept': 'recharging', 'again.*': 'done' } },
        recharging: {
          meta: { long: true },
          invoke: {
            id: 'charge',
            src: 'charge',
            onDone: { target: 'done', actions: assign({ charges: ({ context, event }) => [...context.charges, event.output] }) },
          },
        },
        done: { type: 'final', output: ({ context }) => context },
      },
      output: ({ event }) => event.output as { charges: string[] },
    });
    const tool = defineTool({
      name: 'charge',
      description: 'Charges a card',
      input: z.object({}),
      questions,
      machine,
      result: (output) => ({ text: output.charges.join(',') }),
      effects: { charge: { once: true } },
      task: 'optional',
    });
    const { engine, call } = makeEngine([tool]);
    const { taskId } = taskOf(await call({ name: 'charge', arguments: {}, capabilities: TASKS }));
    const parked = await untilStatus(engine, taskId, 'input_required');
    await engine.updateTask({ ...asAda(taskId), inputResponses: { [Object.keys(parked.inputRequests!)[0]!]: accept({ again: true }) } });
    const done = await untilStatus(engine, taskId, 'completed');
    // the second invoke of 'charge' in the same run got the recorded outcome
    expect(textIn(done.result?.content[0])).toBe('ch_1,ch_1');
    expect(charged).toBe(1);
  });
});
