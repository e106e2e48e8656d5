// What a client sent comes back in an answer cut at 120 characters, as SECURITY.md says of every client
// string an answer repeats: the SDK's refusal of headers that disagree with the body (-32020) repeated a
// 5,000-character name in full, in its message and again in its data. And a body that is not JSON is logged
// by its size, never a piece of it (JSON.parse's error quoted its start), over node:http and through the
// web-standard handler alike.
import { createEngine, createKeyring, createMemoryLedger, type EngineLogEntry, generateKey } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { createHttpHandler } from '../src/index.ts';
import { closeAll, startServer } from './support/http-host.ts';
import { modernListTools, rawRequest } from './support/raw-request.ts';

afterEach(closeAll);

const LONG = 5000;
/** A tools/call whose Mcp-Name header and body name disagree, each 5,000 characters long. */
function mismatchedCall(host: string) {
  const list = modernListTools({ host, 'mcp-method': 'tools/call', 'mcp-name': 'h'.repeat(LONG) });
  const body = JSON.parse(list.body) as { params: object };
  return {
    headers: list.headers,
    body: JSON.stringify({ ...body, method: 'tools/call', params: { ...body.params, name: 'b'.repeat(LONG), arguments: {} } }),
  };
}
const cut = (letter: string) => `${letter.repeat(120)}… (${LONG - 120} more characters)`;

describe('client strings an answer repeats', () => {
  it('the -32020 of a header that disagrees with the body names both values cut at 120 characters, in the message and the data', async () => {
    const server = await startServer({ tools: [greetTool] });
    const refused = await rawRequest(server.url, mismatchedCall(`127.0.0.1:${server.url.port}`));
    expect(refused.status).toBe(400);
    expect(refused.body.length).toBeLessThan(1200);
    expect(refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32020,
        message: `Bad Request: the request headers and body disagree: the body carries params.name="${cut('b')}" but the Mcp-Name header names "${cut('h')}"`,
        data: {
          mismatch: {
            header: cut('h'),
            body: `the body carries params.name="${cut('b')}" but the Mcp-Name header names "${cut('h')}"`,
          },
        },
      },
    });
  });

  it('so does the -32022 of a protocol version the server does not speak, and a header value sent as base64', async () => {
    const server = await startServer({ tools: [greetTool] });
    const host = `127.0.0.1:${server.url.port}`;
    const version = `2026-${'9'.repeat(LONG - 5)}`;
    const list = modernListTools({ host, 'mcp-protocol-version': version });
    const body = JSON.parse(list.body) as { params: { _meta: object } };
    const meta = { ...body.params._meta, 'io.modelcontextprotocol/protocolVersion': version };
    const unsupported = await rawRequest(server.url, { headers: list.headers, body: JSON.stringify({ ...body, params: { _meta: meta } }) });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.length).toBeLessThan(1000);
    expect(unsupported.json()).toMatchObject({
      error: { code: -32022, data: { requested: `2026-${'9'.repeat(115)}… (${LONG - 120} more characters)` } },
    });

    const encoded = `=?base64?${Buffer.from('é'.repeat(LONG)).toString('base64')}?=`;
    const call = mismatchedCall(host);
    const sentinel = await rawRequest(server.url, { headers: { ...call.headers, 'mcp-name': encoded }, body: call.body });
    expect(sentinel.status).toBe(400);
    expect(sentinel.body.length).toBeLessThan(1200);
    expect(sentinel.json()).toMatchObject({
      error: { code: -32020, message: expect.stringContaining(`names "${'é'.repeat(120)}… (${LONG - 120} more characters)"`) },
    });
  });

  it('through the web-standard handler: the same answer', async () => {
    const engine = createEngine({
      tools: [greetTool],
      keyring: createKeyring([generateKey()]),
      audience: 'echo',
      ledger: createMemoryLedger(),
    });
    const handler = createHttpHandler({ engine, name: 'echo', version: '0.0.1', principal: 'ada' });
    const { headers, body } = mismatchedCall('127.0.0.1:8787');
    const refused = await handler.fetch(new Request('http://127.0.0.1:8787/mcp', { method: 'POST', headers, body }));
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text.length).toBeLessThan(1200);
    expect(JSON.parse(text)).toMatchObject({ error: { code: -32020, data: { mismatch: { header: cut('h') } } } });
    await handler.close();
  });
});

describe('a body that is not JSON', () => {
  const secret = 'sk_live_do_not_log_me';
  const notJson = `${secret} ${'x'.repeat(300)}`;
  const answer = {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32700, message: 'Parse error: the request body is not JSON. Send one JSON-RPC message as the body, in UTF-8 JSON.' },
  };
  const logged = (logs: EngineLogEntry[]) => {
    expect(JSON.stringify(logs)).not.toContain(secret.slice(0, 8));
    expect(logs).toContainEqual({
      level: 'warn',
      event: 'request_invalid',
      message: `a POST body of ${Buffer.byteLength(notJson)} bytes that is not JSON was refused (-32700)`,
    });
  };

  it('over node:http: refused with the parse error, and logged by its size only', async () => {
    const server = await startServer({ tools: [greetTool] });
    const list = modernListTools({ host: `127.0.0.1:${server.url.port}` });
    const refused = await rawRequest(server.url, { headers: list.headers, body: notJson });
    expect(refused.status).toBe(400);
    expect(refused.json()).toEqual(answer);
    logged(server.logs);
  });

  it('through the web-standard handler, a body sent without a length too', async () => {
    const logs: EngineLogEntry[] = [];
    const engine = createEngine({
      tools: [greetTool],
      keyring: createKeyring([generateKey()]),
      audience: 'echo',
      ledger: createMemoryLedger(),
    });
    const handler = createHttpHandler({ engine, name: 'echo', version: '0.0.1', principal: 'ada', log: (entry) => logs.push(entry) });
    const { headers } = modernListTools({ host: '127.0.0.1:8787' });
    const stream = new Blob([notJson]).stream();
    const refused = await handler.fetch(
      new Request('http://127.0.0.1:8787/mcp', { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual(answer);
    logged(logs);
    await handler.close();
  });
});
