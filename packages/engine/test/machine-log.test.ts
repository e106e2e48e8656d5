// A machine's log() actions, its own and its children's, go to the engine's log: never to the console,
// whose stdout a stdio server keeps for protocol messages.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMachine, fromPromise, log, setup } from 'xstate';
import { z } from 'zod';
import { defineTool } from '../src/index.ts';
import { complete, makeEngine } from './support.ts';

afterEach(() => vi.restoreAllMocks());

describe("a machine's log() actions", () => {
  it('reach the engine log as machine_log lines of the round, and nothing reaches console.log', async () => {
    const printed = vi.spyOn(console, 'log').mockImplementation(() => {});
    const child = createMachine({ entry: log('child says hi'), initial: 'done', states: { done: { type: 'final' } } });
    const machine = setup({ actors: { child, wait: fromPromise(async () => 42) } }).createMachine({
      id: 'logging',
      initial: 'working',
      states: {
        working: {
          entry: log(({ context }) => ({ context })),
          invoke: { id: 'child', src: 'child', onDone: 'waiting' },
        },
        waiting: { invoke: { id: 'wait', src: 'wait', onDone: { target: 'done', actions: log('waited', 'label') } } },
        done: { type: 'final' },
      },
    });
    const tool = defineTool({ name: 'logging', description: 'logs', input: z.object({}), machine, result: () => ({ text: 'ok' }) });
    const { call, logs } = makeEngine([tool]);
    expect(complete(await call({ name: 'logging', arguments: {} })).result).toMatchObject({ content: [{ text: 'ok' }] });
    expect(logs.filter((entry) => entry.event === 'machine_log').map((entry) => [entry.level, entry.target, entry.message])).toEqual([
      ['info', 'tool logging', '{"context":{}}'],
      ['info', 'tool logging', 'child says hi'],
      ['info', 'tool logging', 'label waited'],
    ]);
    expect(printed).not.toHaveBeenCalled();
  });
});
