import { describe, expect, it } from 'vitest';
import { pizzaTool } from './machines.ts';
import { accept, complete, decline, inputRequired, makeEngine } from './support.ts';

describe('parallel states', () => {
  it('asks the questions of every active parallel region in the same round', async () => {
    const { call } = makeEngine([pizzaTool]);
    const outcome = inputRequired(await call({ name: 'order_pizza', arguments: {} }));
    expect(outcome.inputRequests).toEqual({
      size: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which size?',
          requestedSchema: { type: 'object', properties: { size: { type: 'string', enum: ['small', 'large'] } }, required: ['size'] },
        },
      },
      toppings: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which toppings?',
          requestedSchema: {
            type: 'object',
            properties: { toppings: { type: 'array', items: { type: 'string', enum: ['olive', 'basil'] } } },
            required: ['toppings'],
          },
        },
      },
    });
  });

  it('finishes when both questions are answered together', async () => {
    const { call } = makeEngine([pizzaTool]);
    const r1 = inputRequired(await call({ name: 'order_pizza', arguments: {} }));
    const done = complete(
      await call({
        name: 'order_pizza',
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { size: accept({ size: 'large' }), toppings: accept({ toppings: ['olive', 'basil'] }) },
      }),
    );
    expect(done.result.structuredContent).toEqual({ ordered: true, size: 'large', toppings: ['olive', 'basil'] });
  });

  it('asks only the unanswered question when one of two is answered, and keeps the accepted one', async () => {
    const { call } = makeEngine([pizzaTool]);
    const r1 = inputRequired(await call({ name: 'order_pizza', arguments: {} }));
    const r2 = inputRequired(
      await call({
        name: 'order_pizza',
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { size: accept({ size: 'small' }) },
      }),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['toppings']);
    const done = complete(
      await call({
        name: 'order_pizza',
        arguments: {},
        requestState: r2.requestState,
        inputResponses: { toppings: accept({ toppings: [] }) },
      }),
    );
    expect(done.result.structuredContent).toEqual({ ordered: true, size: 'small', toppings: [] });
  });

  it('re-asks only the question whose answer was invalid, with the reason, and takes the valid one', async () => {
    const { call } = makeEngine([pizzaTool]);
    const r1 = inputRequired(await call({ name: 'order_pizza', arguments: {} }));
    const r2 = inputRequired(
      await call({
        name: 'order_pizza',
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { size: accept({ size: 'huge' }), toppings: accept({ toppings: ['basil'] }) },
      }),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['size']);
    expect(r2.inputRequests.size!.params.message).toMatch(/^Which size\?\n\nYour last answer was not accepted: size: Invalid option/);
  });

  it('ends the whole flow when one region declines, even if the other region was answered', async () => {
    const { call } = makeEngine([pizzaTool]);
    const r1 = inputRequired(await call({ name: 'order_pizza', arguments: {} }));
    const done = complete(
      await call({
        name: 'order_pizza',
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { size: decline, toppings: accept({ toppings: ['olive'] }) },
      }),
    );
    expect(done.result.structuredContent).toMatchObject({ ordered: false });
  });
});
