// A flow tool's one outcome hook, through a real engine (real sealing, the memory ledger): every way a
// conversation ends other than the final action's result reaches `outcome`, told apart by `how` (the user
// declined or cancelled, an `end` rule held, a load failed, the final action failed), and undefined gives the
// default of that way; mixing it with the one-way hooks is a definition error.
import { RoundtripDefinitionError } from '@roundtrip/engine';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineFlowTool, field, type OutcomeInfo } from '../src/index.ts';
import { accept, cancel, converse, decline } from './conversation.ts';

/** A till: whether reading the price fails, whether the purchase throws; every `how` the hook saw. */
function till() {
  return { readFails: false, buyFails: undefined as Error | undefined, seen: [] as string[] };
}

/** `buy`: load the price, ask to confirm it, buy. `worded`: the ways the hook words; the others get undefined. */
function buyTool(t: ReturnType<typeof till>, worded: ReadonlySet<string>) {
  return defineFlowTool({
    name: 'buy',
    description: 'Buys the widget at the price the user confirms',
    input: z.object({ item: z.string() }),
    loaders: {
      readPrice: async () => {
        if (t.readFails) throw new Error('the price list is offline');
        return { cents: 10 };
      },
    },
    steps: (flow) =>
      flow.load('price', { run: 'readPrice', onError: 'No price for {{input.item}}: {{error}}' }).ask('confirm', {
        message: 'Buy the {{input.item}} for {{price.cents}} cents?',
        fields: { ok: field.boolean({ title: 'Buy it' }) },
        next: [{ if: { 'confirm.ok': { eq: false } }, end: 'Not wanted.' }, { goto: 'finish' }],
      }),
    final: ({ loaded }) => {
      if (t.buyFails) throw t.buyFails;
      return { text: `Bought for ${loaded.price?.cents} cents.` };
    },
    outcome: async (info) => {
      t.seen.push(info.how);
      if (!worded.has(info.how)) return undefined;
      if (info.how === 'final_failed') return { text: `Not bought: ${(info.error as Error).message}`, isError: true };
      if (info.how === 'stopped' || info.how === 'load_failed') return { text: `${info.how} at ${info.step}: ${info.message}` };
      return { text: `${info.how} at ${info.step}; the price was ${info.loaded.price?.cents} cents.` };
    },
  });
}

const ALL = new Set(['declined', 'cancelled', 'stopped', 'load_failed', 'final_failed']);
const NONE = new Set<string>();
const start = (t: ReturnType<typeof till>, worded: ReadonlySet<string>) => converse(buyTool(t, worded), { item: 'widget' });

describe('the outcome hook', () => {
  it('words the user leaving: declined and cancelled, with the step and what was loaded', async () => {
    const t = till();
    expect((await (await start(t, ALL)).answer({ confirm: decline })).text()).toBe('declined at confirm; the price was 10 cents.');
    expect((await (await start(t, ALL)).answer({ confirm: cancel })).text()).toBe('cancelled at confirm; the price was 10 cents.');
    expect(t.seen).toEqual(['declined', 'cancelled']);
  });

  it("words an end rule ('stopped') and a failed load ('load_failed') with the flow's message", async () => {
    const t = till();
    const stopped = await (await start(t, ALL)).answer({ confirm: accept({ ok: false }) });
    expect(stopped.text()).toBe('stopped at confirm: Not wanted.');
    t.readFails = true;
    expect((await start(t, ALL)).text()).toBe('load_failed at price: No price for widget: the price list is offline');
    expect(t.seen).toEqual(['stopped', 'load_failed']);
  });

  it("words a failed final action ('final_failed') with its error, instead of failing the round", async () => {
    const t = till();
    t.buyFails = new Error('the till is closed');
    const c = await (await start(t, ALL)).answer({ confirm: accept({ ok: true }) });
    expect(c.last).toEqual({
      type: 'complete',
      result: { content: [{ type: 'text', text: 'Not bought: the till is closed' }], isError: true },
    });
  });

  it('gives the default of each way when it returns undefined', async () => {
    const t = till();
    const declined = await (await start(t, NONE)).answer({ confirm: decline });
    expect(declined.text()).toBe("buy: nothing was done, because the question of step 'confirm' was declined.");
    const stopped = await (await start(t, NONE)).answer({ confirm: accept({ ok: false }) });
    expect(stopped.last).toEqual({ type: 'complete', result: { content: [{ type: 'text', text: 'Not wanted.' }], isError: true } });
    t.buyFails = new Error('the till is closed');
    const failed = await (await start(t, NONE)).answer({ confirm: accept({ ok: true }) });
    // as without a hook: the round fails, the client gets a generic error, the log says why
    expect(failed.last).toMatchObject({ type: 'complete', result: { isError: true } });
    expect(JSON.stringify(failed.last)).not.toContain('the till is closed');
    expect(failed.logs.map((l) => l.message).join('\n')).toContain('the till is closed');
    expect(t.seen).toEqual(['declined', 'stopped', 'final_failed']);
  });

  it('is typed: `how` tells the ways apart, each with what it knows', () => {
    type Info = OutcomeInfo<{ confirm: { kind: 'ask'; fields: { ok: z.ZodBoolean } } }, { item: string }>;
    expectTypeOf<Info['how']>().toEqualTypeOf<'declined' | 'cancelled' | 'abandoned' | 'stopped' | 'load_failed' | 'final_failed'>();
    type Way<H extends Info['how']> = Info & { how: H };
    expectTypeOf<Way<'final_failed'>>().toHaveProperty('error');
    expectTypeOf<Way<'final_failed'>>().not.toHaveProperty('step');
    expectTypeOf<Way<'stopped'>['message']>().toEqualTypeOf<string>();
    expectTypeOf<Way<'load_failed'>['step']>().toEqualTypeOf<'confirm'>();
    expectTypeOf<Way<'declined'>>().not.toHaveProperty('message');
    expectTypeOf<Info['input']>().toEqualTypeOf<{ item: string }>();
  });
});

describe('outcome with the one-way hooks', () => {
  it('is a definition error that names them and says what to do', () => {
    const define = () =>
      defineFlowTool({
        name: 'buy',
        description: 'Buys',
        input: z.object({}),
        steps: (flow) => flow.ask('confirm', { message: 'Buy?', fields: { ok: field.boolean() } }),
        final: () => ({ text: 'Bought.' }),
        outcome: () => undefined,
        ended: () => ({ text: 'Kept.' }),
        failed: () => ({ text: 'Not bought.' }),
      });
    expect(define).toThrow(RoundtripDefinitionError);
    let error: RoundtripDefinitionError | undefined;
    try {
      define();
    } catch (e) {
      error = e as RoundtripDefinitionError;
    }
    expect(error?.problems.map((p) => [p.path.join(' › '), p.message, p.fix])).toEqual([
      [
        "tool 'buy' › outcome",
        'the tool gives outcome and ended, failed: each ending would have two functions to word it.',
        "Handle every ending in outcome (switch on info.how: 'declined', 'cancelled', 'abandoned', 'final_failed'), and remove ended, failed.",
      ],
    ]);
  });
});
