// The demo server over Streamable HTTP inside this process, for the client examples beside this file
// (official-client.ts, official-client-auto.ts): what `pnpm serve:http` serves, on a fresh SQLite file in a
// temporary folder (the demo's seeded orders, ord_51 among them), with a fresh key, at 127.0.0.1 on a free port.
// Its log goes to stderr, as a server's does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EngineLogEntry, generateKey } from '@roundtrip/engine';
import { runHttpServer } from '@roundtrip/transport-http/node';
import { createDemoDefinitions, SERVER_INSTRUCTIONS, SERVER_NAME, SERVER_VERSION } from '../demo-definitions.ts';
import { openDemoStores } from '../demo-stores.ts';

export interface DemoOverHttp {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp */
  url: URL;
  /** Stops the server (the rounds in flight finish), closes the database and removes its folder. */
  close(): Promise<void>;
}

/** Starts the demo over HTTP in this process; resolves once it listens. `log`: where its log goes instead of stderr. */
export async function startDemoOverHttp(options: { log?: (entry: EngineLogEntry) => void } = {}): Promise<DemoOverHttp> {
  const dir = mkdtempSync(join(tmpdir(), 'roundtrip-example-'));
  const db = join(dir, 'orders.db');
  const stores = await openDemoStores(db);
  try {
    const server = await runHttpServer({
      name: SERVER_NAME,
      version: SERVER_VERSION,
      ...createDemoDefinitions(stores),
      instructions: SERVER_INSTRUCTIONS,
      listen: { port: 0 },
      // the settings a deployment reads from its environment, given here instead of read from process.env
      env: { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'example' },
      ledger: { path: db }, // the effect ledger beside the orders, as the demo keeps it
      handleSignals: false, // the process is the example's, not the server's
      onClose: () => stores.close(),
      ...(options.log && { log: options.log }),
    });
    return {
      url: server.url,
      close: async () => {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
