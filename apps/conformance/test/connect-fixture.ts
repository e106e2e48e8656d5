// The conformance fixture served in this process: the engine over its definitions, bound to the SDK's server
// by @roundtrip/mcp and served over the SDK's InMemoryTransport to the official client, pinned to 2026-07-28
// and answering input_required by hand, as the conformance harness does.
import { Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createEngine, createKeyring, type Engine, type EngineLogEntry, generateKey } from '@roundtrip/engine';
import { createServerFactory } from '@roundtrip/mcp';
import { conformanceDefinitions, SERVER_NAME } from '../src/definitions.ts';

/** What the harness declares on every request unless a scenario says otherwise. */
export const HARNESS_CAPABILITIES: ClientCapabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

export interface FixtureConnection {
  client: Client;
  engine: Engine;
  logs: EngineLogEntry[];
  close(): Promise<void>;
}

export async function connectFixture(capabilities: ClientCapabilities = HARNESS_CAPABILITIES): Promise<FixtureConnection> {
  const logs: EngineLogEntry[] = [];
  const engine = createEngine({
    ...conformanceDefinitions,
    keyring: createKeyring([generateKey()]),
    audience: SERVER_NAME,
    log: (entry) => logs.push(entry),
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const factory = createServerFactory({ engine, name: SERVER_NAME, version: '0.1.0', principal: 'conformance' });
  const handle = serveStdio(factory, { transport: serverTransport });
  const client = new Client(
    { name: 'conformance-test-client', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(clientTransport);
  return {
    client,
    engine,
    logs,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}
