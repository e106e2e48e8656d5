// The demo's stdio server run inside the test's process: what src/server.ts runs (openDemoStores,
// createDemoDefinitions, the transport's runStdioServer with the ledger beside the stores unless
// ROUNDTRIP_LEDGER says otherwise) on in-memory stdin, stdout and stderr, with its settings given as an
// environment instead of read from process.env, and the official client (2026-07-28, every
// input_required round left to the test) reading and writing those streams as a host does a child's.
// Its stderr log is the one a process writes; its definitions come from a set built once per worker
// (reused-definitions.ts). It starts in milliseconds where a process takes hundreds; what needs a
// process (a crash, a signal, a race between processes) is support/demo-process.ts's.
import { PassThrough } from 'node:stream';
import { Client, type JSONRPCMessage, ReadBuffer, serializeMessage, type Transport } from '@modelcontextprotocol/client';
import { runStdioServer } from '@roundtrip/transport-stdio';
import { dbBusyTimeoutMs } from '../../src/db-busy-timeout.ts';
import { ledgerInDatabase } from '../../src/db-location.ts';
import { DEMO_VARIABLES, SERVER_INSTRUCTIONS, SERVER_NAME, SERVER_VERSION } from '../../src/demo-definitions.ts';
import { openDemoStores } from '../../src/demo-stores.ts';
import { createServerLogReader } from '../../src/server-log-reader.ts';
import type { DemoConnection, DemoSettings } from './demo-client.ts';
import { borrowDefinitions } from './reused-definitions.ts';

/** A client transport over a server's stdin and stdout streams: one JSON-RPC message a line, as over a pipe. */
class StreamsTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #buffer = new ReadBuffer();

  constructor(
    private readonly stdin: PassThrough,
    private readonly stdout: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.stdout.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      try {
        for (let message = this.#buffer.readMessage(); message; message = this.#buffer.readMessage()) this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.stdin.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.stdin.end();
    this.onclose?.();
  }
}

/** Starts the demo's stdio server in this process on `settings` and connects the official client to it as principal 'ada'. */
export async function startInProcessDemo(settings: DemoSettings): Promise<DemoConnection> {
  const env: NodeJS.ProcessEnv = {
    ROUNDTRIP_DB: settings.db,
    ROUNDTRIP_KEY: settings.key,
    ROUNDTRIP_PRINCIPAL: settings.principal ?? 'ada',
    ...(settings.ledger && { ROUNDTRIP_LEDGER: settings.ledger }),
    ...(settings.dbBusyTimeoutMs !== undefined && { ROUNDTRIP_DB_BUSY_TIMEOUT_MS: String(settings.dbBusyTimeoutMs) }),
  };
  const [stdin, stdout, stderr] = [new PassThrough(), new PassThrough(), new PassThrough()];
  const reader = createServerLogReader();
  stderr.setEncoding('utf8').on('data', reader.append);
  const stores = await openDemoStores(settings.db, { busyTimeoutMs: dbBusyTimeoutMs(env) });
  // createDemoDefinitions' definitions, from a set built once per worker (reused-definitions.ts)
  const { definitions, giveBack } = borrowDefinitions(stores, { ledgerInDatabase: ledgerInDatabase(settings.db, env) });
  let closed: () => void = () => {};
  const ended = new Promise<void>((resolve) => (closed = resolve));
  await runStdioServer({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    ...definitions,
    instructions: SERVER_INSTRUCTIONS,
    ownVariables: DEMO_VARIABLES,
    ledger: { path: settings.db },
    env,
    stdio: { stdin, stdout, stderr },
    onClose: async () => {
      await stores.close();
      giveBack();
      closed();
    },
  });
  const client = new Client(
    { name: 'in-process-demo', version: '0.0.1' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamsTransport(stdin, stdout));
  return {
    client,
    stderr: reader.log,
    waitForLog: reader.waitForLog,
    close: async () => {
      await client.close();
      await ended;
    },
  };
}
