// A Host header that is not a plain host[:port] is a bad request, refused before anything else: read as a
// URL, `evil.com@localhost` (user info), `localhost/evil`, `localhost?evil` and `localhost#evil` all name
// localhost, so the rebinding check would let them through (and a web Request refuses user info, which
// made a 500 of it). A Host or Authorization header sent twice is refused too: node:http keeps the first
// and drops the rest, so which one counted was a guess; a web Request joins them with a comma. Over real
// node:http, and through the web-standard handler.
import { createEngine, createKeyring, createMemoryLedger, generateKey } from '@roundtrip/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { createHostOriginCheck, createHttpHandler } from '../src/index.ts';
import { closeAll, startServer } from './support/http-host.ts';
import { modernListTools, rawRequest } from './support/raw-request.ts';
import {
  AUDIENCE,
  ISSUER,
  type JwksServer,
  keySetOf,
  type SigningKey,
  sharedSigningKey,
  signToken,
  startJwksServer,
} from './support/token-issuer.ts';

afterEach(closeAll);

const NOT_PLAIN = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32000,
    message: 'Bad Request: the Host header must be a plain host[:port], e.g. localhost:3000: no user info, path, query or fragment.',
  },
};
const SENT_TWICE = (name: string) => ({
  jsonrpc: '2.0',
  id: null,
  error: { code: -32000, message: `Bad Request: the ${name} header was sent more than once. Send it once.` },
});
const MALFORMED = [
  'evil.com@localhost',
  'localhost/evil',
  'localhost#evil',
  'localhost?evil',
  'localhost:99999',
  'local host',
  'localhost:',
];

describe('a Host that is not a plain host[:port], over node:http', () => {
  it('is refused 400 before anything else, naming the form to send; the log quotes it', async () => {
    const server = await startServer({ tools: [greetTool] }, { ROUNDTRIP_INSTANCE: 'forms-1' });
    for (const host of MALFORMED) {
      const refused = await rawRequest(server.url, modernListTools({ host }));
      expect(refused.status, host).toBe(400);
      expect(refused.json()).toEqual(NOT_PLAIN);
      expect(refused.headers['roundtrip-instance']).toBe('forms-1');
      expect(server.logs.at(-1)).toEqual({
        level: 'warn',
        event: 'request_refused',
        message: `request refused: Host ${JSON.stringify(host)} is not a plain host[:port]`,
      });
    }
    // user info used to get past the check and fail building the web Request: a 500 and an error in the log
    expect(server.logs.filter((entry) => entry.level === 'error')).toEqual([]);
    // a method other than POST gets the 400 too: the Host comes first
    expect((await rawRequest(server.url, { method: 'TRACE', headers: { host: 'evil.com@localhost' } })).status).toBe(400);
  });

  it('a request target that is not a path (a whole URL, naming a host of its own) is 400 too, not the 500 it was', async () => {
    const server = await startServer({ tools: [greetTool] });
    const list = modernListTools({ host: `127.0.0.1:${server.url.port}` });
    for (const path of [`http://127.0.0.1:${server.url.port}/mcp`, 'http://evil.example/mcp', '//evil.example/mcp']) {
      const refused = await rawRequest(server.url, { ...list, path });
      expect(refused.status, path).toBe(400);
      expect(refused.json()).toMatchObject({
        error: { message: 'Bad Request: the request target must be a path, such as /mcp, not a whole URL.' },
      });
      expect(server.logs.at(-1)?.message).toBe(
        `request refused: its target ${JSON.stringify(path)} is not a path (a proxy's form, naming a host of its own)`,
      );
    }
    expect(server.logs.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  it('still serves a plain one: a name, an IPv4 or bracketed IPv6 address, with or without a port', async () => {
    const server = await startServer({ tools: [greetTool] });
    for (const host of ['localhost', `localhost:${server.url.port}`, '127.0.0.1:1', '[::1]:8080', 'LOCALHOST']) {
      expect((await rawRequest(server.url, modernListTools({ host }))).status, host).toBe(200);
    }
  });
});

describe('a Host or Authorization header sent twice, over node:http', () => {
  let key: SigningKey;
  let jwks: JwksServer;
  beforeAll(async () => {
    key = await sharedSigningKey('key-1');
    jwks = await startJwksServer(keySetOf(key));
  });
  afterAll(() => jwks.close());

  /** The lines of a tools/list with these extra header lines. */
  const lines = (host: string, extra: string[]) => {
    const { headers } = modernListTools();
    return [...Object.entries(headers).flat(), 'Host', host, ...extra];
  };

  it('Host twice is 400, even when the first names this machine (node:http would keep it and drop the other)', async () => {
    const server = await startServer({ tools: [greetTool] });
    const host = `127.0.0.1:${server.url.port}`;
    const refused = await rawRequest(server.url, { headers: lines(host, ['Host', 'evil.example']), body: modernListTools().body });
    expect(refused.status).toBe(400);
    expect(refused.json()).toEqual(SENT_TWICE('Host'));
    expect(server.logs.at(-1)).toMatchObject({
      event: 'request_refused',
      message: expect.stringContaining('the Host header was sent more than once'),
    });
    expect((await rawRequest(server.url, { headers: lines(host, []), body: modernListTools().body })).status).toBe(200);
  });

  it('Authorization twice is 400 before the token is looked at, with or without authentication', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await signToken(key, { iat: now, exp: now + 300 });
    const flags = { jwks: jwks.url.href, issuer: ISSUER, audience: AUDIENCE };
    for (const server of [await startServer({ tools: [greetTool], flags }), await startServer({ tools: [greetTool] })]) {
      const host = `127.0.0.1:${server.url.port}`;
      const twice = ['Authorization', `Bearer ${token}`, 'Authorization', 'Bearer forged'];
      const refused = await rawRequest(server.url, { headers: lines(host, twice), body: modernListTools().body });
      expect(refused.status).toBe(400);
      expect(refused.json()).toEqual(SENT_TWICE('Authorization'));
      const once = await rawRequest(server.url, { headers: lines(host, twice.slice(0, 2)), body: modernListTools().body });
      expect(once.status).toBe(200);
    }
  });
});

describe('the web-standard handler and the check on its own', () => {
  const handler = () =>
    createHttpHandler({
      engine: createEngine({
        tools: [greetTool],
        keyring: createKeyring([generateKey()]),
        audience: 'forms',
        ledger: createMemoryLedger(),
      }),
      name: 'forms',
      version: '0.0.1',
      principal: 'ada',
    });
  const post = (host: string) => {
    const { body, headers } = modernListTools({ host });
    return new Request('http://127.0.0.1:8787/mcp', { method: 'POST', headers, body });
  };

  it('refuses the same forms with the same 400, and a Host sent twice (joined by the runtime)', async () => {
    const web = handler();
    for (const host of MALFORMED) {
      const refused = await web.fetch(post(host));
      expect(refused.status, host).toBe(400);
      expect(await refused.json()).toEqual(NOT_PLAIN);
    }
    const twice = await web.fetch(post('localhost:8787, evil.example'));
    expect(twice.status).toBe(400);
    expect(await twice.json()).toEqual(SENT_TWICE('Host'));
    expect((await web.fetch(post('localhost:8787'))).status).toBe(200);
    await web.close();
  });

  it('createHostOriginCheck: a missing Host is 400 too (HTTP/1.1 requires one), before the allow-list is asked', async () => {
    const check = createHostOriginCheck({ allowedHosts: ['evil.com'] });
    const missing = check(new Request('http://127.0.0.1:3000/mcp'));
    if (missing.ok) throw new Error('expected a refusal');
    expect(missing.response.status).toBe(400);
    expect(missing.reason).toBe('request refused: no Host header (HTTP/1.1 requires one; a proxy in front of this server must pass it on)');
    // an allowed name behind user info is still not a plain Host
    const userInfo = check(new Request('http://127.0.0.1:3000/mcp', { headers: { host: 'localhost@evil.com' } }));
    expect(userInfo.ok || userInfo.response.status).toBe(400);
  });
});
