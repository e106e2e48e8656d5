import { exportJWK, generateSecret, SignJWT, UnsecuredJWT } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { refusedPort } from '../../engine/test/refused-port.ts';
import { type Authentication, type AuthenticationFailure, createJwtAuthenticator, type JwtAuthenticatorOptions } from '../src/index.ts';
import {
  AUDIENCE,
  bearer,
  ISSUER,
  type JwksServer,
  keySetOf,
  makeSigningKey,
  NOW,
  nowSeconds,
  type SigningKey,
  sharedSigningKey,
  signToken,
  startJwksServer,
} from './support/token-issuer.ts';

// key pairs are made once (RSA generation is the slow part: only the keys whose algorithm a case names are RSA, and
// key-1 is the worker's shared one); each test serves its own JWKS
let key1: SigningKey;
let key2: SigningKey;
let ecKey: SigningKey;
let stranger: SigningKey;
let forger: SigningKey;
beforeAll(async () => {
  [key1, key2, ecKey, stranger, forger] = await Promise.all([
    sharedSigningKey('key-1'),
    makeSigningKey('key-2', 'ES256'),
    makeSigningKey('ec-1', 'ES256'),
    makeSigningKey('made-up', 'ES256'),
    // key-1's kid on another RSA key: its signature must fail
    makeSigningKey('key-1'),
  ]);
});

const servers: JwksServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function remoteAuthenticator(options: Partial<JwtAuthenticatorOptions> = {}) {
  const jwks = await startJwksServer(keySetOf(key1));
  servers.push(jwks);
  const authenticator = createJwtAuthenticator({ jwks: jwks.url, issuer: ISSUER, audience: AUDIENCE, now: () => NOW, ...options });
  return { key: key1, jwks, authenticator };
}

function refused(result: Authentication): AuthenticationFailure {
  if (result.ok) throw new Error(`expected a refusal, got the principal ${result.principal}`);
  return result;
}

describe('createJwtAuthenticator: tokens verified against a JWKS served over HTTP', () => {
  it('accepts an RS256 token and makes its sub the principal, never anything else the client says', async () => {
    const { key, authenticator } = await remoteAuthenticator();
    const token = await signToken(key, { sub: 'alice', scope: 'mcp:tools mcp:read', client_id: 'desktop-app' });
    const request = new Request('http://127.0.0.1:3000/mcp', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-roundtrip-principal': 'mallory' },
    });
    const result = await authenticator.authenticate(request);
    expect(result).toEqual({
      ok: true,
      principal: 'alice',
      authInfo: {
        token,
        clientId: 'desktop-app',
        scopes: ['mcp:tools', 'mcp:read'],
        expiresAt: nowSeconds + 300,
        resource: new URL(AUDIENCE),
        extra: { sub: 'alice', iss: ISSUER },
      },
    });
  });

  it('accepts an ES256 token from the same key set', async () => {
    const ec = ecKey;
    const jwks = await startJwksServer(keySetOf(key1, ec));
    servers.push(jwks);
    const authenticator = createJwtAuthenticator({ jwks: jwks.url, issuer: ISSUER, audience: AUDIENCE, now: () => NOW });
    const result = await authenticator.authenticate(bearer(await signToken(ec, { sub: 'bob', scp: ['a', 'b'] })));
    expect(result.ok && result.principal).toBe('bob');
    expect(result.ok && result.authInfo.scopes).toEqual(['a', 'b']);
  });

  it('fetches the JWKS once and serves later tokens from its cache', async () => {
    const { key, jwks, authenticator } = await remoteAuthenticator();
    for (const sub of ['a', 'b', 'c']) expect((await authenticator.authenticate(bearer(await signToken(key, { sub })))).ok).toBe(true);
    expect(jwks.fetches()).toBe(1);
  });

  it('rotation: a token with a new kid is accepted after a refetch, and a retired kid is refused', async () => {
    const { key: oldKey, jwks, authenticator } = await remoteAuthenticator({ jwksCooldownMs: 0 });
    expect((await authenticator.authenticate(bearer(await signToken(oldKey)))).ok).toBe(true);
    const newKey = key2;
    jwks.serve(keySetOf(newKey));
    const rotated = await authenticator.authenticate(bearer(await signToken(newKey, { sub: 'carol' })));
    expect(rotated.ok && rotated.principal).toBe('carol');
    expect(jwks.fetches()).toBe(2);
    const retired = refused(await authenticator.authenticate(bearer(await signToken(oldKey))));
    expect(retired).toMatchObject({ status: 401, error: 'invalid_token', description: 'The access token is not valid for this server' });
    expect(retired.reason).toContain('unknown key, no key in the JWKS at http://127.0.0.1:');
    expect(retired.reason).toContain('kid "key-1"');
  });

  it('an unknown kid within the cooldown is refused without fetching the JWKS again', async () => {
    const { key, jwks, authenticator } = await remoteAuthenticator();
    expect((await authenticator.authenticate(bearer(await signToken(key)))).ok).toBe(true);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(refused(await authenticator.authenticate(bearer(await signToken(stranger)))).reason).toContain('kid "made-up"');
    }
    expect(jwks.fetches()).toBe(1);
  });

  it('expiry is checked against the injected clock, with the tolerance, and the client learns only that it expired', async () => {
    const key = key1;
    const jwks = await startJwksServer(keySetOf(key));
    servers.push(jwks);
    let now = NOW;
    const authenticator = createJwtAuthenticator({
      jwks: jwks.url,
      issuer: ISSUER,
      audience: AUDIENCE,
      clockTolerance: 10,
      now: () => now,
    });
    const token = await signToken(key, { exp: nowSeconds + 60 });
    now = new Date(NOW.getTime() + 69_000);
    expect((await authenticator.authenticate(bearer(token))).ok).toBe(true);
    now = new Date(NOW.getTime() + 71_000);
    const expired = refused(await authenticator.authenticate(bearer(token)));
    expect(expired).toMatchObject({ status: 401, error: 'invalid_token', description: 'The access token has expired' });
    expect(expired.reason).toBe(
      'token refused: expired at 2026-08-01T12:01:00.000Z (now 2026-08-01T12:01:11.000Z, 10 s tolerance); the client must get a new one',
    );
  });

  it('a token not valid yet (nbf) is refused, naming the time', async () => {
    const { key, authenticator } = await remoteAuthenticator();
    const early = refused(await authenticator.authenticate(bearer(await signToken(key, { nbf: nowSeconds + 3600 }))));
    expect(early.reason).toContain('not valid before 2026-08-01T13:00:00.000Z');
  });

  it('a token without exp is refused: every accepted token ends', async () => {
    const { key, authenticator } = await remoteAuthenticator();
    const endless = refused(await authenticator.authenticate(bearer(await signToken(key, { exp: undefined }))));
    expect(endless.reason).toBe('token refused: it has no "exp" claim, which this server requires');
  });

  it('a wrong issuer or audience is refused; the log names what was expected and what came', async () => {
    const { key, authenticator } = await remoteAuthenticator();
    const issuer = refused(await authenticator.authenticate(bearer(await signToken(key, { iss: 'https://evil.example/' }))));
    expect(issuer.reason).toContain(`wrong issuer, expected "${ISSUER}", got "https://evil.example/"`);
    const audience = refused(await authenticator.authenticate(bearer(await signToken(key, { aud: 'https://other.example/api' }))));
    expect(audience.reason).toContain(`wrong audience, expected "${AUDIENCE}", got "https://other.example/api"`);
    for (const failure of [issuer, audience]) {
      expect(failure).toMatchObject({ status: 401, error: 'invalid_token', description: 'The access token is not valid for this server' });
    }
  });

  it('a token without sub is refused: the server never guesses whom state belongs to', async () => {
    const { key, authenticator } = await remoteAuthenticator();
    for (const sub of [undefined, '']) {
      const failure = refused(await authenticator.authenticate(bearer(await signToken(key, { sub }))));
      expect(failure).toMatchObject({ status: 401, error: 'invalid_token' });
      expect(failure.reason).toContain('it has no sub claim');
    }
  });

  it('a sub of white space only is refused too: it names no one, and every such token would share it', async () => {
    const { key, authenticator } = await remoteAuthenticator();
    for (const sub of [' ', '\t\n ']) {
      const failure = refused(await authenticator.authenticate(bearer(await signToken(key, { sub }))));
      expect(failure).toMatchObject({ status: 401, error: 'invalid_token', description: 'The access token is not valid for this server' });
      expect(failure.reason).toMatch(/^token refused: its sub claim is blank \(\d white-space characters?\); each conversation is bound/);
    }
  });

  it('a token issued in the future beyond the clock tolerance is refused; within it, accepted', async () => {
    const { key, authenticator } = await remoteAuthenticator({ clockTolerance: 30 });
    const ahead = refused(
      await authenticator.authenticate(bearer(await signToken(key, { iat: nowSeconds + 3600, exp: nowSeconds + 7200 }))),
    );
    expect(ahead).toMatchObject({ status: 401, error: 'invalid_token' });
    expect(ahead.reason).toBe(
      'token refused: issued in the future, iat 2026-08-01T13:00:00.000Z (now 2026-08-01T12:00:00.000Z, 30 s tolerance); ' +
        'the authorization server’s clock or this machine’s is wrong',
    );
    expect((await authenticator.authenticate(bearer(await signToken(key, { iat: nowSeconds + 30 })))).ok).toBe(true);
  });

  it('typ: when required (at+jwt), a token must carry it; without the option any typ passes', async () => {
    const { key, authenticator } = await remoteAuthenticator({ typ: 'at+jwt' });
    for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT']) {
      expect((await authenticator.authenticate(bearer(await signToken(key, {}, { typ })))).ok, typ).toBe(true);
    }
    const idToken = refused(await authenticator.authenticate(bearer(await signToken(key, {}, { typ: 'JWT' }))));
    expect(idToken).toMatchObject({ status: 401, error: 'invalid_token', description: 'The access token is not valid for this server' });
    expect(idToken.reason).toMatch(
      /^token refused: its typ header is "JWT", and this server accepts only typ "at\+jwt" \(--jwt-typ, ROUNDTRIP_JWT_TYP\)/,
    );
    expect(refused(await authenticator.authenticate(bearer(await signToken(key))))).toMatchObject({
      reason: expect.stringMatching(/^token refused: its typ header is missing, and this server accepts only typ "at\+jwt"/),
    });
    const { authenticator: any } = await remoteAuthenticator();
    expect((await any.authenticate(bearer(await signToken(key, {}, { typ: 'JWT' })))).ok).toBe(true);
    expect(() => createJwtAuthenticator({ jwks: keySetOf(key), issuer: ISSUER, audience: AUDIENCE, typ: 'at jwt' })).toThrow(
      '--jwt-typ (ROUNDTRIP_JWT_TYP) "at jwt": give the typ header your access tokens carry, a media type such as at+jwt, or leave it unset',
    );
  });

  it('alg none and HS256 are refused, even with a kid the JWKS knows', async () => {
    const { authenticator } = await remoteAuthenticator();
    const claims = { iss: ISSUER, aud: AUDIENCE, sub: 'mallory', exp: nowSeconds + 300 };
    const unsecured = new UnsecuredJWT(claims).encode();
    const none = refused(await authenticator.authenticate(bearer(unsecured)));
    expect(none.reason).toContain('alg "none" is not accepted; only asymmetric signatures are (RS256');
    const secret = await generateSecret('HS256');
    const hs256 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: 'key-1' }).sign(secret);
    const symmetric = refused(await authenticator.authenticate(bearer(hs256)));
    expect(symmetric.reason).toContain('alg "HS256" is not accepted');
    for (const failure of [none, symmetric]) expect(failure).toMatchObject({ status: 401, error: 'invalid_token' });
  });

  it('a signature by another key under a known kid is refused', async () => {
    const { authenticator } = await remoteAuthenticator();
    const forged = refused(await authenticator.authenticate(bearer(await signToken(forger))));
    expect(forged.reason).toBe('token refused: bad signature (kid "key-1", alg "RS256")');
  });

  it('a missing scope is 403 insufficient_scope, naming the scopes required', async () => {
    const { key, authenticator } = await remoteAuthenticator({ requiredScopes: ['mcp:tools'] });
    const failure = refused(await authenticator.authenticate(bearer(await signToken(key, { scope: 'mcp:read' }))));
    expect(failure).toMatchObject({ status: 403, error: 'insufficient_scope', requiredScopes: ['mcp:tools'] });
    expect(failure.reason).toBe('token of "alice" refused: it lacks the scope(s) mcp:tools (it has: mcp:read)');
    expect((await authenticator.authenticate(bearer(await signToken(key, { scope: 'mcp:read mcp:tools' })))).ok).toBe(true);
  });

  it('no bearer token: 401 without an error code; a malformed header: 400 invalid_request', async () => {
    const { authenticator } = await remoteAuthenticator();
    const none = refused(await authenticator.authenticate(new Request('http://127.0.0.1:3000/mcp', { method: 'POST' })));
    expect(none.status).toBe(401);
    expect(none.error).toBeUndefined();
    expect(none.reason).toContain('no Authorization header');
    const basic = new Request('http://127.0.0.1:3000/mcp', { headers: { authorization: 'Basic YWxpY2U6cw==' } });
    expect(refused(await authenticator.authenticate(basic))).toEqual({
      ok: false,
      status: 401,
      description: none.description,
      reason: expect.stringContaining('scheme "Basic"'),
    });
    for (const header of ['Bearer', 'Bearer a b', 'Bearer a,b']) {
      const request = new Request('http://127.0.0.1:3000/mcp', { headers: { authorization: header } });
      expect(refused(await authenticator.authenticate(request))).toMatchObject({ status: 400, error: 'invalid_request' });
    }
    expect(refused(await authenticator.authenticate(bearer('not-a-jwt'))).reason).toContain('not a well-formed signed JWT');
  });

  it('a JWKS that cannot be fetched is the server’s problem: 503, the log says which URL and why', async () => {
    const { key, jwks, authenticator } = await remoteAuthenticator();
    jwks.serve(500);
    const failure = refused(await authenticator.authenticate(bearer(await signToken(key))));
    expect(failure).toMatchObject({ status: 503, description: 'The server cannot check access tokens right now; try again later' });
    expect(failure.error).toBeUndefined();
    expect(failure.reason).toContain(`fetching or reading the JWKS at ${jwks.url.href} failed: Expected 200 OK`);
  });

  it('a JWKS server that is gone: 503, the log says the fetch failed', async () => {
    // a port that refuses connections and that no other test can take meanwhile (a closed server's could be)
    const gone = new URL(`http://127.0.0.1:${await refusedPort()}/.well-known/jwks.json`);
    const authenticator = createJwtAuthenticator({ jwks: gone, issuer: ISSUER, audience: AUDIENCE, now: () => NOW });
    const failure = refused(await authenticator.authenticate(bearer(await signToken(key1))));
    expect(failure.status).toBe(503);
    expect(failure.reason).toMatch(
      /^cannot check tokens: fetching or reading the JWKS at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json failed: fetch failed \(.*ECONNREFUSED/,
    );
  });

  it('a key set given as data (a file’s contents) verifies without any fetch', async () => {
    const key = ecKey;
    const authenticator = createJwtAuthenticator({ jwks: keySetOf(key), issuer: ISSUER, audience: AUDIENCE, now: () => NOW });
    const result = await authenticator.authenticate(bearer(await signToken(key, { sub: 'dana' })));
    expect(result.ok && result.principal).toBe('dana');
    expect(refused(await authenticator.authenticate(bearer(await signToken(stranger)))).reason).toContain(
      'no key in the configured JWKS (1 key) matches kid "made-up"',
    );
  });
});

describe('createJwtAuthenticator: options it cannot work with are refused at once', () => {
  it('a JWKS URL over plain http to another machine', async () => {
    expect(() =>
      createJwtAuthenticator({ jwks: new URL('http://auth.example.com/jwks.json'), issuer: ISSUER, audience: AUDIENCE }),
    ).toThrow(/--jwks \(ROUNDTRIP_JWKS\) http:\/\/auth\.example\.com\/jwks\.json: keys must be fetched over https/);
  });

  it('a key set with a private key, a shared secret, or no keys', async () => {
    const privateJwk = { ...(await exportJWK(key1.privateKey)), kid: 'k' };
    expect(() => createJwtAuthenticator({ jwks: { keys: [privateJwk] }, issuer: ISSUER, audience: AUDIENCE })).toThrow(
      'kid "k" is a private key; give only the public keys',
    );
    expect(() => createJwtAuthenticator({ jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }, issuer: ISSUER, audience: AUDIENCE })).toThrow(
      'a key without kid is a shared secret (kty "oct")',
    );
    expect(() => createJwtAuthenticator({ jwks: { keys: [] }, issuer: ISSUER, audience: AUDIENCE })).toThrow(
      'not a JSON Web Key Set with keys',
    );
  });

  it('an empty issuer or audience', async () => {
    const jwks = keySetOf(key1);
    expect(() => createJwtAuthenticator({ jwks, issuer: ' ', audience: AUDIENCE })).toThrow('--issuer (ROUNDTRIP_ISSUER) is not set');
    expect(() => createJwtAuthenticator({ jwks, issuer: ISSUER, audience: '' })).toThrow('--audience (ROUNDTRIP_AUDIENCE) is not set');
  });
});
