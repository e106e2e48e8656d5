// A tool's result may be async: it can read a store whose reads are (PostgreSQL), and the round answers
// once it resolves; a rejection fails the round like a result that throws. Sync results keep working.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { defineTool, type ToolResultView } from '../src/index.ts';
import { complete, deferred, failedText, makeEngine } from './support.ts';

const machine = setup({ types: { output: {} as { orderId: string } } }).createMachine({
  id: 'status',
  initial: 'done',
  states: { done: { type: 'final' } },
  output: () => ({ orderId: 'ord_1' }),
});

/** A store whose reads are async, resolved by the test. */
function slowStore() {
  const read = deferred<string>();
  return { read, status: (orderId: string) => read.promise.then((status) => `${orderId} is ${status}`) };
}

describe('an async tool result', () => {
  it('is awaited before the round answers, with its structured content checked against the output schema', async () => {
    const store = slowStore();
    const tool = defineTool({
      name: 'order_status',
      description: 'Says where an order is',
      input: z.object({}),
      machine,
      output: z.object({ status: z.string() }),
      result: async (output) => {
        const status = await store.status(output.orderId);
        return { text: status, structured: { status } };
      },
    });
    const { call } = makeEngine([tool]);
    const pending = call({ name: 'order_status', arguments: {} });
    store.read.resolve('shipped');
    expect(complete(await pending).result).toEqual({
      content: [{ type: 'text', text: 'ord_1 is shipped' }],
      structuredContent: { status: 'ord_1 is shipped' },
    });
  });

  it('fails the round like a throwing result when it rejects, and logs why for the author', async () => {
    const tool = defineTool({
      name: 'order_status',
      description: 'Says where an order is',
      input: z.object({}),
      machine,
      result: async () => {
        throw new Error('the orders database is down');
      },
    });
    const { call, logs } = makeEngine([tool]);
    const outcome = complete(await call({ name: 'order_status', arguments: {} }));
    expect(outcome.result).toEqual({ content: [{ type: 'text', text: failedText("Tool 'order_status'") }], isError: true });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        event: 'result_error',
        code: 'finish_threw',
        owner: "Tool 'order_status'",
        error: new Error('the orders database is down'),
      }),
    );
  });

  it('types the result as sync or async, structured content by the output schema', () => {
    type Result = Parameters<typeof defineTool>[0]['result'];
    expectTypeOf<() => ToolResultView>().toExtend<Result>();
    expectTypeOf<() => Promise<ToolResultView>>().toExtend<Result>();
    defineTool({
      name: 'typed',
      description: 'Typed',
      input: z.object({}),
      machine,
      output: z.object({ status: z.string() }),
      // @ts-expect-error: a number is not the schema's status
      result: async () => ({ text: 'x', structured: { status: 1 } }),
    });
  });
});
