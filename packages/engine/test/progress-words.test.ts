// What progress says as invoked work starts: the `meta.progress` of the state doing it (or of a state
// around it), in general words without one, and never the id of a state or an actor.
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, assign, fromPromise, setup, spawnChild } from 'xstate';
import { z } from 'zod';
import { defineTool, type ProgressUpdate } from '../src/index.ts';
import { complete, makeEngine } from './support.ts';

const quick = fromPromise(async () => 'ok');

/** The progress a call of a tool serving `machine` reports (its work runs to the end in one round). */
async function progressOf(machine: AnyStateMachine): Promise<ProgressUpdate[]> {
  const tool = defineTool({
    name: 'work_tool',
    description: 'Does invoked work',
    input: z.object({}),
    machine,
    result: () => ({ text: 'done' }),
  });
  const { call } = makeEngine([tool]);
  const updates: ProgressUpdate[] = [];
  complete(await call({ name: 'work_tool', arguments: {}, onProgress: (update) => updates.push(update) }));
  return updates;
}

const ids = /work_tool|check_stock|reserve|charge|ship|'/;

describe('the words of progress', () => {
  it("says a state's meta.progress as its invoked work starts, and that of a state around it for the states inside", async () => {
    const machine = setup({ actors: { quick } }).createMachine({
      id: 'order',
      initial: 'checking',
      states: {
        checking: { meta: { progress: 'Checking the stock…' }, invoke: { id: 'check_stock', src: 'quick', onDone: 'paying' } },
        paying: {
          meta: { progress: 'Taking the payment…' },
          initial: 'reserving',
          states: {
            reserving: { invoke: { id: 'reserve', src: 'quick', onDone: 'charging' } },
            charging: { invoke: { id: 'charge', src: 'quick', onDone: '#order.done' } },
          },
        },
        done: { type: 'final' },
      },
    });
    const updates = await progressOf(machine);
    expect(updates).toEqual([
      { progress: 1, message: 'Checking the stock…' },
      { progress: 2, message: 'Taking the payment…' },
      { progress: 3, message: 'Taking the payment…' },
    ]);
    expect(updates.map((u) => u.message).join(' ')).not.toMatch(ids);
  });

  it('fills {{path}} placeholders from the context as the work starts; general words when a value is missing', async () => {
    const machine = setup({ actors: { quick } }).createMachine({
      id: 'order',
      context: { done: 0, count: 3 },
      initial: 'first',
      states: {
        first: {
          meta: { progress: 'Shipped {{done}} of {{count}} parcels' },
          invoke: { id: 'ship', src: 'quick', onDone: { target: 'second', actions: assign({ done: 1 }) } },
        },
        second: { meta: { progress: 'Shipped {{done}} of {{count}} parcels' }, invoke: { id: 'charge', src: 'quick', onDone: 'third' } },
        third: { meta: { progress: 'Reading {{nowhere.at.all}}' }, invoke: { id: 'reserve', src: 'quick', onDone: 'done' } },
        done: { type: 'final' },
      },
    });
    expect((await progressOf(machine)).map((u) => u.message)).toEqual(['Shipped 0 of 3 parcels', 'Shipped 1 of 3 parcels', 'Working…']);
  });

  it('says general words, never the id, for work whose states give none (or give something that is not text)', async () => {
    const machine = setup({ actors: { quick } }).createMachine({
      id: 'order',
      initial: 'checking',
      states: {
        checking: { invoke: { id: 'check_stock', src: 'quick', onDone: 'shipping' } },
        shipping: { meta: { progress: 42 }, invoke: { id: 'ship', src: 'quick', onDone: 'done' } },
        done: { type: 'final' },
      },
    });
    expect(await progressOf(machine)).toEqual([
      { progress: 1, message: 'Working…' },
      { progress: 2, message: 'Working…' },
    ]);
  });

  it('says the words once for work a state starts together, and those of the active state for an id two states invoke', async () => {
    const machine = setup({ actors: { quick } }).createMachine({
      id: 'order',
      initial: 'preparing',
      states: {
        preparing: {
          meta: { progress: 'Getting the order ready…' },
          invoke: [
            { id: 'check_stock', src: 'quick' },
            { id: 'reserve', src: 'quick', onDone: 'sending' },
          ],
        },
        sending: { meta: { progress: 'Sending the order…' }, invoke: { id: 'check_stock', src: 'quick', onDone: 'done' } },
        done: { type: 'final' },
      },
    });
    expect(await progressOf(machine)).toEqual([
      { progress: 1, message: 'Getting the order ready…' },
      { progress: 2, message: 'Sending the order…' },
    ]);
  });

  it('says the words once for work that starts together in parallel states, whatever the order', async () => {
    const region = (words: string, id: string) => ({
      meta: { progress: words },
      initial: 'working',
      states: { working: { invoke: { id, src: 'quick' as const, onDone: 'done' } }, done: { type: 'final' as const } },
    });
    const machine = setup({ actors: { quick } }).createMachine({
      id: 'order',
      type: 'parallel',
      states: {
        stock: region('Checking the order…', 'check_stock'),
        payment: region('Taking the payment…', 'charge'),
        address: region('Checking the order…', 'ship'),
      },
    });
    expect(await progressOf(machine)).toEqual([
      { progress: 1, message: 'Checking the order…' },
      { progress: 2, message: 'Taking the payment…' },
    ]);
  });

  it('says the words of the innermost active state that has some for work an action spawns', async () => {
    const machine = setup({ actors: { quick }, actions: { startShipping: spawnChild('quick', { id: 'ship' }) } }).createMachine({
      id: 'order',
      meta: { progress: 'Handling the order…' },
      initial: 'shipping',
      states: {
        shipping: {
          meta: { progress: 'Shipping the order…' },
          entry: 'startShipping',
          on: { 'xstate.done.actor.ship': 'done' },
        },
        done: { type: 'final' },
      },
    });
    expect(await progressOf(machine)).toEqual([{ progress: 1, message: 'Shipping the order…' }]);
  });
});
