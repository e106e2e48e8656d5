import {
  type ClientCapabilities,
  createEngine,
  createKeyring,
  createMemoryLedger,
  generateKey,
  RoundtripDefinitionError,
} from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, field, openPage } from '../src/index.ts';
import { flowMachineConfig } from '../src/internal.ts';
import { conversationsOf } from '../src/testing/index.ts';

const paid = new Set<string>();

const checkout = defineFlowTool({
  name: 'checkout',
  description: 'Pays for an order on the payment page, or by invoice',
  input: z.object({ order: z.string() }),
  steps: {
    pay: openPage({
      message: 'Pay for order {{input.order}} on the payment page, then come back.',
      url: 'https://pay.example.com/orders/{{input.order}}?from=chat',
      alternative: 'invoice',
      check: ({ input }) => (paid.has(String(input.order)) ? undefined : 'the payment has not arrived yet'),
      next: 'finish',
    }),
    invoice: ask({ message: 'Send an invoice for {{input.order}} instead?', fields: { send: field.boolean() } }),
  },
  final: ({ input, answers }) => ({
    text: answers.invoice ? `invoice for ${input.order}: ${answers.invoice.send}` : `paid ${input.order}`,
  }),
});

function client(capabilities: ClientCapabilities) {
  const engine = createEngine({
    tools: [checkout],
    keyring: createKeyring([generateKey()]),
    audience: 'test',
    ledger: createMemoryLedger(),
  });
  return (order: string, extra: { requestState?: string; inputResponses?: Record<string, unknown> } = {}) =>
    engine.callTool({ name: 'checkout', arguments: { order }, principal: 'ada', capabilities, ...extra });
}

describe('a page step', () => {
  it('sends a client that can open pages to the page (values URL-encoded), and checks it was finished', async () => {
    const call = client({ elicitation: { form: {}, url: {} } });
    const first = await call('ord 1&x=2');
    expect(first.type).toBe('input_required');
    if (first.type !== 'input_required') return;
    expect(first.inputRequests.pay!.params).toMatchObject({
      mode: 'url',
      message: 'Pay for order ord 1&x=2 on the payment page, then come back.',
      url: 'https://pay.example.com/orders/ord%201%26x%3D2?from=chat',
    });
    // back from the page before paying: offered again, with the reason
    const early = await call('ord 1&x=2', { requestState: first.requestState, inputResponses: { pay: { action: 'accept' } } });
    if (early.type !== 'input_required') throw new Error(JSON.stringify(early));
    expect(early.inputRequests.pay).toMatchObject({
      params: {
        message:
          'Pay for order ord 1&x=2 on the payment page, then come back.\n\nYour last answer was not accepted: the payment has not arrived yet. Please answer again.',
      },
    });
    paid.add('ord 1&x=2');
    const done = await call('ord 1&x=2', { requestState: early.requestState, inputResponses: { pay: { action: 'accept' } } });
    expect(done).toEqual({ type: 'complete', result: { content: [{ type: 'text', text: 'paid ord 1&x=2' }] } });
  });

  it('sends a client that cannot open pages to the alternative step', async () => {
    const call = client({ elicitation: {} });
    const first = await call('ord_2');
    if (first.type !== 'input_required') throw new Error(JSON.stringify(first));
    expect(Object.keys(first.inputRequests)).toEqual(['invoice']);
    const done = await call('ord_2', {
      requestState: first.requestState,
      inputResponses: { invoice: { action: 'accept', content: { send: true } } },
    });
    expect(done).toEqual({ type: 'complete', result: { content: [{ type: 'text', text: 'invoice for ord_2: true' }] } });
  });

  it("is walked by conversationsOf as a form-only client sees it: the alternative's ways", () => {
    const ways = conversationsOf(checkout, { input: { order: 'ord_3' } }).map((c) => ({
      asked: c.rounds.map((r) => r.asked),
      end: c.end.status,
    }));
    expect(ways).toContainEqual({ asked: [['invoice']], end: 'done' });
    expect(ways).toContainEqual({ asked: [['invoice']], end: 'ended' });
    expect(ways.flatMap((w) => w.asked.flat())).not.toContain('pay');
  });

  it('handles the client event only in flows with pages, as JSON', () => {
    expect(flowMachineConfig(checkout).on).toEqual({ 'roundtrip.client': { actions: [{ type: 'noteClient' }] } });
    expect((flowMachineConfig(checkout).states as Record<string, { initial?: string }>).pay!.initial).toBe('choosing');
  });

  it('refuses a page that is not https and an alternative that is not a step', () => {
    try {
      defineFlowTool({
        name: 'bad',
        description: 'Bad',
        input: z.object({}),
        steps: { pay: openPage({ message: 'Pay.', url: 'http://pay.example.com/', alternative: 'nowhere' }) },
        final: () => ({ text: 'x' }),
      });
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(RoundtripDefinitionError);
      expect((error as RoundtripDefinitionError).problems.map((p) => `${p.path.join(' › ')}: ${p.message}`)).toEqual([
        "tool 'bad' › step 'pay' › url: the page 'http://pay.example.com/' is not an https URL.",
        "tool 'bad' › step 'pay' › alternative: 'nowhere' is not another step.",
      ]);
    }
  });
});
