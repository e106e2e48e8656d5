import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { defineTool, type ToolResultView } from '../src/index.ts';
import { complete, failedText, makeEngine } from './support.ts';

type Refund = { orderId: string; cents: number; email: string; internalNote: string };

/** A machine that finishes at once with `output`. */
const finishing = (output: Refund) =>
  setup({ types: { output: {} as Refund } }).createMachine({
    id: 'instant',
    initial: 'done',
    states: { done: { type: 'final' } },
    output: () => output,
  });

const outputSchema = z.object({
  orderId: z.string(),
  cents: z.int().min(0),
  email: z.string().trim().toLowerCase(),
});

function makeTool(
  output: Refund,
  result: (o: Refund) => ToolResultView<z.output<typeof outputSchema>> = (o) => ({ text: `refunded ${o.cents}`, structured: o }),
) {
  return defineTool({
    name: 'refund_order',
    title: 'Refund an order',
    description: 'Refunds an order',
    input: z.object({ order_id: z.string() }),
    machine: finishing(output),
    output: outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    result,
  });
}

const refund: Refund = { orderId: 'ord_1', cents: 1250, email: '  Ada@Example.ORG ', internalNote: 'not for the client' };
const call = (tool: ReturnType<typeof makeTool>) => makeEngine([tool]).call({ name: 'refund_order', arguments: { order_id: 'ord_1' } });

describe('tool metadata', () => {
  it('lists the title, the annotations and the output schema (as JSON Schema, without $schema)', () => {
    const { engine } = makeEngine([makeTool(refund)]);
    expect(engine.listTools()).toEqual([
      {
        name: 'refund_order',
        title: 'Refund an order',
        description: 'Refunds an order',
        inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        outputSchema: {
          type: 'object',
          properties: {
            orderId: { type: 'string' },
            cents: { type: 'integer', minimum: 0, maximum: 9007199254740991 },
            email: { type: 'string' },
          },
          required: ['orderId', 'cents', 'email'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      },
    ]);
  });

  it('leaves out title, annotations and output schema when the tool declares none', () => {
    const plain = defineTool({
      name: 'plain',
      description: 'd',
      input: z.object({}),
      machine: finishing(refund),
      result: () => ({ text: 'ok' }),
    });
    expect(makeEngine([plain]).engine.listTools()).toEqual([
      { name: 'plain', description: 'd', inputSchema: { type: 'object', properties: {} } },
    ]);
    expect(plain).toMatchObject({ title: undefined, annotations: undefined, outputSchema: undefined });
  });

  it('keeps the annotations as given, in a frozen copy', () => {
    const annotations = { readOnlyHint: true };
    const tool = defineTool({
      name: 'look',
      description: 'd',
      input: z.object({}),
      machine: finishing(refund),
      annotations,
      result: () => ({ text: 'ok' }),
    });
    annotations.readOnlyHint = false;
    expect(tool.annotations).toEqual({ readOnlyHint: true });
    expect(Object.isFrozen(tool.annotations)).toBe(true);
  });
});

describe('structured content checked against the output schema', () => {
  it('sends what the output schema produces: transformed values, unknown keys left out', async () => {
    const outcome = complete(await call(makeTool(refund)));
    expect(outcome.result).toEqual({
      content: [{ type: 'text', text: 'refunded 1250' }],
      structuredContent: { orderId: 'ord_1', cents: 1250, email: 'ada@example.org' },
    });
  });

  it("parses structured content as the schema's input, so a type-changing transform sends its output", async () => {
    const instant = setup({ types: { output: {} as { cents: number } } }).createMachine({
      id: 'm',
      initial: 'done',
      states: { done: { type: 'final' } },
      output: () => ({ cents: 1250 }),
    });
    const tool = defineTool({
      name: 'priced',
      description: 'd',
      input: z.object({}),
      machine: instant,
      output: z.object({ cents: z.string().transform(Number) }),
      // structured is what the schema parses (its input, a string); the parsed number is sent
      result: (o) => ({ text: '', structured: { cents: String(o.cents) } }),
    });
    expect(complete(await makeEngine([tool]).call({ name: 'priced', arguments: {} })).result.structuredContent).toEqual({ cents: 1250 });
  });

  it('turns a mismatch into a tool error result for the client and an error log naming the field', async () => {
    const tool = makeTool({ ...refund, cents: -5 });
    const { call: callTool, logs } = makeEngine([tool]);
    const outcome = complete(await callTool({ name: 'refund_order', arguments: { order_id: 'ord_1' } }));
    expect(outcome.result).toEqual({ content: [{ type: 'text', text: failedText("Tool 'refund_order'") }], isError: true });
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'error',
        event: 'result_error',
        code: 'finish_threw',
        target: 'tool refund_order',
        error: expect.objectContaining({
          message:
            "the structured result does not match the tool's output schema (cents: Too small: expected number to be >=0); fix result() or the schema",
        }),
      }),
    ]);
  });

  it('refuses a result without structured content when the tool declares an output schema', async () => {
    const tool = makeTool(refund, (o) => ({ text: `refunded ${o.cents}` }));
    const { call: callTool, logs } = makeEngine([tool]);
    expect(complete(await callTool({ name: 'refund_order', arguments: { order_id: 'ord_1' } })).result.isError).toBe(true);
    expect(logs[0]!.message).toMatch(/the tool declares an output schema but result\(\) gave no 'structured' content; return it$/);
  });

  it('lets a tool error result go without structured content', async () => {
    const outcome = complete(await call(makeTool(refund, () => ({ text: 'No such order', isError: true }))));
    expect(outcome.result).toEqual({ content: [{ type: 'text', text: 'No such order' }], isError: true });
  });
});
