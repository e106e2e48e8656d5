// Every way through a flow that loads, from conversationsOf: each sample result of a load step and its
// failure are ways through, named in the conversation; each is played against a real engine with the
// store arranged to give what the conversation says the loader gave.
import { createEngine, createKeyring, createMemoryLedger, generateKey, type StepOutcome } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, field, load } from '../src/index.ts';
import { type Conversation, type ConversationRetry, conversationsOf, playConversation } from '../src/testing/index.ts';
import { type Order, orderStore, refundTool } from './refund-flow.ts';

const ada: Order = { amount: 40, customer: 'Ada', refunded: false };
const samples = [{ found: true, ...ada }, { found: false }, { found: true, ...ada, refunded: true }];

/** What the client of the official SDK receives for an outcome of the engine. */
const asResult = (outcome: StepOutcome<unknown>): unknown =>
  outcome.type === 'input_required'
    ? { resultType: 'input_required', inputRequests: outcome.inputRequests, requestState: outcome.requestState }
    : outcome.type === 'complete'
      ? outcome.result
      : outcome;

/** Plays one conversation of the refund flow, the store holding (or failing to read) what its load gave. */
async function play(conversation: Conversation) {
  const records: Record<string, Order> = {};
  const store = orderStore(records);
  for (const load of conversation.loads) {
    if (load.outcome === 'failed') store.failNext = 1;
    else if ((load.value as { found: boolean }).found) {
      const { found: _found, ...order } = load.value as Order & { found: boolean };
      records.ord_1 = order;
    }
  }
  const engine = createEngine({
    tools: [refundTool(store)],
    keyring: createKeyring([generateKey()]),
    audience: 'paths',
    ledger: createMemoryLedger(),
  });
  const send = async (retry?: ConversationRetry) =>
    asResult(
      await engine.callTool({
        name: 'refund_order',
        arguments: { orderId: 'ord_1' },
        principal: 'ada',
        capabilities: { elicitation: {} },
        ...retry,
      }),
    );
  return { played: await playConversation(conversation, send), store };
}

describe('conversationsOf a flow that loads', () => {
  const conversations = conversationsOf(refundTool(orderStore({})), { input: { orderId: 'ord_1' }, loaded: { order: samples } });

  it('has a way through for each sample result and for the failure, each named with what was loaded', () => {
    const found = JSON.stringify(samples[0]);
    expect(conversations.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        `order: loaded ${found} › why: accept {"reason":"Example"} › confirm: accept {"choice":"confirm"} → done`,
        `order: loaded ${found} › why: decline → ended (declined at 'why')`,
        'order: loaded {"found":false} → ended (stopped at \'order\')',
        `order: loaded ${JSON.stringify(samples[2])} → ended (stopped at 'order')`,
        "order: failed → ended (failed at 'order')",
      ]),
    );
    const failed = conversations.find((c) => c.loads[0]?.outcome === 'failed')!;
    expect(failed).toMatchObject({
      rounds: [],
      loads: [{ step: 'order', loader: 'findOrder', outcome: 'failed' }],
      end: { status: 'ended', step: 'order', how: 'failed', message: 'The order ord_1 could not be read: a failed load (findOrder)' },
    });
    expect(conversations.find((c) => c.name.includes('"found":false'))!.end).toEqual({
      status: 'ended',
      step: 'order',
      how: 'stopped',
      message: 'There is no order ord_1.',
    });
  });

  it('plays every one against the engine to the end it names', async () => {
    for (const conversation of conversations) {
      const { played, store } = await play(conversation);
      const text = (played.result as { content: Array<{ text: string }> }).content[0]!.text;
      if (conversation.end.status === 'done') expect(store.refunds, conversation.name).toEqual(['ord_1 40 Example']);
      else if (conversation.end.how === 'stopped') expect(text, conversation.name).toBe(conversation.end.message);
      // the walk's failure is not the store's: the same message, with another error in it
      else if (conversation.end.how === 'failed') expect(text, conversation.name).toMatch(/^The order ord_1 could not be read: /);
      else expect(text, conversation.name).toContain('nothing was done');
    }
  });

  it('asks for sample results when a condition reads the loaded value, and loads null otherwise', () => {
    expect(() => conversationsOf(refundTool(orderStore({})), { input: { orderId: 'ord_1' } })).toThrow(
      "conversationsOf: step 'order' loads a value the flow's conditions read (order.found, order.refunded); pass sample results for each way it can go: conversationsOf(definition, { loaded: { order: [{ … }, { … }] } }).",
    );
    const greet = defineFlowTool({
      name: 'greet',
      description: 'Greets',
      input: z.object({}),
      loaders: { readName: async () => 'Ada' },
      steps: { name: load({ run: 'readName' }), ok: ask({ message: 'Greet {{name.first}}?', fields: { ok: field.boolean() } }) },
      final: () => ({ text: 'ok' }),
    });
    expect(conversationsOf(greet, { loops: false, everyAnswer: false }).map((c) => c.name)).toEqual([
      "name: failed → ended (failed at 'name')",
      'name: loaded null › ok: accept {"ok":true} → done',
      "name: loaded null › ok: decline → ended (declined at 'ok')",
      "name: loaded null › ok: cancel → ended (cancelled at 'ok')",
    ]);
  });
});
