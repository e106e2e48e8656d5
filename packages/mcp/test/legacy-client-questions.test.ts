// Sampling and roots questions for 2025-era hosts: the SDK's legacy shim sends them as real
// `sampling/createMessage` and `roots/list` requests, which reach the host as they are (only forms are
// fitted to a host's revision), and the answers continue the machine. The v2 client on its legacy default
// (2025-11-25) and the v1 client claiming 2025-06-18, both in-process.
import { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport as V1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, CreateMessageRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport, isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createEngine, createKeyring, generateKey } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerFactory } from '../src/index.ts';
import { askCapitalTool, listFoldersTool } from './fixtures/client-question-definitions.ts';

type Host = 'v2 legacy (2025-11-25)' | 'v1 2025-06-18';

interface Connection {
  /** Every request the server sent the host, by method and params as they crossed the wire (without `_meta`). */
  asked: Array<{ method: string; params: unknown }>;
  /** The requests the host's handlers were called with. */
  handled: string[];
  protocolErrors: Error[];
  call(name: string, args: Record<string, unknown>): Promise<{ content: Array<{ text: string }>; isError?: boolean }>;
  close(): Promise<void>;
}

const open: Connection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model', stopReason: 'endTurn' } as const;
const ROOTS = { roots: [{ uri: 'file:///home/ada/projects', name: 'projects' }] };

async function connect(host: Host): Promise<Connection> {
  const protocolErrors: Error[] = [];
  const asked: Connection['asked'] = [];
  const handled: string[] = [];
  const engine = createEngine({ tools: [askCapitalTool, listFoldersTool], keyring: createKeyring([generateKey()]), audience: 'questions' });
  const factory = createServerFactory({
    engine,
    name: 'questions',
    version: '0.0.1',
    principal: 'ada',
    onError: (e) => protocolErrors.push(e),
  });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const sendToHost = serverEnd.send.bind(serverEnd);
  serverEnd.send = (message, options) => {
    if (isJSONRPCRequest(message)) {
      const { _meta, ...params } = message.params ?? {};
      asked.push({ method: message.method, params });
    }
    return sendToHost(message, options);
  };
  const handle = serveStdio(factory, { transport: serverEnd, onerror: (e) => protocolErrors.push(e) });
  const capabilities = { sampling: {}, roots: {} };
  /** The host's answer, noting that its handler was called. */
  const reply = <T>(method: string, answer: T): T => {
    handled.push(method);
    return answer;
  };

  let connection: Connection;
  if (host === 'v2 legacy (2025-11-25)') {
    const client = new Client({ name: 'v2-host', version: '0.0.1' }, { capabilities });
    client.setRequestHandler('sampling/createMessage', async (request) => reply(request.method, SAMPLED));
    client.setRequestHandler('roots/list', async (request) => reply(request.method, ROOTS));
    await client.connect(clientEnd);
    expect(client.getProtocolEra()).toBe('legacy');
    connection = {
      asked,
      handled,
      protocolErrors,
      call: async (name, args) => (await client.callTool({ name, arguments: args })) as never,
      close: async () => {
        await client.close();
        await handle.close();
      },
    };
  } else {
    // the v1 client, its initialize claiming 2025-06-18
    const send = clientEnd.send.bind(clientEnd);
    clientEnd.send = (message: JSONRPCMessage, options) =>
      send(
        'method' in message && message.method === 'initialize'
          ? ({ ...message, params: { ...message.params, protocolVersion: '2025-06-18' } } as JSONRPCMessage)
          : message,
        options,
      );
    const client = new V1Client({ name: 'v1-host', version: '0.0.1' }, { capabilities });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => reply(request.method, SAMPLED));
    client.setRequestHandler(ListRootsRequestSchema, async (request) => reply(request.method, ROOTS));
    await client.connect(clientEnd as unknown as V1Transport);
    expect(client.getServerVersion()?.name).toBe('questions');
    connection = {
      asked,
      handled,
      protocolErrors,
      call: async (name, args) => (await client.callTool({ name, arguments: args }, CallToolResultSchema)) as never,
      close: async () => {
        await client.close();
        await handle.close();
      },
    };
  }
  open.push(connection);
  return connection;
}

describe.each(['v2 legacy (2025-11-25)', 'v1 2025-06-18'] as const)('a %s host', (host) => {
  it('answers a sampling question with its model, sent as a real sampling/createMessage', async () => {
    const c = await connect(host);
    const result = await c.call('ask_capital', { country: 'France' });
    expect(result.isError).toBeFalsy();
    expect(result.content[0]!.text).toBe('The model says: Paris');
    // as the tool wrote it: nothing of a form added for a form-only revision
    expect(c.asked).toEqual([
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 50 },
      },
    ]);
    expect(c.handled).toEqual(['sampling/createMessage']);
    expect(c.protocolErrors).toEqual([]);
  });

  it('answers a roots question with its roots, sent as a real roots/list', async () => {
    const c = await connect(host);
    const result = await c.call('list_folders', {});
    expect(result.isError).toBeFalsy();
    expect(result.content[0]!.text).toBe('Folders: file:///home/ada/projects');
    expect(c.asked).toEqual([{ method: 'roots/list', params: {} }]);
    expect(c.handled).toEqual(['roots/list']);
    expect(c.protocolErrors).toEqual([]);
  });
});
