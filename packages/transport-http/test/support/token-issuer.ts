// A small authorization server for tests: real key pairs made with jose, tokens signed with them, and
// the public keys served as a JWKS from a node:http server on 127.0.0.1 (rotated by replacing its keys).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK, type JWTPayload, SignJWT } from 'jose';

export const ISSUER = 'https://auth.example.test/';
export const AUDIENCE = 'https://mcp.example.test/mcp';
/** The tests' clock: tokens are issued relative to it, and the authenticator is handed it. */
export const NOW = new Date('2026-08-01T12:00:00Z');
export const nowSeconds = Math.floor(NOW.getTime() / 1000);

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function makeSigningKey(kid: string, alg: 'RS256' | 'ES256' = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicJwk };
}

// RSA key generation is the costly part (50 to 130 ms of CPU a key): a test that needs a key, not a key of its own,
// takes the one every file of this worker shares (the suite runs files with isolate: false)
const shared = new Map<string, Promise<SigningKey>>();

/** The key pair `kid` (RS256) shared by the files of this test worker: made by the first that asks. */
export function sharedSigningKey(kid: string): Promise<SigningKey> {
  let key = shared.get(kid);
  if (key === undefined) {
    key = makeSigningKey(kid);
    shared.set(kid, key);
    key.catch(() => shared.delete(kid));
  }
  return key;
}

export function keySetOf(...keys: SigningKey[]): JSONWebKeySet {
  return { keys: keys.map((key) => key.publicJwk) };
}

/** A signed access token: by default for {@link AUDIENCE} from {@link ISSUER}, subject alice, valid five minutes from {@link NOW}. */
export async function signToken(
  key: SigningKey,
  claims: JWTPayload = {},
  header: { kid?: string | undefined; typ?: string } = {},
): Promise<string> {
  const payload: JWTPayload = { iss: ISSUER, aud: AUDIENCE, sub: 'alice', iat: nowSeconds, exp: nowSeconds + 300, ...claims };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  const kid = 'kid' in header ? header.kid : key.kid;
  const typ = header.typ === undefined ? {} : { typ: header.typ };
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, ...(kid !== undefined && { kid }), ...typ }).sign(key.privateKey);
}

export function bearer(token: string): Request {
  return new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
}

export interface JwksServer {
  url: URL;
  /** How many times the JWKS was fetched. */
  fetches(): number;
  /** What the JWKS serves from now on (a rotation), a status other than 200, or nothing (`'down'`: each connection dropped unanswered). */
  serve(keys: JSONWebKeySet | number | 'down'): void;
  close(): Promise<void>;
}

export async function startJwksServer(initial: JSONWebKeySet | 'down'): Promise<JwksServer> {
  let current: JSONWebKeySet | number | 'down' = initial;
  let count = 0;
  const server: Server = createServer((_request, response) => {
    count += 1;
    if (current === 'down') {
      response.socket?.destroy();
      return;
    }
    if (typeof current === 'number') {
      response.writeHead(current).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(current));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/.well-known/jwks.json`),
    fetches: () => count,
    serve: (keys) => {
      current = keys;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
