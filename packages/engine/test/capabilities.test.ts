import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { defineTool, ErrorCode } from '../src/index.ts';
import { makeConfirmTool, pizzaTool } from './machines.ts';
import { accept, complete, failed, inputRequired, makeEngine } from './support.ts';

const refund = makeConfirmTool();
const args = { order_id: 'ord_1' };

describe('capability gating', () => {
  it.each([
    ['no capabilities', undefined],
    ['capabilities without elicitation', { sampling: {} }],
    ['elicitation: { url: {} } only', { elicitation: { url: {} } }],
  ] as const)('answers -32021 with data.requiredCapabilities when the request declared %s', async (_, capabilities) => {
    const { call, logs } = makeEngine([refund]);
    const outcome = failed(await call({ name: 'refund_order', arguments: args, capabilities }));
    expect(outcome.error).toEqual({
      code: -32021,
      message:
        "Tool 'refund_order' needs to ask the user ('confirm'), but this request did not declare the elicitation capability. Use a client that supports form elicitation.",
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(ErrorCode.MissingRequiredClientCapability).toBe(-32021);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'info',
        event: 'capability_missing',
        code: 'cannot_ask',
        keys: "'confirm'",
      }),
    );
  });

  it.each([
    ['elicitation: {}', { elicitation: {} }],
    ['elicitation: { form: {} }', { elicitation: { form: {} } }],
    ['elicitation: { form: {}, url: {} }', { elicitation: { form: {}, url: {} } }],
  ] as const)('asks when the request declared %s', async (_, capabilities) => {
    const { call } = makeEngine([refund]);
    inputRequired(await call({ name: 'refund_order', arguments: args, capabilities }));
  });

  it('names every key it needed to ask when parallel states ask at once', async () => {
    const { call } = makeEngine([pizzaTool]);
    const outcome = failed(await call({ name: 'order_pizza', arguments: {}, capabilities: undefined }));
    expect(outcome.error.message).toMatch(/needs to ask the user \('size', 'toppings'\)/);
  });

  it('checks the capabilities of each request: a retry without elicitation is refused, even with a valid state', async () => {
    const { call } = makeEngine([makeConfirmTool({ name: 'loop' })]);
    const first = inputRequired(await call({ name: 'loop', arguments: args }));
    const retry = await call({
      name: 'loop',
      arguments: args,
      requestState: first.requestState,
      inputResponses: { confirm: accept({ confirm: 'bad' }) },
      capabilities: {},
    });
    expect(failed(retry).error.code).toBe(-32021);
  });

  it('needs no capability to finish: a retry that completes the run succeeds without elicitation', async () => {
    const { call } = makeEngine([refund]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    const done = await call({
      name: 'refund_order',
      arguments: args,
      requestState: first.requestState,
      inputResponses: { confirm: accept({ confirm: true }) },
      capabilities: undefined,
    });
    expect(complete(done).result.structuredContent).toEqual({ outcome: 'refunded', orderId: 'ord_1' });
  });

  it('needs no capability for a tool that finishes without asking', async () => {
    const machine = setup({}).createMachine({ id: 'instant', initial: 'done', states: { done: { type: 'final' } } });
    const instant = defineTool({
      name: 'instant',
      description: 'Never asks',
      input: z.object({}),
      machine,
      result: () => ({ text: 'ok' }),
    });
    const { call } = makeEngine([instant]);
    expect(complete(await call({ name: 'instant', arguments: {}, capabilities: undefined })).result).toEqual({
      content: [{ type: 'text', text: 'ok' }],
    });
  });
});
