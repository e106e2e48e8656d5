// Every way through the declared refund_order (conversationsOf, issue 15 item 6): the order its load
// step finds (none, refunded, open) or fails to read, then each answer to the confirmation, played through
// the protocol server in this process over fresh in-memory stores, each ending as the orders say.
import { createEngine, createKeyring, generateKey } from '@roundtrip/engine';
import { type Conversation, conversationsOf, maxRounds, playConversation } from '@roundtrip/tools/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoStores, openDemoStores } from '../src/demo-stores.ts';
import type { OrdersStore } from '../src/orders-store.ts';
import { createRefundOrderTool } from '../src/refund-order-tool.ts';
import { callRound } from './support/demo-client.ts';
import { connectInMemory, type InMemoryDemo } from './support/in-memory-demo.ts';

/** An order id whose reads fail, for the way where the order cannot be loaded. */
const BROKEN = 'ord_broken';

let stores: DemoStores = await openDemoStores(':memory:');
// the tool reads the stores of the conversation being played; reads of BROKEN fail
const orders: OrdersStore = new Proxy({} as OrdersStore, {
  get: (_, name: keyof OrdersStore) => {
    if (name === 'findOrder')
      return async (id: string) => {
        if (id === BROKEN) throw new Error('the orders database went away');
        return stores.orders.findOrder(id);
      };
    const member = stores.orders[name];
    return typeof member === 'function' ? member.bind(stores.orders) : member;
  },
});
const tool = createRefundOrderTool(orders);

const conversations = conversationsOf(tool, {
  input: { order_id: 'ord_51' },
  // what the `order` step's rules read: whether there is an order, and whether it was refunded
  loaded: { order: [null, { id: 'ord_53', refunded: true }, { id: 'ord_51', refunded: false }] },
});

/** The order a conversation is about: the one whose store state gives what its load step gave. */
function orderIdOf(conversation: Conversation): string {
  const load = conversation.loads[0];
  if (load?.outcome === 'failed') return BROKEN;
  const value = load?.value as { id: string } | null;
  return value === null ? 'ord_99' : value.id;
}

/** What refund_order answers at the end of `conversation`, and the refunds the store then holds. */
function expected(conversation: Conversation): { text: string | RegExp; refunds: number } {
  const { end } = conversation;
  if (end.status === 'done') return { text: 'Refunded $49.00 for order ord_51.', refunds: 1 };
  if (end.how === 'failed') return { text: /^Refund an order: nothing was done, because step 'order' could not load/, refunds: 0 };
  if (end.step === 'order' && orderIdOf(conversation) === 'ord_99')
    return { text: "No order with id 'ord_99'. Check the order id (it looks like 'ord_51') and try again.", refunds: 0 };
  if (end.step === 'order') return { text: 'Order ord_53 was already refunded on 2026-05-04; nothing more was done.', refunds: 1 };
  return { text: 'Order ord_51 was not refunded.', refunds: 0 };
}

let demo: InMemoryDemo;
beforeAll(async () => {
  demo = await connectInMemory(createEngine({ tools: [tool], keyring: createKeyring([generateKey()]), audience: 'refund-paths' }));
});
afterAll(async () => {
  await demo.close();
  await stores.close();
});

describe('refund_order declared as a flow', () => {
  it('has a way for each order the load finds, a failed read, and each answer to the confirmation', () => {
    expect(conversations.filter((c) => c.kind === 'simple').map((c) => c.name)).toEqual([
      "order: loaded null → ended (stopped at 'order')",
      'order: loaded {"id":"ord_53","refunded":true} → ended (stopped at \'order\')',
      "order: failed → ended (failed at 'order')",
      'order: loaded {"id":"ord_51","refunded":false} › confirm: accept {"confirm":true} → done',
      'order: loaded {"id":"ord_51","refunded":false} › confirm: accept {"confirm":false} → ended (stopped at \'confirm\')',
      'order: loaded {"id":"ord_51","refunded":false} › confirm: decline → ended (declined at \'confirm\')',
      'order: loaded {"id":"ord_51","refunded":false} › confirm: cancel → ended (cancelled at \'confirm\')',
    ]);
    expect(maxRounds(conversations)).toBe(1);
  });

  it.each(conversations.map((c) => [`${c.kind}: ${c.name}`, c] as const))('%s', async (_, conversation) => {
    await stores.close();
    stores = await openDemoStores(':memory:');
    const id = orderIdOf(conversation);
    const { result } = await playConversation(conversation, (retry) => callRound(demo.client, 'refund_order', { order_id: id }, retry));
    const { text, refunds } = expected(conversation);
    expect((result as { content: Array<{ text: string }> }).content[0]!.text).toMatch(text);
    if (id !== BROKEN) expect(await stores.orders.countRefunds(id)).toBe(refunds);
  });
});
