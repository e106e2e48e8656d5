// Rounds that wait for their machine share one timer for their deadlines (deadline-timer.ts): each still
// ends at its own settleTimeoutMs, whichever order they started in, and a round that settled is not ended later.
import { describe, expect, it, vi } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '../src/index.ts';
import { deferred, failedText, inputRequired, makeEngine } from './support.ts';

type Context = { orderId: string; cents: number | null };
const questions = defineQuestions<Context>()({
  confirm: { message: 'Refund {{cents}} cents for {{orderId}}?', schema: z.object({ confirm: z.boolean() }) },
});

/** A tool whose first round waits for `lookup` before it asks. */
function lookupTool(lookup: Promise<void>) {
  const machine = setup({
    types: {
      context: {} as Context,
      input: {} as { order_id: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
    },
    actors: {
      lookupOrder: fromPromise<{ cents: number }>(async () => {
        await lookup;
        return { cents: 500 };
      }),
    },
  }).createMachine({
    id: 'refund',
    context: ({ input }) => ({ orderId: input.order_id, cents: null }),
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          id: 'lookup',
          src: 'lookupOrder',
          onDone: { target: 'asking', actions: assign({ cents: ({ event }) => event.output.cents }) },
        },
      },
      asking: { meta: { ask: ['confirm'] }, on: { 'confirm.accept': 'done', 'confirm.decline': 'done', 'confirm.cancel': 'done' } },
      done: { type: 'final' },
    },
  });
  return defineTool({
    name: 'refund_order',
    description: 'Looks the order up, then asks',
    input: z.object({ order_id: z.string() }),
    questions,
    machine,
    result: () => ({ text: 'done' }),
  });
}

const args = { order_id: 'ord_1' };
/** What a round ended at its deadline answers. */
const timedOut = { type: 'complete', result: { content: [{ type: 'text', text: failedText("Tool 'refund_order'") }], isError: true } };

describe('deadlines of waiting rounds', () => {
  it('ends a round at its own deadline while a round with a later one waits, and leaves that round to settle', async () => {
    const slowLookup = deferred();
    const patient = makeEngine([lookupTool(slowLookup.promise)], { settleTimeoutMs: 60_000 });
    const hasty = makeEngine([lookupTool(deferred().promise)], { settleTimeoutMs: 40 });
    let patientDone = false;
    // the later deadline is set first; the earlier one, set after it, must not wait for it
    const waiting = patient.call({ name: 'refund_order', arguments: args }).then((outcome) => {
      patientDone = true;
      return outcome;
    });
    expect(await hasty.call({ name: 'refund_order', arguments: args })).toEqual(timedOut);
    expect(hasty.logs.map((entry) => entry.event)).toContain('settle_timeout');
    expect(patientDone).toBe(false);
    slowLookup.resolve();
    const asked = inputRequired(await waiting);
    expect(asked.inputRequests.confirm!.params.message).toBe('Refund 500 cents for ord_1?');
    expect(patient.logs.map((entry) => entry.event)).not.toContain('settle_timeout');
  });

  it("ends a waiting round at its deadline under a test's fake timers, and rounds after them at theirs", async () => {
    vi.useFakeTimers();
    try {
      const lookup = deferred();
      // a round that settles leaves the timer set for its deadline, a fake one
      const settles = makeEngine([lookupTool(lookup.promise)], { settleTimeoutMs: 60_000 });
      const asking = settles.call({ name: 'refund_order', arguments: args });
      lookup.resolve();
      inputRequired(await asking);
      const waits = makeEngine([lookupTool(deferred().promise)], { settleTimeoutMs: 10_000 });
      let done = false;
      const outcome = waits.call({ name: 'refund_order', arguments: args }).then((ended) => {
        done = true;
        return ended;
      });
      await vi.advanceTimersByTimeAsync(9_999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toEqual(timedOut);
      // and one more that settles, so a fake timer is still set when the real ones come back
      const again = deferred();
      const last = makeEngine([lookupTool(again.promise)], { settleTimeoutMs: 60_000 }).call({ name: 'refund_order', arguments: args });
      again.resolve();
      inputRequired(await last);
    } finally {
      vi.useRealTimers();
    }
    const after = makeEngine([lookupTool(deferred().promise)], { settleTimeoutMs: 40 });
    expect(await after.call({ name: 'refund_order', arguments: args })).toEqual(timedOut);
  });

  it('ends each of several rounds waiting at once at the deadline of its own engine', async () => {
    // the clock is driven by hand: which round ends when is read at each millisecond that matters, not
    // from the order real timers of three engines happened to fire in on a busy machine
    vi.useFakeTimers();
    try {
      // the latest deadline is set first, the earliest second: the one timer must be moved earlier, then set again for 80
      const engines = [120, 40, 80].map((ms) => ({ ms, ...makeEngine([lookupTool(deferred().promise)], { settleTimeoutMs: ms }) }));
      const ended = new Set<number>();
      const outcomes = engines.map(({ ms, call }) =>
        call({ name: 'refund_order', arguments: args }).then((outcome) => {
          ended.add(ms);
          return outcome;
        }),
      );
      const endedSoFar = () => [...ended].sort((a, b) => a - b);
      let elapsed = 0;
      /** The rounds ended 1 ms before `ms` (from the start) and at `ms`. */
      const endedAround = async (ms: number) => {
        await vi.advanceTimersByTimeAsync(ms - 1 - elapsed);
        const before = endedSoFar();
        await vi.advanceTimersByTimeAsync(1);
        elapsed = ms;
        return { before, after: endedSoFar() };
      };
      expect(await endedAround(40)).toEqual({ before: [], after: [40] });
      expect(await endedAround(80)).toEqual({ before: [40], after: [40, 80] });
      expect(await endedAround(120)).toEqual({ before: [40, 80], after: [40, 80, 120] });
      expect(await Promise.all(outcomes)).toEqual([timedOut, timedOut, timedOut]);
      for (const { logs } of engines) expect(logs.filter((entry) => entry.event === 'settle_timeout')).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
