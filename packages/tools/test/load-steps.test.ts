// Load steps through a real engine (real sealing, the memory ledger): the loaded value in later
// messages, conditions, checks and the final action; ending early; failures in the author's words;
// retries; the value kept in the sealed state across rounds; cancellation and progress of the loader.
import {
  createEngine,
  createKeyring,
  createMemoryLedger,
  describeDefinition,
  type EngineLogEntry,
  generateKey,
  type ProgressUpdate,
} from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowPrompt, defineFlowTool, field, load } from '../src/index.ts';
import { accept, converse, decline } from './conversation.ts';
import { orderStore, orders, refundTool } from './refund-flow.ts';

describe('a load step', () => {
  it('loads before the first question, which shows the loaded amount; the final action gets the value', async () => {
    const store = orderStore(orders);
    let c = await converse(refundTool(store), { orderId: 'ord_1' });
    expect(Object.keys(c.asked)).toEqual(['why']);
    expect(c.asked.why!.message).toBe('Why refund 40 to Ada?');
    c = await c.answer({ why: accept({ reason: 'Damaged' }) });
    expect(c.asked.confirm!.message).toBe('Refund 40 for order ord_1?\n\n- Reason: Damaged\n- Amount: $40.00');
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('Refunded 40 for ord_1.');
    expect(store.refunds).toEqual(['ord_1 40 Damaged']);
  });

  it('ends early with the rule’s message, as an error result, when the order does not exist or was refunded', async () => {
    const store = orderStore(orders);
    const missing = await converse(refundTool(store), { orderId: 'ord_9' });
    expect(missing.last).toEqual({
      type: 'complete',
      result: { content: [{ type: 'text', text: 'There is no order ord_9.' }], isError: true },
    });
    const refunded = await converse(refundTool(store), { orderId: 'ord_2' });
    expect(refunded.text()).toBe('Order ord_2 was already refunded.');
    expect(store.refunds).toEqual([]);
  });

  it('keeps the loaded value in the sealed state: later rounds and a replayed round do not load again', async () => {
    const store = orderStore(orders);
    let c = await converse(refundTool(store), { orderId: 'ord_1' });
    const asked = c.state!;
    expect(asked).toMatch(/^rt1\./);
    // the loaded order is not readable in the state, as text or as the bytes of its parts (not 'Ada' alone: three
    // letters turn up by chance in a few hundred random base64 characters, about one state in 400)
    const readable = [asked, ...asked.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1'))];
    for (const text of readable) expect(text).not.toMatch(/"customer"|"amount"|ord_1/);
    c = await c.answer({ why: accept({ reason: 'Damaged' }) });
    const replayed = await c.replay(asked, { why: accept({ reason: 'Late' }) });
    expect(replayed.asked.confirm!.message).toBe('Refund 40 for order ord_1?\n\n- Reason: Late\n- Amount: $40.00');
    expect(store.reads).toBe(1);
  });

  it('ends the flow with the author’s message when the loader fails, and logs why for the author', async () => {
    const store = orderStore(orders);
    store.failNext = 1;
    const c = await converse(refundTool(store), { orderId: 'ord_1' });
    expect(c.last).toEqual({
      type: 'complete',
      result: {
        content: [{ type: 'text', text: 'The order ord_1 could not be read: connection to the orders database was reset' }],
        isError: true,
      },
    });
    expect(c.logs).toContainEqual(
      expect.objectContaining({
        level: 'info',
        event: 'machine_log',
        message:
          "load step 'order': loader 'findOrder' failed (one try), so the flow ended: Error: connection to the orders database was reset",
      }),
    );
  });

  it('tries again as many times as the step says before it gives up', async () => {
    const store = orderStore(orders);
    store.failNext = 2;
    const twice = await converse(refundTool(store, { retries: 2 }), { orderId: 'ord_1' });
    expect(twice.asked.why!.message).toBe('Why refund 40 to Ada?');
    expect(store.reads).toBe(3);
    store.failNext = 3;
    const thrice = await converse(refundTool(store, { retries: 2 }), { orderId: 'ord_1' });
    expect(thrice.text()).toBe('The order ord_1 could not be read: connection to the orders database was reset');
    expect(store.reads).toBe(6);
  });

  it('lets stopped word the result of an end rule or a failure, with structured content of the output schema', async () => {
    const store = orderStore(orders);
    const tool = defineFlowTool({
      name: 'order_status',
      description: 'Says how an order is',
      input: z.object({ orderId: z.string() }),
      output: z.object({ status: z.enum(['open', 'not_found', 'unreadable']) }),
      loaders: { findOrder: async ({ input }) => ((await store.find(input.orderId)) ? { found: true } : { found: false }) },
      steps: {
        order: load({
          run: 'findOrder',
          next: [{ if: { 'order.found': { eq: false } }, end: 'No order {{input.orderId}}.' }, { goto: 'finish' }],
        }),
      },
      final: () => ({ text: 'Open.', structured: { status: 'open' as const } }),
      stopped: ({ how, message, step }) => ({
        text: `${message} (at ${step})`,
        structured: { status: how === 'failed' ? ('unreadable' as const) : ('not_found' as const) },
        isError: true,
      }),
    });
    expect((await converse(tool, { orderId: 'ord_9' })).last).toEqual({
      type: 'complete',
      result: {
        content: [{ type: 'text', text: 'No order ord_9. (at order)' }],
        structuredContent: { status: 'not_found' },
        isError: true,
      },
    });
    store.failNext = 1;
    expect((await converse(tool, { orderId: 'ord_1' })).last).toMatchObject({
      result: {
        content: [
          { text: "order_status: nothing was done, because step 'order' could not load what it needs. Try again later. (at order)" },
        ],
        structuredContent: { status: 'unreadable' },
      },
    });
  });

  it('says by default that nothing was done and which step could not load, without the error', async () => {
    const tool = defineFlowTool({
      name: 'status',
      description: 'Says how an order is',
      input: z.object({}),
      loaders: {
        readStatus: async () => {
          throw new Error('password authentication failed for user "app"');
        },
      },
      steps: { status: load({ run: 'readStatus' }) },
      final: () => ({ text: 'ok' }),
    });
    const c = await converse(tool);
    expect(c.text()).toBe("status: nothing was done, because step 'status' could not load what it needs. Try again later.");
  });

  it('fails the round, naming the step and the loader in the log, when a loader returns what is not JSON', async () => {
    const tool = defineFlowTool({
      name: 'when',
      description: 'Says when',
      input: z.object({}),
      loaders: { readDate: async () => ({ at: new Date(0) }) },
      steps: { date: load({ run: 'readDate' }), ok: ask({ message: 'At {{date.at}}?', fields: { ok: field.boolean() } }) },
      final: () => ({ text: 'ok' }),
    });
    const c = await converse(tool);
    expect(c.text()).toBe("Tool 'when' failed on the server before it could finish; the details are in the server's log.");
    const error = c.logs.find((entry) => entry.event === 'machine_error');
    expect(error?.message).toContain(
      "load step 'date': loader 'readDate' returned a value whose result.at is a Date; a loaded value is kept in the sealed state between rounds, so it must be plain JSON: store an ISO string (date.toISOString()).",
    );
  });

  it('runs again on the way forward after the user went back over it, with the new answers', async () => {
    const reads: string[] = [];
    const tool = defineFlowTool({
      name: 'pick',
      description: 'Picks an order',
      input: z.object({}),
      loaders: {
        findOrder: async ({ answers }) => {
          reads.push(String(answers.which?.id));
          return { amount: answers.which?.id === 'ord_1' ? 40 : 15 };
        },
      },
      steps: {
        which: ask({ message: 'Which order?', fields: { id: field.select({ options: ['ord_1', 'ord_2'] }) } }),
        order: load({ run: 'findOrder' }),
        sure: ask({ message: 'Refund {{order.amount}}?', fields: { ok: field.boolean() }, onDecline: 'back' }),
      },
      final: ({ loaded }) => ({ text: `Refunded ${loaded.order?.amount}` }),
    });
    let c = await converse(tool);
    c = await c.answer({ which: accept({ id: 'ord_1' }) });
    expect(c.asked.sure!.message).toBe('Refund 40?');
    c = await c.answer({ sure: decline });
    expect(Object.keys(c.asked)).toEqual(['which']);
    c = await c.answer({ which: accept({ id: 'ord_2' }) });
    expect(c.asked.sure!.message).toBe('Refund 15?');
    c = await c.answer({ sure: accept({ ok: true }) });
    expect(c.text()).toBe('Refunded 15');
    expect(reads).toEqual(['ord_1', 'ord_2']);
  });

  it('gives a loader its arguments, its try, and what it loaded before only when it ran before', async () => {
    const calls: { keys: string[]; attempt: number; previous: unknown; which: unknown }[] = [];
    const tool = defineFlowTool({
      name: 'pick',
      description: 'Picks an order',
      input: z.object({ shop: z.string() }),
      loaders: {
        findOrder: async (args) => {
          const { attempt, previous, answers, input, signal } = args;
          calls.push({ keys: Object.keys(args).sort(), attempt, previous, which: answers.which?.id });
          expect(input).toEqual({ shop: 'north' });
          expect(signal.aborted).toBe(false);
          if (attempt === 1 && calls.length === 1) throw new Error('reset');
          return { amount: answers.which?.id === 'ord_1' ? 40 : 15 };
        },
      },
      steps: {
        which: ask({ message: 'Which order?', fields: { id: field.select({ options: ['ord_1', 'ord_2'] }) } }),
        order: load({ run: 'findOrder', retries: 1 }),
        sure: ask({ message: 'Refund {{order.amount}}?', fields: { ok: field.boolean() }, onDecline: 'back' }),
      },
      final: ({ loaded }) => ({ text: `Refunded ${loaded.order?.amount}` }),
    });
    let c = await converse(tool, { shop: 'north' });
    c = await c.answer({ which: accept({ id: 'ord_1' }) });
    c = await c.answer({ sure: decline });
    c = await c.answer({ which: accept({ id: 'ord_2' }) });
    expect(c.asked.sure!.message).toBe('Refund 15?');
    const first = ['answers', 'attempt', 'input', 'loaded', 'signal'];
    expect(calls).toEqual([
      { keys: first, attempt: 1, previous: undefined, which: 'ord_1' },
      { keys: first, attempt: 2, previous: undefined, which: 'ord_1' },
      { keys: [...first, 'previous'].sort(), attempt: 1, previous: { amount: 40 }, which: 'ord_2' },
    ]);
  });

  it('gives later loaders the values loaded before, and conditions may read deep into a value', async () => {
    const tool = defineFlowPrompt({
      name: 'greeting',
      description: 'Greets a customer',
      arguments: z.object({ id: z.string() }),
      loaders: {
        findCustomer: async ({ input }) => ({ name: `Customer ${input.id}`, address: { country: 'NL' } }),
        findRegion: async ({ loaded }) => ({ region: (loaded.customer as { address: { country: string } }).address.country }),
      },
      steps: {
        customer: load({ run: 'findCustomer' }),
        region: load({
          run: 'findRegion',
          next: [{ if: { 'customer.address.country': { eq: 'NL' } }, goto: 'tone' }, { end: 'No greeting for {{region.region}}.' }],
        }),
        tone: ask({
          message: 'How to greet {{customer.name}} ({{region.region}})?',
          fields: { tone: field.select({ options: ['warm', 'formal'] }) },
        }),
      },
      final: ({ loaded, answers }) => [{ role: 'user', text: `Greet ${loaded.customer?.name} in a ${answers.tone?.tone} way.` }],
    });
    let c = await converse(tool, { id: '7' });
    expect(c.asked.tone!.message).toBe('How to greet Customer 7 (NL)?');
    c = await c.answer({ tone: accept({ tone: 'warm' }) });
    expect(c.text()).toBe('Greet Customer 7 in a warm way.');
  });
});

describe('the structure of a flow that loads', () => {
  const flowLoading = (run: 'findOrder' | 'readOrder') =>
    defineFlowTool({
      name: 'note',
      description: 'Notes',
      input: z.object({}),
      loaders: { [run]: async () => ({ amount: 1 }) } as Record<typeof run, () => Promise<{ amount: number }>>,
      steps: { order: load({ run }), ok: ask({ message: 'Note {{order.amount}}?', fields: { ok: field.boolean() } }) },
      final: () => ({ text: 'noted' }),
    });

  it('is in the structure hash: a state sealed by a flow that ran another loader is refused as outdated', async () => {
    const before = describeDefinition(flowLoading('findOrder')).structureHash;
    expect(describeDefinition(flowLoading('readOrder')).structureHash).not.toBe(before);
    const asked = await converse(flowLoading('findOrder'));
    const later = await converse(flowLoading('readOrder'));
    const refused = await later.replay(asked.state!, { ok: accept({ ok: true }) });
    expect(refused.last).toMatchObject({ type: 'error', error: { code: -32602, data: { reason: 'outdated' } } });
  });
});

describe('a loader as invoked work', () => {
  const keyring = createKeyring([generateKey()]);

  it('is reported as progress, and stopped (its signal aborted) when the request is cancelled', async () => {
    let aborted = false;
    const tool = defineFlowTool({
      name: 'slow',
      description: 'Loads slowly',
      input: z.object({}),
      loaders: {
        readForever: ({ signal }) =>
          new Promise((_, reject) =>
            signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('stopped'));
            }),
          ),
      },
      steps: { data: load({ run: 'readForever' }) },
      final: () => ({ text: 'ok' }),
    });
    const logs: EngineLogEntry[] = [];
    const engine = createEngine({ tools: [tool], keyring, audience: 'tools-test', ledger: createMemoryLedger(), log: (e) => logs.push(e) });
    const controller = new AbortController();
    const progress: ProgressUpdate[] = [];
    const outcome = await engine.callTool({
      name: 'slow',
      arguments: {},
      principal: 'ada',
      capabilities: { elicitation: {} },
      signal: controller.signal,
      // cancel as soon as the loader is running
      onProgress: (update) => {
        progress.push(update);
        controller.abort();
      },
    });
    // a load step without words of its own: general ones, never the loader's name
    expect(progress).toEqual([{ progress: 1, message: 'Loading…' }]);
    expect(outcome).toEqual({
      type: 'complete',
      result: { content: [{ type: 'text', text: "Tool 'slow' was cancelled before it finished." }], isError: true },
    });
    expect(aborted).toBe(true);
    expect(logs.map((entry) => entry.event)).toContain('request_cancelled');
  });
});
