// Starts the demo server as a child process and connects the official MCP client to it over stdio,
// the way a desktop host does, on either protocol era.
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createServerLogReader } from './server-log-reader.ts';

/** The launcher hosts run: plain JavaScript that loads the TypeScript server through tsx, from any folder. */
export const SERVER_LAUNCHER = fileURLToPath(new URL('../bin/roundtrip-demo.mjs', import.meta.url));

/**
 * The SDK's stdio transport, probing the protocol era on the server process it then keeps. The SDK's own
 * class probes a pinned or negotiating client on a disposable sibling process first (for servers that exit
 * on a request before `initialize`), a second start of the server for every connection; a subclass probes
 * in place, as the `roundtrip` command's host does: the demo's server answers `server/discover` first.
 */
class InPlaceStdioTransport extends StdioClientTransport {}

export interface DemoServerEnv {
  ROUNDTRIP_DB: string;
  ROUNDTRIP_KEY: string;
  ROUNDTRIP_PRINCIPAL: string;
  ROUNDTRIP_STATE_TTL?: string;
  ROUNDTRIP_LEDGER?: string;
  ROUNDTRIP_DB_BUSY_TIMEOUT_MS?: string;
}

export interface ConnectedClient {
  client: Client;
  /** What the server process wrote to stderr so far (its log). */
  serverLog(): string;
  /**
   * Resolves with the first complete stderr line matching `pattern` that starts at or after offset
   * `from` of the log (default: any line so far or to come); rejects after `timeoutMs` (default 2000).
   */
  waitForLog(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<string>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** `modern` pins 2026-07-28 and hands every input_required result to the caller; `legacy` speaks 2025-11-25. */
  era: 'modern' | 'legacy';
  env: DemoServerEnv;
  /** Called before connecting, e.g. to register the elicitation/create handler of a legacy client. */
  prepare?: (client: Client) => void;
  /** The JavaScript file `node` runs as the server. @defaultValue {@link SERVER_LAUNCHER} */
  launcher?: string;
}

export async function connectDemoClient({ era, env, prepare, launcher = SERVER_LAUNCHER }: ConnectOptions): Promise<ConnectedClient> {
  const client =
    era === 'modern'
      ? new Client(
          { name: 'roundtrip-scripted-demo', version: '0.1.0' },
          {
            capabilities: { elicitation: { form: {} } },
            versionNegotiation: { mode: { pin: '2026-07-28' } },
            inputRequired: { autoFulfill: false },
          },
        )
      : new Client({ name: 'roundtrip-scripted-demo-legacy', version: '0.1.0' }, { capabilities: { elicitation: { form: {} } } });
  prepare?.(client);
  const transport = new InPlaceStdioTransport({
    command: process.execPath,
    args: [launcher],
    // the child sees only what is passed here, not this process's environment
    env: {
      ...getDefaultEnvironment(),
      ...(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>),
    },
    stderr: 'pipe',
  });
  const reader = createServerLogReader();
  // a PassThrough the child's stderr is piped into (typed as a plain Stream)
  const stderr = transport.stderr as Readable | null;
  stderr?.on('data', reader.append);
  try {
    await client.connect(transport);
  } catch (error) {
    // the server's own words say why (it could not start, or stopped): its log, read to the end, goes with the
    // error; a process that never started (no pid) wrote none, and its stream would never end
    const logEnded = new Promise<void>((resolve) =>
      stderr === null || stderr.readableEnded || transport.pid === null ? resolve() : stderr.once('end', () => resolve()),
    );
    await client.close().catch(() => undefined);
    await logEnded;
    const log = reader.log().trimEnd();
    throw new Error(
      `The demo server did not answer: ${(error as Error).message}\nIts log (stderr): ${log === '' ? '(nothing)' : `\n${log}`}`,
      { cause: error },
    );
  }
  return { client, serverLog: reader.log, waitForLog: reader.waitForLog, close: () => client.close() };
}
