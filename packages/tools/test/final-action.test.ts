// What a flow tool says about its final action, through a real engine (real sealing, the memory ledger):
// its name (the effect's), a value a form asked to confirm read again before it acts (and where the flow
// goes when it changed), a hook for a failed final action, async ended/stopped hooks, and the value a
// load step loaded before, given to its loader when the flow comes back to it.
import {
  createEngine,
  createKeyring,
  type EffectLedger,
  EffectOutcomeUnknownError,
  generateKey,
  RoundtripDefinitionError,
  type StepOutcome,
} from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowPrompt, defineFlowResource, defineFlowTool, field, load } from '../src/index.ts';
import { flowMachineConfig } from '../src/internal.ts';
import { accept, converse, decline } from './conversation.ts';

/** A shop with one price, which the test changes between rounds; what was bought, and what each load saw before. */
function shop() {
  return { price: 10, bought: [] as number[], previous: [] as unknown[], failWith: undefined as Error | undefined };
}

function buyTool(s: ReturnType<typeof shop>, options: { failed?: boolean } = {}) {
  return defineFlowTool({
    name: 'buy',
    description: 'Buys the widget at the price the user confirms',
    input: z.object({ item: z.string() }),
    finalName: 'purchase',
    loaders: {
      readPrice: async ({ previous }) => {
        s.previous.push(previous);
        return { cents: s.price };
      },
    },
    steps: {
      price: load({ run: 'readPrice', next: 'confirm' }),
      confirm: ask({
        message: 'Buy the {{input.item}} for {{price.cents}} cents?',
        fields: { ok: field.boolean({ title: 'Buy it' }) },
        confirmed: {
          shown: ({ loaded }) => (loaded.price as { cents: number }).cents,
          current: async () => s.price,
          onChange: 'price',
        },
        next: [{ if: { 'confirm.ok': { eq: false } }, end: 'Not wanted.' }, { goto: 'finish' }],
      }),
    },
    final: ({ loaded }) => {
      if (s.failWith) throw s.failWith;
      s.bought.push(loaded.price!.cents);
      return { text: `Bought for ${loaded.price!.cents} cents.` };
    },
    ended: async ({ how }) => ({ text: `Kept (${how}).` }),
    stopped: async ({ message }) => ({ text: `Stopped: ${message}` }),
    ...(options.failed && {
      failed: async ({ error }: { error: unknown }) => ({ text: `Not bought: ${(error as Error).message}`, isError: true }),
    }),
  });
}

const yes = { confirm: accept({ ok: true }) };

describe('a value a form asked to confirm', () => {
  it('is read again before the final action; unchanged, the final action runs once, and a replay gets its result', async () => {
    const s = shop();
    let c = await converse(buyTool(s), { item: 'widget' });
    const asked = c.state!;
    c = await c.answer(yes);
    expect(c.text()).toBe('Bought for 10 cents.');
    expect((await c.replay(asked, yes)).text()).toBe('Bought for 10 cents.');
    expect(s.bought).toEqual([10]);
  });

  it('changed: the final action does not run; the flow loads again (its loader gets the value before) and asks again, without the old answer', async () => {
    const s = shop();
    let c = await converse(buyTool(s), { item: 'widget' });
    expect(c.asked.confirm!.message).toBe('Buy the widget for 10 cents?');
    s.price = 12;
    c = await c.answer(yes);
    expect(s.bought).toEqual([]);
    expect(c.asked.confirm!.message).toBe('Buy the widget for 12 cents?');
    // unticked, as a yes/no field starts: not the old answer (yes), which confirmed the old price
    expect(c.asked.confirm).toMatchObject({ requestedSchema: { properties: { ok: { type: 'boolean', default: false } } } });
    expect(s.previous).toEqual([undefined, { cents: 10 }]);
    c = await c.answer(yes);
    expect(c.text()).toBe('Bought for 12 cents.');
    expect(s.bought).toEqual([12]);
  });

  it('is written into the machine config: the final action under its name, and the way back when the value changed', () => {
    const finishing = (flowMachineConfig(buyTool(shop())).states as Record<string, Record<string, unknown>>).finishing!;
    expect(finishing.entry).toEqual([{ type: 'runFinal', params: { actor: 'purchase' } }]);
    expect(Object.keys(finishing.on as object)).toEqual(['xstate.done.actor.purchase', 'xstate.error.actor.purchase']);
    expect((finishing.on as Record<string, unknown[]>)['xstate.error.actor.purchase']![0]).toEqual({
      target: 'price',
      guard: { type: 'confirmedChanged', params: { form: 'confirm' } },
      actions: [{ type: 'forgetConfirmed', params: { form: 'confirm' } }],
    });
  });
});

describe('a failed final action', () => {
  it('is worded by `failed` when the tool has it', async () => {
    const s = shop();
    s.failWith = new Error('the till is closed');
    const c = await (await converse(buyTool(s, { failed: true }), { item: 'widget' })).answer(yes);
    expect(c.last).toEqual({
      type: 'complete',
      result: { content: [{ type: 'text', text: 'Not bought: the till is closed' }], isError: true },
    });
  });

  it('gets EffectOutcomeUnknownError when the server that ran it stopped before recording its outcome', async () => {
    // a ledger whose every effect was claimed by a process that has ended: the outcome is unknown
    const keys: string[] = [];
    const ledger: EffectLedger = {
      read: (key) => {
        keys.push(key.effect);
        return { state: 'running', startedAt: 0, abandoned: true };
      },
      claim: () => ({ state: 'running', startedAt: 0, abandoned: true }),
      complete: () => {},
    };
    let seen: unknown;
    const s = shop();
    const tool = defineFlowTool({
      name: 'buy',
      description: 'Buys',
      input: z.object({}),
      finalName: 'purchase',
      steps: { confirm: ask({ message: 'Buy?', fields: { ok: field.boolean() } }) },
      final: () => {
        s.bought.push(1);
        return { text: 'Bought.' };
      },
      failed: async ({ error }) => {
        seen = error;
        return { text: 'Whether it was bought is unknown; the orders say so.' };
      },
    });
    const engine = createEngine({ tools: [tool], keyring: createKeyring([generateKey()]), audience: 'final-action', ledger });
    const request = { name: 'buy', arguments: {}, principal: 'ada', capabilities: { elicitation: {} } };
    const first = (await engine.callTool(request)) as Extract<StepOutcome<unknown>, { type: 'input_required' }>;
    const last = await engine.callTool({ ...request, requestState: first.requestState, inputResponses: { confirm: accept({ ok: true }) } });
    expect(last).toEqual({
      type: 'complete',
      result: { content: [{ type: 'text', text: 'Whether it was bought is unknown; the orders say so.' }] },
    });
    expect(seen).toBeInstanceOf(EffectOutcomeUnknownError);
    expect(new Set(keys)).toEqual(new Set(['purchase']));
    expect(s.bought).toEqual([]);
  });

  it('fails the round without `failed`, and the log says why', async () => {
    const s = shop();
    s.failWith = new Error('the till is closed');
    const c = await (await converse(buyTool(s), { item: 'widget' })).answer(yes);
    expect(c.last).toMatchObject({ type: 'complete', result: { isError: true } });
    expect(c.logs.map((l) => l.message).join('\n')).toContain('the till is closed');
  });
});

describe('async ended and stopped', () => {
  it('word the end of a flow the user left, or a rule ended', async () => {
    const declined = await (await converse(buyTool(shop()), { item: 'widget' })).answer({ confirm: decline });
    expect(declined.text()).toBe('Kept (declined).');
    const stopped = await (await converse(buyTool(shop()), { item: 'widget' })).answer({ confirm: accept({ ok: false }) });
    expect(stopped.text()).toBe('Stopped: Not wanted.');
  });
});

describe('problems of a final action', () => {
  it('says when onChange names no step, and when finalName is taken by a loader', () => {
    const define = (onChange: string, finalName: string) =>
      defineFlowTool({
        name: 'buy',
        description: 'Buys',
        input: z.object({}),
        finalName,
        loaders: { readPrice: async () => ({ cents: 1 }) },
        steps: {
          price: load({ run: 'readPrice', next: 'confirm' }),
          confirm: ask({ message: 'Buy?', fields: { ok: field.boolean() }, confirmed: { shown: () => 1, current: () => 1, onChange } }),
        },
        final: () => ({ text: 'Bought.' }),
      });
    expect(() => define('prise', 'purchase')).toThrow(RoundtripDefinitionError);
    let error: RoundtripDefinitionError | undefined;
    try {
      define('prise', 'readPrice');
    } catch (e) {
      error = e as RoundtripDefinitionError;
    }
    expect(error?.problems.map((p) => [p.path.join(' › '), p.message])).toEqual([
      ["tool 'buy' › finalName", "'readPrice' cannot name the final action: it is taken by the flow's own actors, states or loaders."],
      ["tool 'buy' › step 'confirm' › confirmed › onChange", "'prise' is not a step."],
    ]);
  });

  it('refuses `confirmed` on a form of a prompt or a resource, which has no final action to read it again before', () => {
    const confirmed = { shown: () => 1, current: () => 1, onChange: 'confirm' };
    const problemsOf = (define: () => unknown) => {
      try {
        define();
      } catch (e) {
        if (e instanceof RoundtripDefinitionError) return e.problems.map((p) => [p.path.join(' › '), p.code, p.message, p.fix]);
        throw e;
      }
      return [];
    };
    const prompt = problemsOf(() =>
      defineFlowPrompt({
        name: 'agenda',
        description: 'Agenda',
        steps: { confirm: ask({ message: 'Write it?', fields: { ok: field.boolean() }, confirmed }) },
        final: () => [{ role: 'user', text: 'Agenda' }],
      }),
    );
    expect(prompt).toEqual([
      [
        "prompt 'agenda' › step 'confirm' › confirmed",
        'invalid_step',
        "form 'confirm' asks to confirm a value, but a prompt has no final action to read it again before: it would be ignored.",
        "Remove 'confirmed' from form 'confirm' (show the value in its message), or declare the flow as a tool (defineFlowTool) whose final action acts on it.",
      ],
    ]);
    const resource = problemsOf(() =>
      defineFlowResource({
        uri: 'rooms://{room}',
        name: 'room',
        description: 'Room',
        steps: (flow) =>
          flow.askAll('both', {
            forms: {
              size: { message: 'Size?', fields: { n: field.integer() } },
              sure: { message: 'Sure?', fields: { ok: field.boolean() }, confirmed },
            },
          }),
        final: () => 'Room',
      }),
    );
    expect(resource.map(([path, code]) => [path, code])).toEqual([
      ["resource 'room' › step 'both' › form 'sure' › confirmed", 'invalid_step'],
    ]);
  });
});
