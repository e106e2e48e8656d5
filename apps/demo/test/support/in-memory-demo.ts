// The demo engine served in this process by the real SDK server (serveStdio over its InMemoryTransport)
// to the official client pinned to 2026-07-28, which leaves every input_required round to the test:
// what a host sees on the wire, without a child process.
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Engine } from '@roundtrip/engine';
import { createServerFactory } from '@roundtrip/mcp';
import { SERVER_NAME } from '../../src/demo-definitions.ts';

export interface InMemoryDemo {
  client: Client;
  close(): Promise<void>;
}

/** Connects the official client to `engine` as principal 'ada', declaring form elicitation. */
export async function connectInMemory(engine: Engine): Promise<InMemoryDemo> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(createServerFactory({ engine, name: SERVER_NAME, version: '0.0.0', principal: 'ada' }), {
    transport: serverTransport,
  });
  const client = new Client(
    { name: 'in-memory-demo', version: '0.0.1' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}
