// The engine's log entries are typed data: an `event`, a reason `code` and the facts the text is made
// of. The text (`message`) stays what operators have read in the stderr log; without a log, no entry
// and no text is made at all.
import { describe, expect, it } from 'vitest';
import { createMachine, log } from 'xstate';
import { z } from 'zod';
import { createEngine, defineTool, type EngineEvent, type EngineLogEntry } from '../src/index.ts';
import { makeConfirmTool } from './machines.ts';
import { accept, complete, FORM, inputRequired, makeEngine, refused, sharedKeyring } from './support.ts';

const refund = makeConfirmTool();
const args = { order_id: 'ord_1' };

describe('log entries', () => {
  it('carry the event, its code and its facts beside the text operators read', async () => {
    const { call, logs } = makeEngine([refund]);
    const state = inputRequired(await call({ name: 'refund_order', arguments: args })).requestState;
    const answer = { confirm: accept({ confirm: 'maybe' }) };
    inputRequired(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: answer }));
    expect(await call({ name: 'refund_order', arguments: args, principal: 'bob', requestState: state })).toEqual(refused('mismatch'));
    expect(logs).toEqual([
      {
        level: 'info',
        event: 'answer_invalid',
        code: 'not_accepted',
        key: 'confirm',
        reason: expect.stringMatching(/^confirm: /),
        target: 'tool refund_order',
        run: expect.any(String),
        message: expect.stringMatching(/^answer to 'confirm' not accepted: confirm: /),
      },
      {
        level: 'warn',
        event: 'state_rejected',
        code: 'other_principal',
        reason: 'mismatch',
        state: 'requestState',
        detail: 'sealed for another principal',
        target: 'tool refund_order',
        message: 'requestState refused (mismatch): sealed for another principal',
      },
    ]);
  });

  it('narrow by event and code to their facts', async () => {
    const { call, logs } = makeEngine([refund]);
    const state = inputRequired(await call({ name: 'refund_order', arguments: args })).requestState;
    complete(
      await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: { confirm: accept({ confirm: true }) } }),
    );
    const finished = (logs as Array<EngineLogEntry & Partial<EngineEvent>>).find(
      (entry): entry is EngineLogEntry & Extract<EngineEvent, { event: 'run_complete' }> => entry.event === 'run_complete',
    );
    expect(finished).toMatchObject({ code: 'finished', round: 2, message: 'finished in round 2' });
  });

  it('are not made without a log: a machine log() argument is never turned into text', async () => {
    let rendered = 0;
    const counted = { toJSON: () => `rendered ${++rendered}` };
    const machine = createMachine({ id: 'talks', initial: 'done', entry: log(() => counted), states: { done: { type: 'final' } } });
    const tool = defineTool({ name: 'talks', description: 'logs', input: z.object({}), machine, result: () => ({ text: 'ok' }) });
    const quiet = createEngine({ tools: [tool], keyring: sharedKeyring, audience: 'test-server' });
    complete(await quiet.callTool({ name: 'talks', arguments: {}, principal: 'ada', capabilities: FORM }));
    expect(rendered).toBe(0);
    const { call, logs } = makeEngine([tool]);
    complete(await call({ name: 'talks', arguments: {} }));
    expect(rendered).toBe(1);
    expect(logs.find((entry) => entry.event === 'machine_log')).toMatchObject({ code: 'machine_log', message: '"rendered 1"' });
  });
});
