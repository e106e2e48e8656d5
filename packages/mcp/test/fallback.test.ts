// Hosts that declare no elicitation (LM Studio and the like), through the real clients over the SDK's
// InMemoryTransport: the v2 client pinned to 2026-07-28 and the v1 client (a 2025-11-25 host). The test
// plays the model: it reads the tool result, "asks the user", and calls again with the answers and the
// continuation token the result gave.
import { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport as V1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  type AnswerEvents,
  type AskMeta,
  createEngine,
  createKeyring,
  defineQuestions,
  defineTool,
  type EngineLogEntry,
  generateKey,
} from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { createServerFactory } from '../src/index.ts';

type Context = { name: string | null; size: string | null };
const questions = defineQuestions<Context>()({
  name: { message: 'Whose order is it?', schema: z.object({ name: z.string().min(1).describe('Full name') }), fallback: 'model' },
  size: {
    message: 'Which size for {{name}}?',
    schema: z.object({ size: z.enum(['small', 'large']) }),
    fallback: 'model',
  },
});

/** Two questions in two rounds; `output` gives it an output schema (its fallback results are then tool errors). */
function orderTool(name: string, output: boolean) {
  const machine = setup({
    types: {
      context: {} as Context,
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { order: string },
    },
  }).createMachine({
    id: 'order',
    context: { name: null, size: null },
    initial: 'name',
    states: {
      name: {
        meta: { ask: ['name'] },
        on: { 'name.accept': { target: 'size', actions: assign({ name: ({ event }) => event.content.name }) } },
      },
      size: {
        meta: { ask: ['size'] },
        on: { 'size.accept': { target: 'done', actions: assign({ size: ({ event }) => event.content.size }) } },
      },
      done: { type: 'final' },
    },
    on: { 'name.*': '.done', 'size.*': '.done' },
    output: ({ context }) => ({ order: `${context.size ?? '-'} for ${context.name ?? '-'}` }),
  });
  return defineTool({
    name,
    description: 'Orders a pizza',
    input: z.object({ shop: z.string() }),
    questions,
    machine,
    annotations: { readOnlyHint: false, destructiveHint: false },
    result: (out) => ({ text: `Ordered ${out.order}.`, structured: out }),
    ...(output ? { output: z.object({ order: z.string() }) } : {}),
  });
}

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean; structuredContent?: unknown };
type Era = 'modern (v2 client pinned to 2026-07-28)' | 'legacy (v1 client, 2025-11-25)';

interface Host {
  callTool(name: string, args: Record<string, unknown>): Promise<Result>;
  listTools(): Promise<Array<{ name: string; inputSchema: Record<string, unknown> }>>;
  logs: EngineLogEntry[];
  errors: Error[];
  close(): Promise<void>;
}

const open: Host[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

/** A host that declares no client capabilities at all. */
async function connect(era: Era): Promise<Host> {
  const logs: EngineLogEntry[] = [];
  const errors: Error[] = [];
  const engine = createEngine({
    tools: [orderTool('order_pizza', false), orderTool('order_pizza_typed', true)],
    keyring: createKeyring([generateKey()]),
    audience: 'fallback-test',
    log: (entry) => logs.push(entry),
  });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const factory = createServerFactory({
    engine,
    name: 'fallback-test',
    version: '0.0.1',
    principal: 'ada',
    onError: (e) => errors.push(e),
  });
  const handle = serveStdio(factory, { transport: serverEnd, onerror: (e) => errors.push(e) });
  let host: Host;
  if (era.startsWith('legacy')) {
    const client = new V1Client({ name: 'lm-host', version: '0.0.1' }, { capabilities: {} });
    await client.connect(clientEnd as unknown as V1Transport);
    host = {
      callTool: async (name, args) => (await client.callTool({ name, arguments: args }, CallToolResultSchema)) as Result,
      listTools: async () => (await client.listTools()).tools as Array<{ name: string; inputSchema: Record<string, unknown> }>,
      logs,
      errors,
      close: async () => {
        await client.close();
        await handle.close();
      },
    };
  } else {
    const client = new Client(
      { name: 'lm-host', version: '0.0.1' },
      { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(clientEnd);
    expect(client.getProtocolEra()).toBe('modern');
    host = {
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as Result,
      listTools: async () => (await client.listTools()).tools as Array<{ name: string; inputSchema: Record<string, unknown> }>,
      logs,
      errors,
      close: async () => {
        await client.close();
        await handle.close();
      },
    };
  }
  open.push(host);
  return host;
}

/** What the model reads in a fallback result. */
function read(result: Result) {
  const text = result.content.map((c) => c.text).join('\n');
  return {
    text,
    questions: [...text.matchAll(/^Question '([^']+)': (.*)$/gm)].map((m) => ({ key: m[1]!, message: m[2]! })),
    fields: [...text.matchAll(/^- (\w+) \((required|optional)[^)]*\): (.*)$/gm)].map((m) => m[0].slice(2)),
    continuation: /^- "continuation": "([^"]+)"$/m.exec(text)?.[1],
  };
}

describe.each<Era>(['modern (v2 client pinned to 2026-07-28)', 'legacy (v1 client, 2025-11-25)'])(
  'a host without elicitation, %s',
  (era) => {
    it('lists the optional answers and continuation arguments', async () => {
      const host = await connect(era);
      const [tool] = await host.listTools();
      expect(tool!.inputSchema).toMatchObject({
        type: 'object',
        required: ['shop'],
        properties: { shop: { type: 'string' }, answers: { type: 'object' }, continuation: { type: 'string' } },
      });
    });

    it('completes a two-round tool with the model relaying the user answers', async () => {
      const host = await connect(era);
      const args = { shop: 'Luigi' };
      const first = await host.callTool('order_pizza', args);
      expect(first.isError).toBeFalsy();
      const asked = read(first);
      expect(asked.questions).toEqual([{ key: 'name', message: 'Whose order is it?' }]);
      expect(asked.fields).toEqual(['name (required): text, at least 1 character. Full name']);
      expect(asked.text).toContain('Do not answer for the user or guess.');
      expect(asked.text).toContain('call order_pizza again with the same arguments as before ({"shop":"Luigi"}) plus:');

      // the user said "Ada"
      const second = read(
        await host.callTool('order_pizza', { ...args, answers: { name: { name: 'Ada' } }, continuation: asked.continuation }),
      );
      expect(second.questions).toEqual([{ key: 'size', message: 'Which size for Ada?' }]);
      expect(second.fields).toEqual(['size (required): one of "small", "large"']);

      // a wrong answer first, then the right one
      const again = read(
        await host.callTool('order_pizza', { ...args, answers: { size: { size: 'huge' } }, continuation: second.continuation }),
      );
      expect(again.text).toMatch(/^Your last answer was not accepted: size: .+\. Please answer again\.$/m);
      const done = await host.callTool('order_pizza', { ...args, answers: { size: { size: 'large' } }, continuation: again.continuation });
      expect(done).toMatchObject({
        content: [{ type: 'text', text: 'Ordered large for Ada.' }],
        structuredContent: { order: 'large for Ada' },
      });
      expect(host.logs.filter((e) => e.event === 'fallback_used')).toHaveLength(3);
      expect(host.errors).toEqual([]);
    });

    it('gives a tool with an output schema its fallback as a tool error the client accepts', async () => {
      const host = await connect(era);
      await host.listTools(); // a client checks results against the output schemas it has listed
      const first = await host.callTool('order_pizza_typed', { shop: 'Luigi' });
      expect(first.isError).toBe(true);
      const asked = read(first);
      expect(asked.questions.map((q) => q.key)).toEqual(['name']);
      const second = read(
        await host.callTool('order_pizza_typed', { shop: 'Luigi', answers: { name: { name: 'Bo' } }, continuation: asked.continuation }),
      );
      const done = await host.callTool('order_pizza_typed', {
        shop: 'Luigi',
        answers: { size: 'decline' },
        continuation: second.continuation,
      });
      expect(done).toMatchObject({ structuredContent: { order: '- for Bo' } });
      expect(done.isError).toBeFalsy();
    });

    it('refuses a changed continuation token with a tool error the model can act on', async () => {
      const host = await connect(era);
      const asked = read(await host.callTool('order_pizza', { shop: 'Luigi' }));
      const refused = await host.callTool('order_pizza', {
        shop: 'Mario',
        answers: { name: { name: 'Ada' } },
        continuation: asked.continuation,
      });
      expect(refused).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/^The 'continuation' token was not accepted: it belongs to another call/) }],
      });
    });
  },
);
