// A parked task answered by a server that cannot reopen its state: the key that sealed it was retired, or the
// tool is no longer served. The task ends failed with words for the client (call the tool again), and the
// operator's log says which of the two it was.
import { describe, expect, it } from 'vitest';
import { createKeyring, createMemoryTaskStore, generateKey } from '../src/index.ts';
import { accept, makeEngine } from './support.ts';
import { heldWork, longTool, TASKS, untilStatus } from './tasks-tools.ts';

async function parkedTask() {
  const store = createMemoryTaskStore();
  const { state, work } = heldWork();
  const tool = longTool(work, { task: 'optional', after: 'confirm' });
  const first = makeEngine([tool], { tasks: { store } });
  const outcome = await first.call({ name: 'slow_compute', arguments: { label: 'x' }, capabilities: TASKS });
  const taskId = outcome.type === 'task' ? outcome.task.taskId : '';
  state.hold.resolve('r');
  await untilStatus(first.engine, taskId, 'input_required');
  return { store, tool, taskId, first };
}

const answer = { 'confirm.1': accept({ confirm: true }) };
const FAILED = {
  status: 'failed',
  error: {
    code: -32603,
    message: "Tool 'slow_compute' can no longer continue this task (the server was updated since it started); call the tool again.",
  },
};

describe('a parked task whose state cannot be reopened', () => {
  it('fails when the key that sealed it is not in the keyring, and the log says so', async () => {
    const { store, tool, taskId } = await parkedTask();
    const other = makeEngine([tool], { tasks: { store }, keyring: createKeyring([generateKey()]) });
    expect(await other.engine.updateTask({ taskId, principal: 'ada', capabilities: TASKS, inputResponses: answer })).toEqual({
      type: 'complete',
    });
    expect(await untilStatus(other.engine, taskId, 'failed')).toMatchObject(FAILED);
    expect(other.logs).toContainEqual(expect.objectContaining({ event: 'task_state_refused', code: 'state_not_opened', taskId }));
  });

  it('fails when the server no longer serves its tool, and the log says so', async () => {
    const { store, taskId } = await parkedTask();
    const { work } = heldWork();
    const other = makeEngine([longTool(work, { name: 'another_tool', task: 'optional' })], { tasks: { store } });
    await other.engine.updateTask({ taskId, principal: 'ada', capabilities: TASKS, inputResponses: answer });
    expect(await untilStatus(other.engine, taskId, 'failed')).toMatchObject(FAILED);
    expect(other.logs).toContainEqual(expect.objectContaining({ event: 'task_state_refused', code: 'tool_not_served', taskId }));
  });
});
