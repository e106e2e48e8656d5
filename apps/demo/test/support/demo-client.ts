// Starts the demo server as a real child process and connects the official MCP client to it over
// stdio, the way a desktop host does.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { generateKey } from '@roundtrip/engine';
import { connectDemoClient } from '../../src/connect-demo-client.ts';

export interface DemoSettings {
  db: string;
  key: string;
  principal?: string;
  /** The JavaScript file node runs as the server. @defaultValue the launcher hosts run (through tsx) */
  launcher?: string;
  /** ROUNDTRIP_LEDGER: the effect ledger's own file. @defaultValue the database file */
  ledger?: string;
  /** ROUNDTRIP_DB_BUSY_TIMEOUT_MS: how long a write waits for another connection's lock on the database file. */
  dbBusyTimeoutMs?: number;
}

export interface DemoConnection {
  client: Client;
  /** everything the server wrote to stderr so far */
  stderr(): string;
  /** resolves with the first stderr line matching `pattern` from offset `from` on (rejects after `timeoutMs`, default 2000) */
  waitForLog(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<string>;
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
      ...(settings.ledger && { ROUNDTRIP_LEDGER: settings.ledger }),
      ...(settings.dbBusyTimeoutMs !== undefined && { ROUNDTRIP_DB_BUSY_TIMEOUT_MS: String(settings.dbBusyTimeoutMs) }),
    },
    ...(settings.launcher && { launcher: settings.launcher }),
    prepare: (client) => {
      if (answer)
        client.setRequestHandler('elicitation/create', async (request) => answer((request.params as { message: string }).message) as never);
    },
  });
  return { client: connection.client, stderr: connection.serverLog, waitForLog: connection.waitForLog, close: connection.close };
}

/** The parts of a round's result the tests read, whatever the method. */
export interface RawRoundResult {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params: { mode?: string; message: string; requestedSchema: unknown } }>;
  requestState?: string;
  content?: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  messages?: Array<{ role: string; content: { type: string; text: string } }>;
  contents?: Array<{ uri: string; mimeType?: string; text?: string }>;
}

type Retry = { requestState?: string; inputResponses?: Record<string, unknown> };
const manual = { allowInputRequired: true } as const;

/** One tools/call round, returning input_required results instead of fulfilling them. */
export const callRound = async (client: Client, name: string, args: Record<string, unknown>, retry?: Retry) =>
  (await client.callTool({ name, arguments: args, ...retry } as never, manual)) as RawRoundResult;

/** One prompts/get round. */
export const promptRound = async (client: Client, name: string, args: Record<string, string>, retry?: Retry) =>
  (await client.getPrompt({ name, arguments: args, ...retry } as never, manual)) as RawRoundResult;

/** One resources/read round (never from the client's cache). */
export const readRound = async (client: Client, uri: string, retry?: Retry) =>
  (await client.readResource({ uri, ...retry } as never, { ...manual, cacheMode: 'bypass' })) as RawRoundResult;

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
