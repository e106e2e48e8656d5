// Every method but POST on the MCP endpoint gets one and the same 405: `Allow: POST` (stateless Streamable
// HTTP has no GET stream and no session to DELETE) and the same sentence, whichever part of the server
// refuses it. They used to disagree: the SDK said `Allow: POST`, the Node listener's own 405 (TRACE) said
// "POST, GET and DELETE" without an Allow header, and a CORS preflight offered GET and DELETE too.
import { createEngine, createKeyring, createMemoryLedger, generateKey } from '@roundtrip/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { createHttpHandler } from '../src/index.ts';
import { closeAll, startServer } from './support/http-host.ts';
import { rawRequest } from './support/raw-request.ts';
import { AUDIENCE, ISSUER, type JwksServer, keySetOf, sharedSigningKey, startJwksServer } from './support/token-issuer.ts';

afterEach(closeAll);

const METHODS = ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'TRACE'];
const refusal = (method: string) => ({
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32000,
    message: `Method not allowed: ${method}. This MCP endpoint is stateless Streamable HTTP: send each JSON-RPC message as a POST (there is no GET stream, and no session to DELETE).`,
  },
});

let jwks: JwksServer;
beforeAll(async () => {
  jwks = await startJwksServer(keySetOf(await sharedSigningKey('key-1')));
});
afterAll(() => jwks.close());

describe('a method the MCP endpoint does not serve', () => {
  it('over node:http: the same 405, Allow: POST, for every method, with or without authentication (before the token)', async () => {
    const flags = { jwks: jwks.url.href, issuer: ISSUER, audience: AUDIENCE };
    for (const server of [await startServer({ tools: [greetTool] }), await startServer({ tools: [greetTool], flags })]) {
      const headers = { host: `127.0.0.1:${server.url.port}`, accept: 'application/json, text/event-stream' };
      for (const method of METHODS) {
        const answer = await rawRequest(server.url, { method, headers });
        expect(answer.status, method).toBe(405);
        expect(answer.headers.allow, method).toBe('POST');
        expect(answer.json()).toEqual(refusal(method));
      }
      const head = await rawRequest(server.url, { method: 'HEAD', headers });
      expect([head.status, head.headers.allow, head.body]).toEqual([405, 'POST', '']);
    }
  });

  it('through the web-standard handler: the same 405', async () => {
    const engine = createEngine({
      tools: [greetTool],
      keyring: createKeyring([generateKey()]),
      audience: 'methods',
      ledger: createMemoryLedger(),
    });
    const handler = createHttpHandler({ engine, name: 'methods', version: '0.0.1', principal: 'ada' });
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
      const answer = await handler.fetch(new Request('http://127.0.0.1:8787/mcp', { method, headers: { host: '127.0.0.1:8787' } }));
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
      expect(await answer.json()).toEqual(refusal(method));
    }
    await handler.close();
  });

  it('a preflight offers a page the one method served', async () => {
    const server = await startServer({ tools: [greetTool] });
    const answer = await rawRequest(server.url, {
      method: 'OPTIONS',
      headers: { host: `127.0.0.1:${server.url.port}`, origin: 'http://localhost:6274', 'access-control-request-method': 'DELETE' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-methods']).toBe('POST');
  });
});
