// Real servers on node:http (127.0.0.1, a free port) started in this process by runHttpServer, and the
// official clients speaking to them over real HTTP: the v2 client pinned to 2026-07-28 with the SDK's
// StreamableHTTPClientTransport, and the v1 client (`@modelcontextprotocol/sdk` 1.x, 2025-11-25).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type EngineLogEntry, generateKey } from '@roundtrip/engine';
import { type HttpServerOptions, type RunningHttpServer, runHttpServer } from '../../src/node/index.ts';

export interface TestServer {
  server: RunningHttpServer;
  url: URL;
  logs: EngineLogEntry[];
}

const running: TestServer[] = [];
const clients: Array<{ close(): Promise<void> }> = [];

/** Closes every client and server the test opened (call it in afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(running.splice(0).map(({ server }) => server.close()));
}

/** A key shared by servers that serve one conversation, as instances of one deployment share a keyring. */
export const sharedKey = () => generateKey();

/** A server on 127.0.0.1 at a free port, its ledger in memory, its log kept for the test. */
export async function startServer(
  options: Partial<HttpServerOptions> & Pick<HttpServerOptions, 'tools'>,
  env: NodeJS.ProcessEnv = {},
): Promise<TestServer> {
  const logs: EngineLogEntry[] = [];
  const server = await runHttpServer({
    name: 'http-test',
    version: '0.0.1',
    listen: '127.0.0.1:0',
    handleSignals: false,
    log: (entry) => logs.push(entry),
    ...options,
    env: { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada', ROUNDTRIP_LEDGER: ':memory:', ...env },
  });
  const started = { server, url: server.url, logs };
  running.push(started);
  return started;
}

/** What a fetch saw of each response: the JSON-RPC method it answered and the instance that answered it. */
export interface Exchange {
  method: string | null;
  url: string;
  status: number;
  /** The media type of the response: `application/json`, or `text/event-stream` for a stream. */
  contentType: string | undefined;
  instance: string | null;
}

export interface ModernClientOptions {
  /** The URLs to send requests to, in turn (a round-robin balancer in front of several instances). */
  urls: URL[];
  /** Answers the elicitation/create of each input request when set (the client then fulfils input_required itself). */
  answer?: (message: string) => Record<string, unknown>;
  token?: () => string;
}

/** The v2 client pinned to 2026-07-28 over real HTTP; `exchanges` records every HTTP response. */
export async function connectModern(options: ModernClientOptions): Promise<{ client: Client; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  let next = 0;
  const balancer: typeof fetch = async (_input, init) => {
    const url = options.urls[next++ % options.urls.length]!;
    const response = await fetch(url, init);
    const method = new Headers(init?.headers).get('mcp-method');
    exchanges.push({
      method,
      url: url.href,
      status: response.status,
      contentType: response.headers.get('content-type')?.split(';')[0],
      instance: response.headers.get('roundtrip-instance'),
    });
    return response;
  };
  const client = new Client(
    { name: 'http-test-host', version: '0.0.1' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: options.answer !== undefined, maxRounds: 10 },
    },
  );
  if (options.answer) {
    const answer = options.answer;
    client.setRequestHandler('elicitation/create', async (request) => ({
      action: 'accept',
      content: answer((request.params as { message: string }).message) as Record<string, string | number | boolean>,
    }));
  }
  const token = options.token;
  await client.connect(
    new StreamableHTTPClientTransport(options.urls[0]!, {
      fetch: balancer,
      ...(token && { authProvider: { token: async () => token() } }),
    }),
  );
  clients.push(client);
  return { client, exchanges };
}

/** The v1 client (2025-11-25) over real HTTP, declaring `capabilities` (by default none: it cannot be asked). */
export async function connectLegacy(url: URL, capabilities: Record<string, object> = {}): Promise<V1Client> {
  const client = new V1Client({ name: 'v1-http-host', version: '0.0.1' }, { capabilities });
  await client.connect(new V1HttpTransport(url));
  clients.push(client);
  return client;
}

/** One round of a tool call, answering input_required by hand. */
export type Round = {
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { params: { message: string } }>;
  content?: Array<{ type: string; text: string }>;
  isError?: boolean;
};

export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
