// Nothing of a body is read before the request is known to be wanted: a request without a token, or
// to a path that is not the MCP endpoint, is answered from its headers alone, over real node:http,
// while its body is still being sent (so no one who cannot authenticate can make the server hold a
// body). The request here begins a chunked body and never ends it: the answer comes anyway.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { closeAll, startServer } from './support/http-host.ts';
import { heldRequest, modernListTools, rawRequest } from './support/raw-request.ts';
import { AUDIENCE, ISSUER, type JwksServer, keySetOf, sharedSigningKey, startJwksServer } from './support/token-issuer.ts';

let jwks: JwksServer;
beforeAll(async () => {
  jwks = await startJwksServer(keySetOf(await sharedSigningKey('key-1')));
});
afterAll(() => jwks.close());
afterEach(closeAll);

const authenticated = () =>
  startServer(
    { tools: [greetTool], flags: { jwks: jwks.url.href, issuer: ISSUER, audience: AUDIENCE } },
    { ROUNDTRIP_INSTANCE: 'early-1' },
  );
/** The first part of a tools/list body: the rest never comes. */
const firstChunk = modernListTools().body.slice(0, 20);

describe('a request answered before its body is read', () => {
  it('gets 401 without a token while its body is still being sent, and the connection is closed', async () => {
    const server = await authenticated();
    const headers = modernListTools({ host: `127.0.0.1:${server.url.port}` }).headers;
    const refused = await heldRequest(server.url, { headers, firstChunk });
    expect(refused.readWhileSending).toBe(true);
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('resource_metadata=');
    expect(refused.headers.connection).toBe('close');
    expect(refused.headers['roundtrip-instance']).toBe('early-1');
    expect(server.logs).toContainEqual(expect.objectContaining({ event: 'auth_refused' }));
  });

  it('gets 404 off the MCP path while its body is still being sent, with or without authentication', async () => {
    for (const server of [await authenticated(), await startServer({ tools: [greetTool] })]) {
      const headers = modernListTools({ host: `127.0.0.1:${server.url.port}` }).headers;
      const missing = await heldRequest(server.url, { path: '/api', headers, firstChunk });
      expect(missing.readWhileSending).toBe(true);
      expect(missing.status).toBe(404);
      expect(missing.json()).toMatchObject({ error: { message: 'Not found: this server answers MCP at /mcp, not at "/api"' } });
    }
  });

  it('answers a method a web Request cannot carry with the 405 every method but POST gets, and goes on serving', async () => {
    const server = await startServer({ tools: [greetTool] }, { ROUNDTRIP_INSTANCE: 'early-2' });
    const host = `127.0.0.1:${server.url.port}`;
    const trace = await rawRequest(server.url, { method: 'TRACE', headers: { host } });
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe('POST');
    expect(trace.json()).toMatchObject({ error: { message: expect.stringMatching(/^Method not allowed: TRACE\. /) } });
    expect(trace.headers['roundtrip-instance']).toBe('early-2');
    expect((await rawRequest(server.url, modernListTools({ host }))).status).toBe(200);
  });

  it('tells an allowed page it may read the 405; another page is refused by the Origin check first, and told nothing', async () => {
    const server = await startServer({ tools: [greetTool] }, { ROUNDTRIP_INSTANCE: 'early-3' });
    const host = `127.0.0.1:${server.url.port}`;
    const allowed = await rawRequest(server.url, { method: 'TRACE', headers: { host, origin: 'http://localhost:5173' } });
    expect(allowed.status).toBe(405);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(allowed.headers['roundtrip-instance']).toBe('early-3');
    const foreign = await rawRequest(server.url, { method: 'TRACE', headers: { host, origin: 'https://elsewhere.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers['roundtrip-instance']).toBe('early-3');
  });
});
