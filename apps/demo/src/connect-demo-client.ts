// Starts the demo server as a child process and connects the official MCP client to it over stdio,
// the way a desktop host does, on either protocol era.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

/** The launcher hosts run: plain JavaScript that loads the TypeScript server through tsx, from any folder. */
export const SERVER_LAUNCHER = fileURLToPath(new URL('../bin/roundtrip-demo.mjs', import.meta.url));

export interface DemoServerEnv {
  ROUNDTRIP_DB: string;
  ROUNDTRIP_KEY: string;
  ROUNDTRIP_PRINCIPAL: string;
  ROUNDTRIP_STATE_TTL?: string;
}

export interface ConnectedClient {
  client: Client;
  /** What the server process wrote to stderr so far (its log). */
  serverLog(): string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** `modern` pins 2026-07-28 and hands every input_required result to the caller; `legacy` speaks 2025-11-25. */
  era: 'modern' | 'legacy';
  env: DemoServerEnv;
  /** Called before connecting, e.g. to register the elicitation/create handler of a legacy client. */
  prepare?: (client: Client) => void;
}

export async function connectDemoClient({ era, env, prepare }: ConnectOptions): Promise<ConnectedClient> {
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
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_LAUNCHER],
    // the child sees only what is passed here, not this process's environment
    env: { ...getDefaultEnvironment(), ...(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>) },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => (log += chunk.toString()));
  await client.connect(transport);
  return { client, serverLog: () => log, close: () => client.close() };
}
