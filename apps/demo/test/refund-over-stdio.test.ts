import { afterEach, describe, expect, it } from 'vitest';
import { type DemoConnection, type DemoSettings, accept, callRound, connectDemo, freshDemoSettings, refundCount, refusal } from './support/demo-client.ts';

const open: DemoConnection[] = [];
const connect = async (...args: Parameters<typeof connectDemo>) => {
  const connection = await connectDemo(...args);
  open.push(connection);
  return connection;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function askToRefund(settings: DemoSettings, orderId = 'ord_51') {
  const demo = await connect(settings);
  const first = await callRound(demo.client, 'refund_order', { order_id: orderId });
  return { demo, first };
}

describe('refund_order over stdio, 2026-07-28 client', () => {
  it('asks to confirm with the amount and id, and refunds once the user accepts', async () => {
    const settings = freshDemoSettings();
    const { demo, first } = await askToRefund(settings);
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests).toEqual({
      confirm: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Refund $49.00 for order ord_51?',
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', description: 'Yes to refund' } }, required: ['confirm'] },
        },
      },
    });
    expect(first.requestState).toMatch(/^rt1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
    expect(refundCount(settings.db, 'ord_51')).toBe(0);

    const done = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } });
    expect(done.isError).toBeFalsy();
    expect(done.content).toEqual([{ type: 'text', text: 'Refunded $49.00 for order ord_51.' }]);
    expect(done.structuredContent).toMatchObject({ status: 'refunded', order_id: 'ord_51', amount: '$49.00' });
    expect(refundCount(settings.db, 'ord_51')).toBe(1);
  });

  for (const [answer, response] of [
    ['declines', { action: 'decline' }],
    ['cancels', { action: 'cancel' }],
    ['answers confirm: false', accept({ confirm: false })],
  ] as const) {
    it(`does not refund when the user ${answer}`, async () => {
      const settings = freshDemoSettings();
      const { demo, first } = await askToRefund(settings);
      const done = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: { confirm: response } });
      expect(done.resultType).not.toBe('input_required');
      expect(done.content?.[0]?.text).toBe('Order ord_51 was not refunded.');
      expect(done.structuredContent).toMatchObject({ status: 'kept' });
      expect(refundCount(settings.db, 'ord_51')).toBe(0);
    });
  }

  it('reports an unknown order as a tool error, without asking', async () => {
    const { first } = await askToRefund(freshDemoSettings(), 'ord_99');
    expect(first.isError).toBe(true);
    expect(first.content?.[0]?.text).toMatch(/^No order with id 'ord_99'/);
  });

  it('reports an order that was already refunded, without asking', async () => {
    const { first } = await askToRefund(freshDemoSettings(), 'ord_53');
    expect(first.resultType).not.toBe('input_required');
    expect(first.isError).toBeFalsy();
    expect(first.content?.[0]?.text).toMatch(/^Order ord_53 was already refunded on \d{4}-\d\d-\d\d/);
  });

  it('asks again, saying why, when the answer does not fit the form', async () => {
    const settings = freshDemoSettings();
    const { demo, first } = await askToRefund(settings);
    const again = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: 'yes please' }) } });
    expect(again.resultType).toBe('input_required');
    expect(again.inputRequests?.confirm?.params.message).toBe(
      'Refund $49.00 for order ord_51?\n\nYour last answer was not accepted: confirm: Invalid input: expected boolean, received string. Please answer again.',
    );
    expect(again.requestState).not.toBe(first.requestState);
    const missing = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, { requestState: again.requestState, inputResponses: { other: accept({ confirm: true }) } });
    expect(missing.inputRequests?.confirm?.params.message).toBe('Refund $49.00 for order ord_51?\n\nNo answer to this question arrived; please answer it.');
    const done = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, { requestState: missing.requestState, inputResponses: { confirm: accept({ confirm: true }) } });
    expect(done.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
    expect(refundCount(settings.db, 'ord_51')).toBe(1);
  });

  it('ignores answers that come without a state: a refund is never confirmed on the first call', async () => {
    const settings = freshDemoSettings();
    const demo = await connect(settings);
    const first = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, { inputResponses: { confirm: accept({ confirm: true }) } });
    expect(first.resultType).toBe('input_required');
    expect(refundCount(settings.db, 'ord_51')).toBe(0);
  });

  it('refunds once when the same confirmation is sent twice, one after the other', async () => {
    const settings = freshDemoSettings();
    const { demo, first } = await askToRefund(settings);
    const retry = { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } };
    const one = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, retry);
    const two = await callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, retry);
    expect(one.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
    expect(two.content?.[0]?.text).toMatch(/^Order ord_51 was already refunded on /);
    expect(refundCount(settings.db, 'ord_51')).toBe(1);
  });

  it('refunds once when the same confirmation is sent twice at once, to two server processes', async () => {
    const settings = freshDemoSettings();
    const { first } = await askToRefund(settings);
    const [a, b] = await Promise.all([connect(settings), connect(settings)]);
    const retry = { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } };
    const results = await Promise.all([
      callRound(a.client, 'refund_order', { order_id: 'ord_51' }, retry),
      callRound(b.client, 'refund_order', { order_id: 'ord_51' }, retry),
      callRound(a.client, 'refund_order', { order_id: 'ord_51' }, retry),
    ]);
    const texts = results.map((r) => r.content?.[0]?.text ?? '');
    expect(texts.filter((t) => t === 'Refunded $49.00 for order ord_51.')).toHaveLength(1);
    expect(texts.filter((t) => t.startsWith('Order ord_51 was already refunded'))).toHaveLength(2);
    expect(refundCount(settings.db, 'ord_51')).toBe(1);
  });
});

describe('refund_order refuses a requestState that is not its own', () => {
  const invalid = { code: -32602, message: 'Invalid or expired requestState' };

  it('refuses a tampered state: a flipped character, a truncation, an append', async () => {
    const settings = freshDemoSettings();
    const { demo, first } = await askToRefund(settings);
    const state = first.requestState!;
    const at = state.length - 20;
    const flipped = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
    for (const forged of [flipped, state.slice(0, -10), `${state}AAAA`, `${state}-TAMPERED`]) {
      const error = await refusal(callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, { requestState: forged, inputResponses: { confirm: accept({ confirm: true }) } }));
      expect(error).toMatchObject({ ...invalid, data: { reason: 'invalid' } });
    }
    expect(refundCount(settings.db, 'ord_51')).toBe(0);
    expect(demo.stderr()).toMatch(/requestState refused \(invalid\): failed authentication \(tampered, truncated or corrupted\)/);
  });

  it('refuses an expired state', async () => {
    const settings = { ...freshDemoSettings(), ttlSeconds: 1 };
    const { demo, first } = await askToRefund(settings);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const error = await refusal(callRound(demo.client, 'refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } }));
    expect(error).toEqual({ ...invalid, data: { reason: 'expired', hint: 'Start over: call the tool again without requestState or inputResponses.' } });
    expect(demo.stderr()).toMatch(/requestState refused \(expired\): expired \d+s ago/);
    expect(refundCount(settings.db, 'ord_51')).toBe(0);
  });

  it('refuses a state replayed on another order', async () => {
    const settings = freshDemoSettings();
    const { demo, first } = await askToRefund(settings);
    const error = await refusal(callRound(demo.client, 'refund_order', { order_id: 'ord_52' }, { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } }));
    expect(error).toMatchObject({ ...invalid, data: { reason: 'mismatch' } });
    expect(demo.stderr()).toMatch(/requestState refused \(mismatch\): sealed for other arguments of this tool/);
    expect(refundCount(settings.db, 'ord_52')).toBe(0);
  });

  it('refuses a state replayed on another tool', async () => {
    const settings = freshDemoSettings();
    const { demo, first } = await askToRefund(settings);
    const error = await refusal(callRound(demo.client, 'order_status', { order_id: 'ord_51' }, { requestState: first.requestState }));
    expect(error).toMatchObject({ ...invalid, data: { reason: 'mismatch' } });
    expect(demo.stderr()).toMatch(/requestState refused \(mismatch\): sealed for another tool or method/);
  });

  it('refuses a state sealed by a server with another key', async () => {
    const settings = freshDemoSettings();
    const { first } = await askToRefund(settings);
    const other = await connect({ ...settings, key: freshDemoSettings().key });
    const error = await refusal(callRound(other.client, 'refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } }));
    expect(error).toMatchObject({ ...invalid, data: { reason: 'invalid' } });
    expect(other.stderr()).toMatch(/requestState refused \(invalid\): sealed with a key this server does not hold/);
    expect(refundCount(settings.db, 'ord_51')).toBe(0);
  });

  it('refuses a state presented for another principal', async () => {
    const settings = freshDemoSettings();
    const { first } = await askToRefund(settings);
    const mallory = await connect({ ...settings, principal: 'mallory' });
    const error = await refusal(callRound(mallory.client, 'refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } }));
    expect(error).toMatchObject({ ...invalid, data: { reason: 'mismatch' } });
    expect(mallory.stderr()).toMatch(/requestState refused \(mismatch\): sealed for another principal/);
    expect(refundCount(settings.db, 'ord_51')).toBe(0);
  });

  it('accepts a state sealed by another process with the same key and principal', async () => {
    const settings = freshDemoSettings();
    const { first } = await askToRefund(settings);
    const second = await connect(settings);
    const done = await callRound(second.client, 'refund_order', { order_id: 'ord_51' }, { requestState: first.requestState, inputResponses: { confirm: accept({ confirm: true }) } });
    expect(done.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
  });
});

describe('refund_order for a 2025-era host', () => {
  it('asks through a real elicitation/create request and refunds on accept', async () => {
    const settings = freshDemoSettings();
    const asked: string[] = [];
    const demo = await connect(settings, { era: 'legacy', answer: (message) => (asked.push(message), accept({ confirm: true })) });
    const result = (await demo.client.callTool({ name: 'refund_order', arguments: { order_id: 'ord_52' } })) as { content: Array<{ text: string }> };
    expect(asked).toEqual(['Refund $120.00 for order ord_52?']);
    expect(result.content[0]?.text).toBe('Refunded $120.00 for order ord_52.');
    expect(refundCount(settings.db, 'ord_52')).toBe(1);
  });

  it('ends the flow when the host declines, instead of asking again', async () => {
    const settings = freshDemoSettings();
    const asked: string[] = [];
    const demo = await connect(settings, { era: 'legacy', answer: (message) => (asked.push(message), { action: 'decline' }) });
    const result = (await demo.client.callTool({ name: 'refund_order', arguments: { order_id: 'ord_52' } })) as { content: Array<{ text: string }> };
    expect(asked).toHaveLength(1);
    expect(result.content[0]?.text).toBe('Order ord_52 was not refunded.');
    expect(refundCount(settings.db, 'ord_52')).toBe(0);
  });
});
