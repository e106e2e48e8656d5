// The demo's tools through the engine in this process, over a real SQLite file shared by the orders and
// the effect ledger, as the server runs them.
import { createEngine, createKeyring, createMemoryLedger, generateKey } from '@roundtrip/engine';
import { sqliteTransaction } from '@roundtrip/engine/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createRefundOrderTool } from '../src/refund-order-tool.ts';
import {
  accept,
  asked,
  cancel,
  closeDemoEngines,
  decline,
  demoEngine,
  done,
  FORM,
  question,
  refused,
  sharedKeyring,
  textOf,
} from './support/demo-engine.ts';

afterEach(closeDemoEngines);

const yes = { confirm: accept({ confirm: true }) };

describe('refund_order', () => {
  it('is listed as destructive, not idempotent, closed-world, with an output schema', async () => {
    const [refund, status] = (await demoEngine()).engine.listTools();
    expect(refund).toMatchObject({
      name: 'refund_order',
      annotations: { destructiveHint: true, idempotentHint: false, readOnlyHint: false, openWorldHint: false },
      outputSchema: {
        type: 'object',
        required: expect.arrayContaining(['status', 'order_id', 'amount', 'amount_cents', 'refunded_at', 'message']),
      },
    });
    expect(status).toMatchObject({
      name: 'order_status',
      annotations: { readOnlyHint: true, openWorldHint: false },
      outputSchema: { type: 'object' },
    });
  });

  it('asks to confirm the amount and refunds exactly it once the user accepts', async () => {
    const demo = await demoEngine();
    const first = await demo.call('refund_order', { order_id: 'ord_51' });
    const { message, requestState, schema } = question(first, 'confirm');
    expect(message).toBe('Refund $49.00 for order ord_51?');
    expect(schema).toEqual({
      type: 'object',
      properties: { confirm: { type: 'boolean', description: 'Yes to refund', default: false } },
      required: ['confirm'],
    });
    expect(requestState).toMatch(/^rt1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
    expect(await demo.store.countRefunds('ord_51')).toBe(0);

    const result = done(await demo.call('refund_order', { order_id: 'ord_51' }, { requestState, inputResponses: yes }));
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe('Refunded $49.00 for order ord_51.');
    expect(result.structuredContent).toEqual({
      status: 'refunded',
      order_id: 'ord_51',
      amount: '$49.00',
      amount_cents: 4900,
      refunded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      message: 'Refunded $49.00 for order ord_51.',
    });
    expect(await demo.store.refundsOf('ord_51')).toEqual([expect.objectContaining({ amountCents: 4900 })]);
    expect(demo.effectsRecorded()).toBe(1);
  });

  for (const [answer, response] of [
    ['declines', decline],
    ['cancels', cancel],
    ['answers confirm: false', accept({ confirm: false })],
  ] as const) {
    it(`does not refund when the user ${answer}`, async () => {
      const demo = await demoEngine();
      const { requestState } = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
      const result = done(await demo.call('refund_order', { order_id: 'ord_51' }, { requestState, inputResponses: { confirm: response } }));
      expect(textOf(result)).toBe('Order ord_51 was not refunded.');
      expect(result.structuredContent).toMatchObject({ status: 'kept' });
      expect(await demo.store.countRefunds('ord_51')).toBe(0);
      expect(demo.effectsRecorded()).toBe(0);
    });
  }

  it('reports an unknown order as a tool error, and an order refunded before as done, without asking', async () => {
    const demo = await demoEngine();
    const unknown = done(await demo.call('refund_order', { order_id: 'ord_99' }));
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^No order with id 'ord_99'/);
    expect(unknown.structuredContent).toMatchObject({ status: 'not_found', amount: null });
    const before = done(await demo.call('refund_order', { order_id: 'ord_53' }));
    expect(before.isError).toBeUndefined();
    expect(textOf(before)).toBe('Order ord_53 was already refunded on 2026-05-04; nothing more was done.');
  });

  it('asks again, saying why, when the answer does not fit the form or is missing', async () => {
    const demo = await demoEngine();
    const first = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    const again = question(
      await demo.call(
        'refund_order',
        { order_id: 'ord_51' },
        { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: 'yes please' }) } },
      ),
      'confirm',
    );
    expect(again.message).toBe(
      'Refund $49.00 for order ord_51?\n\nYour last answer was not accepted: confirm: Invalid input: expected boolean, received string. Please answer again.',
    );
    const missing = question(
      await demo.call('refund_order', { order_id: 'ord_51' }, { requestState: again.requestState, inputResponses: { other: accept({}) } }),
      'confirm',
    );
    expect(missing.message).toBe('Refund $49.00 for order ord_51?\n\nNo answer to this question arrived; please answer it.');
    const result = done(
      await demo.call('refund_order', { order_id: 'ord_51' }, { requestState: missing.requestState, inputResponses: yes }),
    );
    expect(textOf(result)).toBe('Refunded $49.00 for order ord_51.');
  });

  it('ignores answers that come without a state: a refund is never confirmed on the first call', async () => {
    const demo = await demoEngine();
    asked(await demo.call('refund_order', { order_id: 'ord_51' }, { inputResponses: yes }));
    expect(await demo.store.countRefunds('ord_51')).toBe(0);
  });
});

describe('refund_order answered more than once', () => {
  it('gives the same confirmation sent once, again and five times at once the same result, and refunds once', async () => {
    const demo = await demoEngine();
    const { requestState } = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    const retry = () => demo.call('refund_order', { order_id: 'ord_51' }, { requestState, inputResponses: yes });
    const once = done(await retry());
    const again = done(await retry());
    const five = (await Promise.all([retry(), retry(), retry(), retry(), retry()])).map(done);
    const all = [once, again, ...five];
    expect(all.map(textOf)).toEqual(Array(7).fill('Refunded $49.00 for order ord_51.'));
    for (const result of all) expect(result).toEqual(once);
    expect(await demo.store.countRefunds('ord_51')).toBe(1);
    expect(demo.effectsRecorded()).toBe(1);
  });

  it('refunds once when five identical confirmations arrive at the same moment', async () => {
    const demo = await demoEngine();
    const { requestState } = question(await demo.call('refund_order', { order_id: 'ord_52' }), 'confirm');
    const results = (
      await Promise.all(
        Array.from({ length: 5 }, () => demo.call('refund_order', { order_id: 'ord_52' }, { requestState, inputResponses: yes })),
      )
    ).map(done);
    expect(new Set(results.map(textOf))).toEqual(new Set(['Refunded $120.00 for order ord_52.']));
    expect(await demo.store.countRefunds('ord_52')).toBe(1);
    expect(demo.effectsRecorded()).toBe(1);
  });

  it('refunds once when two processes sharing the file and the key serve the same confirmation', async () => {
    const first = await demoEngine();
    const second = await demoEngine({ db: first.db });
    const { requestState } = question(await first.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    const results = await Promise.all(
      [first, second, first, second].map((demo) =>
        demo.call('refund_order', { order_id: 'ord_51' }, { requestState, inputResponses: yes }),
      ),
    );
    expect(results.map((r) => textOf(done(r)))).toEqual(Array(4).fill('Refunded $49.00 for order ord_51.'));
    expect(await first.store.countRefunds('ord_51')).toBe(1);
    expect(first.effectsRecorded() + second.effectsRecorded()).toBe(1);
  });

  it('tells a new conversation about an order refunded in another one', async () => {
    const demo = await demoEngine();
    const a = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    const b = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    expect(
      textOf(done(await demo.call('refund_order', { order_id: 'ord_51' }, { requestState: a.requestState, inputResponses: yes }))),
    ).toBe('Refunded $49.00 for order ord_51.');
    const late = done(await demo.call('refund_order', { order_id: 'ord_51' }, { requestState: b.requestState, inputResponses: yes }));
    expect(textOf(late)).toMatch(/^Order ord_51 was already refunded on \d{4}-\d\d-\d\d; nothing more was done\.$/);
    expect(await demo.store.countRefunds('ord_51')).toBe(1);
  });

  it('says the order was refunded, not "was not refunded", when an older state of the same call is declined after the refund', async () => {
    const demo = await demoEngine();
    const asked = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    const args = { order_id: 'ord_51' };
    expect(textOf(done(await demo.call('refund_order', args, { requestState: asked.requestState, inputResponses: yes })))).toBe(
      'Refunded $49.00 for order ord_51.',
    );
    const declined = done(
      await demo.call('refund_order', args, { requestState: asked.requestState, inputResponses: { confirm: { action: 'decline' } } }),
    );
    expect(textOf(declined)).toMatch(/^Order ord_51 was already refunded on \d{4}-\d\d-\d\d; nothing more was done\.$/);
    expect(declined.structuredContent).toMatchObject({ status: 'already_refunded', order_id: 'ord_51' });
    // a decline before any refund still says it was not refunded
    const other = question(await demo.call('refund_order', { order_id: 'ord_52' }), 'confirm');
    expect(
      textOf(
        done(
          await demo.call(
            'refund_order',
            { order_id: 'ord_52' },
            { requestState: other.requestState, inputResponses: { confirm: { action: 'decline' } } },
          ),
        ),
      ),
    ).toBe('Order ord_52 was not refunded.');
  });
});

describe('refund_order when the amount changes after the user saw it', () => {
  it('asks again with the new amount and refunds exactly the amount then confirmed', async () => {
    const demo = await demoEngine();
    const first = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    expect(first.message).toBe('Refund $49.00 for order ord_51?');
    await demo.store.setOrderAmount('ord_51', 5900);

    const again = question(
      await demo.call('refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: yes }),
      'confirm',
    );
    expect(again.message).toBe('The amount of order ord_51 changed to $59.00 since you were asked. Refund $59.00 for order ord_51?');
    expect(await demo.store.countRefunds('ord_51')).toBe(0);
    expect(demo.effectsRecorded()).toBe(0);

    const result = done(await demo.call('refund_order', { order_id: 'ord_51' }, { requestState: again.requestState, inputResponses: yes }));
    expect(textOf(result)).toBe('Refunded $59.00 for order ord_51.');
    expect(result.structuredContent).toMatchObject({ status: 'refunded', amount: '$59.00', amount_cents: 5900 });
    expect(await demo.store.refundsOf('ord_51')).toEqual([expect.objectContaining({ amountCents: 5900 })]);
    // the first state, replayed, belongs to the same conversation: it gets that conversation's recorded refund
    const stale = await demo.call('refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: yes });
    expect(textOf(done(stale))).toBe('Refunded $59.00 for order ord_51.');
    expect(demo.effectsRecorded()).toBe(1);
    expect(await demo.store.countRefunds('ord_51')).toBe(1);
  });

  it('refunds nothing when the user declines the new amount', async () => {
    const demo = await demoEngine();
    const first = question(await demo.call('refund_order', { order_id: 'ord_52' }), 'confirm');
    await demo.store.setOrderAmount('ord_52', 9900);
    const again = question(
      await demo.call('refund_order', { order_id: 'ord_52' }, { requestState: first.requestState, inputResponses: yes }),
      'confirm',
    );
    expect(again.message).toBe('The amount of order ord_52 changed to $99.00 since you were asked. Refund $99.00 for order ord_52?');
    const result = done(
      await demo.call('refund_order', { order_id: 'ord_52' }, { requestState: again.requestState, inputResponses: { confirm: decline } }),
    );
    expect(textOf(result)).toBe('Order ord_52 was not refunded.');
    expect(await demo.store.countRefunds('ord_52')).toBe(0);
  });

  it.each(['in the database file', 'elsewhere'])(
    'refunds nothing when the amount changes between the engine check and the store write (the store checks too), the ledger %s',
    async (where) => {
      const demo = await demoEngine();
      const inFile = where === 'in the database file';
      // another writer changes the amount after the engine's check passed, just before the store's transaction reads it:
      // in the ledger's transaction when the refund runs in it (the file's write lock is that transaction's)
      const racing = {
        findOrder: demo.store.findOrder,
        refundOrder: async (...args: Parameters<typeof demo.store.refundOrder>) => {
          const transaction = args[1]?.transaction;
          if (inFile) sqliteTransaction(transaction).prepare("UPDATE orders SET amount_cents = 5000 WHERE id = 'ord_51'").run();
          else await demo.store.setOrderAmount('ord_51', 5000);
          return demo.store.refundOrder(...args);
        },
      };
      const ledger = inFile ? demo.ledger : createMemoryLedger();
      const engine = createEngine({ tools: [createRefundOrderTool(racing)], keyring: sharedKeyring, audience: 'race', ledger });
      const request = { name: 'refund_order', arguments: { order_id: 'ord_51' }, principal: 'ada', capabilities: FORM };
      const { requestState } = question(await engine.callTool(request), 'confirm');
      const result = done(await engine.callTool({ ...request, requestState, inputResponses: yes }));
      expect(textOf(result)).toBe(
        'The amount of order ord_51 changed to $50.00 while it was being refunded, so nothing was refunded. Call refund_order again to refund the new amount.',
      );
      expect(result.structuredContent).toMatchObject({ status: 'amount_changed', amount_cents: 5000 });
      expect(await demo.store.countRefunds('ord_51')).toBe(0);
    },
  );
});

const invalid = { code: -32602, message: 'Invalid or expired requestState' };
const warnings = (logs: Array<{ event: string; message: string }>) =>
  logs.filter((l) => l.event === 'state_rejected').map((l) => l.message);

describe('refund_order refuses a requestState that is not its own', () => {
  it('refuses a tampered state: a flipped character, a truncation, an append', async () => {
    const demo = await demoEngine();
    const { requestState: state } = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    const at = state.length - 20;
    const flipped = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
    for (const forged of [flipped, state.slice(0, -10), `${state}AAAA`, `${state}-TAMPERED`]) {
      const error = refused(await demo.call('refund_order', { order_id: 'ord_51' }, { requestState: forged, inputResponses: yes }));
      expect(error).toMatchObject({ ...invalid, data: { reason: 'invalid' } });
    }
    expect(await demo.store.countRefunds('ord_51')).toBe(0);
    expect(warnings(demo.logs)).toContain('requestState refused (invalid): failed authentication (tampered, truncated or corrupted)');
  });

  it('refuses an expired state, telling the client to start over', async () => {
    let now = Date.now();
    const demo = await demoEngine({ now: () => now, stateTtlSeconds: 60 });
    const { requestState } = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    now += 61_000;
    const error = refused(await demo.call('refund_order', { order_id: 'ord_51' }, { requestState, inputResponses: yes }));
    expect(error).toEqual({ ...invalid, data: { reason: 'expired', hint: expect.stringMatching(/^Start over/) } });
    expect(warnings(demo.logs).join('\n')).toMatch(/requestState refused \(expired\): expired \d+s ago/);
    expect(await demo.store.countRefunds('ord_51')).toBe(0);
  });

  it('refuses a state replayed on another order or another tool', async () => {
    const demo = await demoEngine();
    const { requestState } = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    expect(refused(await demo.call('refund_order', { order_id: 'ord_52' }, { requestState, inputResponses: yes }))).toMatchObject({
      ...invalid,
      data: { reason: 'mismatch' },
    });
    expect(refused(await demo.call('order_status', { order_id: 'ord_51' }, { requestState }))).toMatchObject({
      ...invalid,
      data: { reason: 'mismatch' },
    });
    expect(warnings(demo.logs)).toEqual([
      'requestState refused (mismatch): sealed for other arguments of this target',
      'requestState refused (mismatch): sealed for another method or target (tool, prompt or resource)',
    ]);
    expect(await demo.store.countRefunds('ord_52')).toBe(0);
  });

  it('refuses a state sealed with another key, or presented for another principal', async () => {
    const demo = await demoEngine();
    const { requestState } = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    const otherKey = await demoEngine({ db: demo.db, keyring: createKeyring([generateKey()]) });
    expect(refused(await otherKey.call('refund_order', { order_id: 'ord_51' }, { requestState, inputResponses: yes }))).toMatchObject({
      ...invalid,
      data: { reason: 'invalid' },
    });
    expect(warnings(otherKey.logs)).toEqual(['requestState refused (invalid): sealed with a key this server does not hold']);
    const mallory = await demo.call('refund_order', { order_id: 'ord_51' }, { requestState, inputResponses: yes, principal: 'mallory' });
    expect(refused(mallory)).toMatchObject({ ...invalid, data: { reason: 'mismatch' } });
    expect(warnings(demo.logs)).toEqual(['requestState refused (mismatch): sealed for another principal']);
    expect(await demo.store.countRefunds('ord_51')).toBe(0);
  });

  it('accepts a state sealed by another process with the same key and principal', async () => {
    const demo = await demoEngine();
    const { requestState } = question(await demo.call('refund_order', { order_id: 'ord_51' }), 'confirm');
    const other = await demoEngine({ db: demo.db });
    expect(textOf(done(await other.call('refund_order', { order_id: 'ord_51' }, { requestState, inputResponses: yes })))).toBe(
      'Refunded $49.00 for order ord_51.',
    );
  });
});

describe('order_status', () => {
  it('says what state an order is in, with structured content, and asks nothing', async () => {
    const demo = await demoEngine();
    const paid = done(await demo.call('order_status', { order_id: 'ord_51' }));
    expect(textOf(paid)).toBe('Order ord_51 ($49.00, customer ada) is paid and can be refunded.');
    expect(paid.structuredContent).toEqual({
      order_id: 'ord_51',
      found: true,
      status: 'paid',
      amount: '$49.00',
      created_at: '2026-05-12T10:15:00.000Z',
      refunded_at: null,
      message: 'Order ord_51 ($49.00, customer ada) is paid and can be refunded.',
    });
    expect(textOf(done(await demo.call('order_status', { order_id: 'ord_53' })))).toBe(
      'Order ord_53 ($75.50, customer ada) was refunded on 2026-05-04.',
    );
    const missing = done(await demo.call('order_status', { order_id: 'ord_99' }));
    expect(missing).toMatchObject({ isError: true, structuredContent: { found: false, status: null } });
  });
});
