// Starts the demo server as a real child process and connects the official MCP client to it over
// stdio, the way a desktop host does.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { generateKey } from '@roundtrip/engine';
import { connectDemoClient } from '../../src/connect-demo-client.ts';
import { openOrdersStore } from '../../src/orders-store.ts';

export interface DemoSettings {
  db: string;
  key: string;
  principal?: string;
  ttlSeconds?: number;
}

export interface DemoConnection {
  client: Client;
  /** everything the server wrote to stderr so far */
  stderr(): string;
  close(): Promise<void>;
}

/** A fresh database path and key for one test. */
export function freshDemoSettings(): DemoSettings {
  return { db: join(mkdtempSync(join(tmpdir(), 'rt-demo-')), 'orders.db'), key: generateKey() };
}

/**
 * Connects a client to a new demo server process. `era: 'modern'` pins 2026-07-28 and leaves every
 * input_required result to the test (no auto-fulfilment); `era: 'legacy'` speaks 2025-11-25 and
 * answers the server's elicitation/create requests with `answer`.
 */
export async function connectDemo(
  settings: DemoSettings,
  options: { era?: 'modern' | 'legacy'; answer?: (message: string) => Record<string, unknown> } = {},
): Promise<DemoConnection> {
  const { answer } = options;
  const connection = await connectDemoClient({
    era: options.era ?? 'modern',
    env: {
      ROUNDTRIP_DB: settings.db,
      ROUNDTRIP_KEY: settings.key,
      ROUNDTRIP_PRINCIPAL: settings.principal ?? 'ada',
      ...(settings.ttlSeconds ? { ROUNDTRIP_STATE_TTL: String(settings.ttlSeconds) } : {}),
    },
    prepare: (client) => {
      if (answer) client.setRequestHandler('elicitation/create', async (request) => answer((request.params as { message: string }).message) as never);
    },
  });
  return { client: connection.client, stderr: connection.serverLog, close: connection.close };
}

/** The parts of a tools/call result the tests read. */
export interface RawCallResult {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params: { mode?: string; message: string; requestedSchema: unknown } }>;
  requestState?: string;
  content?: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** One tools/call round, returning input_required results instead of fulfilling them. */
export async function callRound(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  retry?: { requestState?: string; inputResponses?: Record<string, unknown> },
): Promise<RawCallResult> {
  return (await client.callTool({ name, arguments: args, ...retry } as never, { allowInputRequired: true })) as RawCallResult;
}

/** The JSON-RPC error a call was refused with, or a failure if it was not refused. */
export async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  try {
    await call;
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data: unknown };
    return { code, message, data };
  }
  throw new Error('expected the call to be refused with a JSON-RPC error, but it succeeded');
}

export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** How many refunds the database really holds for an order, read through a second connection. */
export function refundCount(db: string, orderId: string): number {
  const store = openOrdersStore(db);
  try {
    return store.countRefunds(orderId);
  } finally {
    store.close();
  }
}
