// CORS for the browser pages the Host and Origin check lets in, over real HTTP: a preflight from an
// allowed page is answered 204 before the path's token is asked for, every answer to such a page names
// its origin and the headers it may read, a page of another origin gets the 403 without them, and a
// client that is not a browser page (no Origin) gets no CORS headers at all. The web-standard handler
// (createHttpHandler, for Workers, Deno, Bun) answers the same. The real browser's view of it is in
// cross-origin-browser.test.ts.
import { createEngine, createKeyring, createMemoryLedger, generateKey } from '@roundtrip/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { createHttpHandler } from '../src/index.ts';
import { closeAll, startServer } from './support/http-host.ts';
import { modernListTools, rawRequest } from './support/raw-request.ts';
import { AUDIENCE, ISSUER, type JwksServer, keySetOf, sharedSigningKey, startJwksServer } from './support/token-issuer.ts';

afterEach(closeAll);

const PAGE = 'http://localhost:6274';
const serve = (flags = {}) => startServer({ tools: [greetTool], flags }, { ROUNDTRIP_INSTANCE: 'cors-1' });
const preflight = (url: URL, origin: string, headers: Record<string, string> = {}) =>
  rawRequest(url, {
    method: 'OPTIONS',
    headers: {
      host: `127.0.0.1:${url.port}`,
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,mcp-protocol-version,mcp-method',
      ...headers,
    },
  });

describe('a preflight', () => {
  it('from a page of this machine is answered 204: its origin, the one method served, the headers it asked for', async () => {
    const server = await serve();
    const answer = await preflight(server.url, PAGE);
    expect(answer.status).toBe(204);
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': PAGE,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'content-type,mcp-protocol-version,mcp-method',
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      'roundtrip-instance': 'cors-1',
    });
    expect(answer.body).toBe('');
  });

  it('from an origin of --allowed-origins is answered; from any other, 403 without CORS headers, logged', async () => {
    const server = await serve({ allowedOrigins: 'app.example.com' });
    expect((await preflight(server.url, 'https://app.example.com')).headers['access-control-allow-origin']).toBe('https://app.example.com');
    const foreign = await preflight(server.url, 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(server.logs.at(-1)).toMatchObject({ event: 'request_refused', message: expect.stringContaining('"https://evil.example"') });
  });

  it('to another path is the 404 that names the endpoint', async () => {
    const server = await serve();
    const headers = { host: `127.0.0.1:${server.url.port}`, origin: PAGE, 'access-control-request-method': 'POST' };
    const answer = await rawRequest(server.url, { method: 'OPTIONS', path: '/other', headers });
    expect(answer.status).toBe(404);
    expect(answer.json()).toMatchObject({ error: { message: 'Not found: this server answers MCP at /mcp, not at "/other"' } });
  });

  it('an OPTIONS request that is not a preflight (no Origin) is answered as before, without CORS headers', async () => {
    const server = await serve();
    const answer = await rawRequest(server.url, { method: 'OPTIONS', headers: { host: `127.0.0.1:${server.url.port}` } });
    expect(answer.status).toBe(405);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the answer to a page', () => {
  it('names its origin, varies on it, and exposes the instance and challenge headers; a client without Origin gets none', async () => {
    const server = await serve();
    const host = `127.0.0.1:${server.url.port}`;
    const page = await rawRequest(server.url, modernListTools({ host, origin: PAGE }));
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({
      'access-control-allow-origin': PAGE,
      vary: 'Origin',
      'access-control-expose-headers': 'WWW-Authenticate, Roundtrip-Instance',
    });
    const tool = await rawRequest(server.url, modernListTools({ host }));
    expect(tool.status).toBe(200);
    expect(Object.keys(tool.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('a refusal after the Origin check (413) carries them too, so the page can read why', async () => {
    const server = await startServer({ tools: [greetTool] }, { ROUNDTRIP_MAX_REQUEST_BYTES: '65536' });
    const host = `127.0.0.1:${server.url.port}`;
    const refused = await rawRequest(server.url, {
      headers: { ...modernListTools({ host, origin: PAGE }).headers, 'content-length': '70000' },
    });
    expect(refused.status).toBe(413);
    expect(refused.headers['access-control-allow-origin']).toBe(PAGE);
  });
});

describe('with bearer authentication', () => {
  let jwks: JwksServer;
  beforeAll(async () => {
    jwks = await startJwksServer(keySetOf(await sharedSigningKey('key-1')));
  });
  afterAll(() => jwks.close());

  it('a preflight is answered without a token, and the 401 tells the page the challenge it may read', async () => {
    const server = await startServer({ tools: [greetTool], flags: { jwks: jwks.url.href, issuer: ISSUER, audience: AUDIENCE } });
    expect((await preflight(server.url, PAGE, { 'access-control-request-headers': 'authorization' })).status).toBe(204);
    const unauthorized = await rawRequest(server.url, modernListTools({ host: `127.0.0.1:${server.url.port}`, origin: PAGE }));
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers).toMatchObject({
      'access-control-allow-origin': PAGE,
      'access-control-expose-headers': 'WWW-Authenticate, Roundtrip-Instance',
      'www-authenticate': expect.stringContaining('resource_metadata='),
    });
  });
});

describe('the web-standard handler (createHttpHandler)', () => {
  it('answers a preflight and a page the same way', async () => {
    const engine = createEngine({
      tools: [greetTool],
      keyring: createKeyring([generateKey()]),
      audience: 'cors-web',
      ledger: createMemoryLedger(),
    });
    const handler = createHttpHandler({ engine, name: 'cors-web', version: '0.0.1', principal: 'ada' });
    const at = 'http://127.0.0.1:8787/mcp';
    const headers = { host: '127.0.0.1:8787', origin: PAGE };
    const answer = await handler.fetch(
      new Request(at, { method: 'OPTIONS', headers: { ...headers, 'access-control-request-method': 'POST' } }),
    );
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    const { body, headers: listHeaders } = modernListTools(headers);
    const listed = await handler.fetch(new Request(at, { method: 'POST', headers: listHeaders, body }));
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(PAGE);
    await handler.close();
  });
});
