// The hand-written refund machine kept as the example of the engine's machine API
// (src/examples/refund-order-machine-example.ts), run through the engine over the demo's SQLite file:
// it asks, refunds what the user confirmed once, and asks again when the amount changed.
import { createEngine } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { createRefundOrderMachineTool } from '../src/examples/refund-order-machine-example.ts';
import { accept, closeDemoEngines, demoEngine, done, FORM, question, sharedKeyring, textOf } from './support/demo-engine.ts';

afterEach(closeDemoEngines);

const yes = { confirm: accept({ confirm: true }) };

async function machineEngine() {
  const demo = await demoEngine();
  const engine = createEngine({
    tools: [createRefundOrderMachineTool(demo.store)],
    keyring: sharedKeyring,
    audience: 'example',
    ledger: demo.ledger,
  });
  const call = (retry: { requestState?: string; inputResponses?: unknown } = {}) =>
    engine.callTool({ name: 'refund_order', arguments: { order_id: 'ord_51' }, principal: 'ada', capabilities: FORM, ...retry } as never);
  return { demo, call };
}

describe('the hand-written refund machine (example of the machine API)', () => {
  it('asks to confirm the amount, then refunds it once', async () => {
    const { demo, call } = await machineEngine();
    const asked = question(await call(), 'confirm');
    expect(asked.message).toBe('Refund $49.00 for order ord_51?');
    const result = done(await call({ requestState: asked.requestState, inputResponses: yes }));
    expect(textOf(result)).toBe('Refunded $49.00 for order ord_51.');
    expect(result.structuredContent).toMatchObject({ status: 'refunded', amount_cents: 4900 });
    expect(await demo.store.countRefunds('ord_51')).toBe(1);
  });

  it('asks again with the new amount when it changed after the user saw it, and refunds that', async () => {
    const { demo, call } = await machineEngine();
    const first = question(await call(), 'confirm');
    await demo.store.setOrderAmount('ord_51', 5900);
    const again = question(await call({ requestState: first.requestState, inputResponses: yes }), 'confirm');
    expect(again.message).toBe('The amount of order ord_51 changed to $59.00 since you were asked. Refund $59.00 for order ord_51?');
    expect(await demo.store.countRefunds('ord_51')).toBe(0);
    const result = done(await call({ requestState: again.requestState, inputResponses: yes }));
    expect(textOf(result)).toBe('Refunded $59.00 for order ord_51.');
    expect(await demo.store.refundsOf('ord_51')).toEqual([expect.objectContaining({ amountCents: 5900 })]);
  });
});
