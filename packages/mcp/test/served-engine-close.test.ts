// A Node server's engine, opened from its settings, is closed with the server: the work of a task still
// running stops on its AbortSignal and the task ends cancelled, before the ledger the work writes to closes.
import { generateKey, TASKS_EXTENSION } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { openServedEngine, resolveServerSettings } from '../src/node/index.ts';
import { createTaskTools } from './fixtures/task-definitions.ts';

const TASKS = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

describe('openServedEngine: close()', () => {
  it('stops the work of a running task (it ends cancelled), then closes the ledger', async () => {
    const { tools, aborted } = createTaskTools();
    const settings = resolveServerSettings('close-test', {
      ROUNDTRIP_KEY: generateKey(),
      ROUNDTRIP_PRINCIPAL: 'ada',
      ROUNDTRIP_LEDGER: ':memory:',
    });
    const served = await openServedEngine({ name: 'close-test', tools }, settings, () => {});
    const outcome = await served.engine.callTool({ name: 'gated_report', arguments: {}, principal: 'ada', capabilities: TASKS });
    expect(outcome.type).toBe('task');
    const taskId = outcome.type === 'task' ? outcome.task.taskId : '';
    await served.close();
    await aborted;
    const got = await served.engine.getTask({ taskId, principal: 'ada', capabilities: TASKS });
    expect(got).toMatchObject({ type: 'complete', task: { status: 'cancelled' } });
  });
});
