import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, ConfirmedValueChangedError, defineQuestions, defineTool, type EffectSpec } from '../src/index.ts';
import { accept, complete, inputRequired, makeEngine } from './support.ts';

type Price = { cents: number; currency: string };
type RefundContext = { orderId: string; price: Price | null; refunded: Price | null };

const questions = defineQuestions<RefundContext>()({
  confirm: {
    message: 'Refund {{price.cents}} {{price.currency}} cents for order {{orderId}}?',
    schema: z.object({ confirm: z.boolean() }),
  },
});

/** The order book the tool reads (the live value), and what the refund actor did. */
interface Shop {
  prices: Map<string, Price>;
  refunds: Price[];
  /** Every error the refunding invoke's onError received. */
  errors: unknown[];
}

function makeRefundTool(shop: Shop, guard: { once?: boolean } = {}) {
  const machine = setup({
    types: {
      context: {} as RefundContext,
      input: {} as { order_id: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { refunded: Price | null },
    },
    actors: {
      lookupPrice: fromPromise<Price, { orderId: string }>(async ({ input }) => ({ ...shop.prices.get(input.orderId)! })),
      issueRefund: fromPromise<Price, { orderId: string; price: Price }>(async ({ input }) => {
        shop.refunds.push(input.price);
        return input.price;
      }),
    },
    guards: { priceChanged: ({ event }) => (event as { error?: unknown }).error instanceof ConfirmedValueChangedError },
  }).createMachine({
    id: 'refund',
    context: ({ input }) => ({ orderId: input.order_id, price: null, refunded: null }),
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          id: 'lookup',
          src: 'lookupPrice',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'confirming', actions: assign({ price: ({ event }) => event.output }) },
        },
      },
      confirming: { meta: { ask: ['confirm'] }, on: { 'confirm.accept': 'refunding', 'confirm.*': 'done' } },
      refunding: {
        invoke: {
          id: 'refund',
          src: 'issueRefund',
          input: ({ context }) => ({ orderId: context.orderId, price: context.price! }),
          onDone: { target: 'done', actions: assign({ refunded: ({ event }) => event.output }) },
          onError: [
            {
              guard: 'priceChanged',
              target: 'confirming',
              actions: [
                ({ event }) => shop.errors.push(event.error),
                assign({ price: ({ event }) => (event.error as ConfirmedValueChangedError).current as Price }),
              ],
            },
            { target: 'done', actions: ({ event }) => shop.errors.push(event.error) },
          ],
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ refunded: context.refunded }),
  });
  const refundGuard: EffectSpec<{ orderId: string; price: Price }> = {
    ...guard,
    confirmed: { shown: ({ input }) => input.price, current: ({ input }) => shop.prices.get(input.orderId) },
  };
  return defineTool({
    name: 'refund_order',
    description: 'Refunds the price the user confirmed, if it is still the price',
    input: z.object({ order_id: z.string() }),
    questions,
    machine,
    result: (output) => ({ text: output.refunded ? `refunded ${output.refunded.cents}` : 'not refunded', structured: output }),
    effects: { issueRefund: refundGuard },
  });
}

const args = { order_id: 'ord_1' };
const yes = { confirm: accept({ confirm: true }) };
const newShop = (price: Price): Shop => ({ prices: new Map([['ord_1', price]]), refunds: [], errors: [] });

describe('effects that recheck the value the user confirmed', () => {
  it('acts when the live value is still the one the user confirmed', async () => {
    const shop = newShop({ cents: 500, currency: 'EUR' });
    const { call } = makeEngine([makeRefundTool(shop)]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    expect(first.inputRequests.confirm!.params.message).toBe('Refund 500 EUR cents for order ord_1?');
    const done = complete(await call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes }));
    expect(done.result.structuredContent).toEqual({ refunded: { cents: 500, currency: 'EUR' } });
    expect(shop.refunds).toEqual([{ cents: 500, currency: 'EUR' }]);
    expect(shop.errors).toEqual([]);
  });

  it('compares values as canonical JSON, so the order of keys does not count as a change', async () => {
    const shop = newShop({ cents: 500, currency: 'EUR' });
    const { call } = makeEngine([makeRefundTool(shop)]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    shop.prices.set('ord_1', { currency: 'EUR', cents: 500 });
    complete(await call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes }));
    expect(shop.refunds).toHaveLength(1);
  });

  it('does not act when the live value changed between question and answer; the machine gets ConfirmedValueChangedError and asks again with the new value', async () => {
    const shop = newShop({ cents: 500, currency: 'EUR' });
    const { call } = makeEngine([makeRefundTool(shop)]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    shop.prices.set('ord_1', { cents: 700, currency: 'EUR' });

    const again = inputRequired(
      await call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes }),
    );
    expect(again.inputRequests.confirm!.params.message).toBe('Refund 700 EUR cents for order ord_1?');
    expect(shop.refunds).toEqual([]);
    expect(shop.errors).toHaveLength(1);
    const error = shop.errors[0] as ConfirmedValueChangedError;
    expect(error).toBeInstanceOf(ConfirmedValueChangedError);
    expect(error).toMatchObject({
      name: 'ConfirmedValueChangedError',
      effect: 'refund',
      shown: { cents: 500, currency: 'EUR' },
      current: { cents: 700, currency: 'EUR' },
    });
    expect(error.message).toBe(
      'Effect \'refund\' did not act: the user confirmed {"cents":500,"currency":"EUR"}, but the value is now {"cents":700,"currency":"EUR"}. Ask again with the new value.',
    );

    const done = complete(await call({ name: 'refund_order', arguments: args, requestState: again.requestState, inputResponses: yes }));
    expect(done.result.structuredContent).toEqual({ refunded: { cents: 700, currency: 'EUR' } });
    expect(shop.refunds).toEqual([{ cents: 700, currency: 'EUR' }]);
  });

  it('does not act on the stale answer when it is sent again after the change', async () => {
    const shop = newShop({ cents: 500, currency: 'EUR' });
    const { call } = makeEngine([makeRefundTool(shop)]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    shop.prices.set('ord_1', { cents: 700, currency: 'EUR' });
    for (let i = 0; i < 2; i++) {
      const again = inputRequired(
        await call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes }),
      );
      expect(again.inputRequests.confirm!.params.message).toMatch(/^Refund 700 EUR/);
    }
    expect(shop.refunds).toEqual([]);
  });

  it('records nothing for a change, so a once-only effect still acts once after the re-ask, and a replay does not act again', async () => {
    const shop = newShop({ cents: 500, currency: 'EUR' });
    const { call } = makeEngine([makeRefundTool(shop, { once: true })]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    shop.prices.set('ord_1', { cents: 700, currency: 'EUR' });
    const again = inputRequired(
      await call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes }),
    );
    const confirm = () => call({ name: 'refund_order', arguments: args, requestState: again.requestState, inputResponses: yes });
    const done = complete(await confirm());
    expect(complete(await confirm())).toEqual(done);
    expect(shop.refunds).toEqual([{ cents: 700, currency: 'EUR' }]);
  });
});
