// Bearer authentication in front of /mcp, end to end: a real JWKS on 127.0.0.1, tokens signed with real
// keys, the v2 client sending them. The token's sub is the principal every state is bound to: a state
// sealed for alice is refused when bob's token carries it back. A request without a token gets 401
// naming the protected resource metadata, which is served to anyone.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bookTable } from '../../mcp/test/fixtures/booking-definitions.ts';
import { accept, closeAll, connectModern, type Round, startServer } from './support/http-host.ts';
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

let key: SigningKey;
let jwks: JwksServer;
beforeAll(async () => {
  key = await sharedSigningKey('key-1');
  jwks = await startJwksServer(keySetOf(key));
});
afterAll(() => jwks.close());
afterEach(closeAll);

/** A token valid now (the server checks against the real clock). */
const tokenFor = (sub: string) => {
  const now = Math.floor(Date.now() / 1000);
  return signToken(key, { sub, iat: now, exp: now + 300 });
};
const authenticated = () =>
  startServer(
    { tools: [bookTable], flags: { jwks: jwks.url.href, issuer: ISSUER, audience: AUDIENCE } },
    { ROUNDTRIP_PRINCIPAL: 'mallory' },
  );
const METADATA = 'https://mcp.example.test/.well-known/oauth-protected-resource/mcp';

describe('an HTTP server with bearer authentication', () => {
  it("binds every state to the token's sub: alice's conversation goes on with her token, and is refused with bob's", async () => {
    const server = await authenticated();
    const alice = await tokenFor('alice');
    const bob = await tokenFor('bob');
    const { client: aliceClient } = await connectModern({ urls: [server.url], token: () => alice });
    const { client: bobClient } = await connectModern({ urls: [server.url], token: () => bob });
    const call = (client: typeof aliceClient, extra: object = {}) =>
      client.callTool({ name: 'book_table', arguments: { day: 'Friday' }, ...extra }, { allowInputRequired: true }) as Promise<Round>;

    const party = await call(aliceClient);
    const answer = { requestState: party.requestState, inputResponses: { party: accept({ name: 'Ada', size: 2 }) } };
    await expect(call(bobClient, answer)).rejects.toMatchObject({ code: -32602 });
    expect(server.logs).toContainEqual(expect.objectContaining({ event: 'state_rejected', code: 'other_principal' }));
    const seating = await call(aliceClient, answer);
    expect(seating.inputRequests?.seating?.params.message).toBe('Where should Ada sit?');
    expect(server.logs.find((entry) => entry.event === 'started')?.message).toContain(
      `with bearer tokens from ${ISSUER} for ${AUDIENCE}, metadata at ${METADATA}`,
    );
    expect(server.logs.find((entry) => entry.event === 'started')?.message).toContain("principal each token's sub");
  });

  it('answers a request without a token 401, naming the resource metadata, and logs why', async () => {
    const server = await authenticated();
    const list = modernListTools({ host: `127.0.0.1:${server.url.port}` });
    const refused = await rawRequest(server.url, list);
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe(`Bearer resource_metadata="${METADATA}"`);
    expect(refused.json()).toEqual({ error_description: 'This server needs an access token: send it as Authorization: Bearer <token>' });
    expect(refused.headers['roundtrip-instance']).toMatch(/:\d+$/);
    expect(server.logs).toContainEqual(
      expect.objectContaining({ level: 'warn', event: 'auth_refused', message: expect.stringContaining('no Authorization header') }),
    );

    const forged = await rawRequest(server.url, { ...list, headers: { ...list.headers, authorization: 'Bearer not.a.token' } });
    expect(forged.status).toBe(401);
    expect(forged.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${METADATA}", error="invalid_token", error_description="The access token is not valid for this server"`,
    );
  });

  it('serves the RFC 9728 metadata without a token, at the path-suffixed and the root well-known paths', async () => {
    const server = await authenticated();
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const metadata = await rawRequest(server.url, { method: 'GET', path, headers: { host: `localhost:${server.url.port}` } });
      expect(metadata.status).toBe(200);
      expect(metadata.json()).toEqual({
        resource: AUDIENCE,
        authorization_servers: [ISSUER],
        bearer_methods_supported: ['header'],
        resource_name: 'http-test',
      });
    }
  });

  it('lets the public URL’s host name through the Host check (a proxy that keeps the Host header)', async () => {
    const server = await authenticated();
    const list = modernListTools({ host: 'mcp.example.test', authorization: `Bearer ${await tokenFor('alice')}` });
    const listed = await rawRequest(server.url, list);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.json())).toContain('book_table');
  });
});

describe('where an HTTP server may listen', () => {
  it('refuses every address but loopback without authentication, naming --insecure-no-auth', async () => {
    await expect(startServer({ tools: [bookTable], listen: '0.0.0.0:0' })).rejects.toThrow(
      /^refusing to serve on 0\.0\.0\.0:0 without authentication: .* or, for a trusted network only, --insecure-no-auth\.$/,
    );
  });

  it('serves a wildcard address with --insecure-no-auth, warning once', async () => {
    const server = await startServer({ tools: [bookTable], listen: '0.0.0.0:0', flags: { insecureNoAuth: true } });
    expect(server.logs).toContainEqual(
      expect.objectContaining({ level: 'warn', message: expect.stringMatching(/WITHOUT authentication/) }),
    );
    expect(server.logs.find((entry) => entry.event === 'started')?.message).toContain('with NO authentication (--insecure-no-auth)');
  });

  it('asks for --public-url when the audience is no URL and clients come from every address', async () => {
    const flags = { jwks: jwks.url.href, issuer: ISSUER, audience: 'api://orders', publicUrl: undefined };
    await expect(startServer({ tools: [bookTable], listen: '0.0.0.0:0', flags })).rejects.toThrow(
      /give --public-url \(ROUNDTRIP_PUBLIC_URL\), the URL they reach the MCP endpoint at/,
    );
  });
});
