import type { AuthInfo } from '@modelcontextprotocol/server';
import { type ConfigErrorCode, RoundtripConfigError } from '@roundtrip/mcp';
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { Authentication } from './authentication.ts';
import { bearerTokenOf } from './bearer-token.ts';
import { checkedSubject } from './jwt-claims.ts';
import { failureFromVerifyError, keysUnavailableReason } from './jwt-failure.ts';
import { isLoopbackHost } from './loopback-host.ts';

/**
 * The signature algorithms a token may use: asymmetric only. A shared-secret algorithm (HS256) would let
 * anyone holding the verification key mint tokens, and `none` is no signature at all; both are refused.
 */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** One of {@link ASYMMETRIC_ALGORITHMS}. */
export type AsymmetricAlgorithm = (typeof ASYMMETRIC_ALGORITHMS)[number];

/** How {@link createJwtAuthenticator} checks bearer tokens. */
export interface JwtAuthenticatorOptions {
  /**
   * The authorization server's public keys: its `jwks_uri` (https; http only to a loopback address),
   * fetched on first use, cached, and fetched again when a token names a `kid` the cache does not hold
   * (key rotation), at most once per `jwksCooldownMs`; or a key set already read (a file's contents),
   * used as it is.
   */
  jwks: URL | JSONWebKeySet;
  /** The `iss` every token must carry: the authorization server's issuer identifier. */
  issuer: string;
  /** The `aud` every token must carry: this server's resource identifier, usually its public URL. */
  audience: string;
  /**
   * Seconds of clock skew allowed between this machine and the authorization server, on `exp`, `nbf`
   * and `iat` (a token issued further in the future is refused).
   * @defaultValue 30
   */
  clockTolerance?: number;
  /**
   * The `typ` header every token must carry, e.g. `at+jwt` (RFC 9068 access tokens; `application/` may be
   * left out, as jose compares it), so that another kind of JWT the authorization server signs with the
   * same keys (an ID token) is not taken for an access token. @defaultValue none: `typ` is not checked
   */
  typ?: string;
  /** Scopes every token must grant (`scope`, space-separated, or `scp`); a token lacking one gets 403 insufficient_scope. */
  requiredScopes?: string[];
  /**
   * The least time between two fetches of a remote JWKS that a token with an unknown `kid` may cause,
   * so that tokens with made-up key ids cannot make the server hammer the authorization server.
   * @defaultValue 30000
   */
  jwksCooldownMs?: number;
  /** How long a fetched JWKS is used before it is fetched again. @defaultValue 600000 (10 minutes) */
  jwksCacheMaxAgeMs?: number;
  /** How long one JWKS fetch may take. @defaultValue 5000 */
  jwksTimeoutMs?: number;
  /** The clock `exp`, `nbf` and `iat` are checked against (tests inject one). @defaultValue `() => new Date()` */
  now?: () => Date;
}

/** What {@link JwtAuthenticator.loadKeys} found: how many keys, or why there are none to check tokens with. */
export type KeysLoaded = { ok: true; keys: number; keySource: string } | { ok: false; reason: string; keySource: string };

/** Checks the bearer token of each request; made by {@link createJwtAuthenticator}. */
export interface JwtAuthenticator {
  /**
   * Reads the request's `Authorization: Bearer` token and verifies it: signature by a key of the JWKS,
   * an asymmetric `alg`, `iss`, `aud`, `exp` (required), `nbf`, `iat` not in the future, a `sub` that is
   * not blank, the `typ` header when one is required, the required scopes. Never throws: every outcome
   * is data, a refusal carrying its log reason.
   */
  authenticate(request: Request): Promise<Authentication>;
  /**
   * Fetches a remote JWKS now (a key set given as data is counted), so that a server can say at start
   * whether it can check tokens at all, and try again until it can. Never throws.
   */
  loadKeys(): Promise<KeysLoaded>;
  /** The issuer tokens must come from, for the protected resource metadata's `authorization_servers`. */
  readonly issuer: string;
  /** The scopes every token must grant, for the metadata's `scopes_supported` and the challenge. */
  readonly requiredScopes: readonly string[];
}

function configError(message: string, code: ConfigErrorCode = 'invalid_value'): RoundtripConfigError {
  return new RoundtripConfigError('ROUNDTRIP_JWKS', message, { code });
}

/** The key resolver, what the log calls its source, and how to fetch it now. */
interface Keys {
  getKey: JWTVerifyGetKey;
  keySource: string;
  load(): Promise<number>;
}

/** Refuses, at startup, a JWKS URL that an attacker on the path could answer, and a key set that cannot verify. */
function keysOf(options: JwtAuthenticatorOptions): Keys {
  const { jwks } = options;
  if (jwks instanceof URL) {
    if (jwks.protocol !== 'https:' && !(jwks.protocol === 'http:' && isLoopbackHost(jwks.hostname))) {
      throw configError(
        `--jwks (ROUNDTRIP_JWKS) ${jwks.href}: keys must be fetched over https (plain http only from this machine), ` +
          'or anyone on the network path could swap them and sign tokens of their own; use the https jwks_uri of your authorization server',
        'unsafe',
      );
    }
    const getKey = createRemoteJWKSet(jwks, {
      cooldownDuration: options.jwksCooldownMs ?? 30_000,
      cacheMaxAge: options.jwksCacheMaxAgeMs ?? 600_000,
      timeoutDuration: options.jwksTimeoutMs ?? 5_000,
    });
    const load = async () => {
      await getKey.reload();
      return getKey.jwks()?.keys.length ?? 0;
    };
    return { getKey, keySource: `the JWKS at ${jwks.href}`, load };
  }
  const keys: unknown = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw configError('--jwks (ROUNDTRIP_JWKS): not a JSON Web Key Set with keys; expected {"keys": [{"kty": …, "kid": …}, …]}');
  }
  for (const key of keys as Array<Record<string, unknown>>) {
    const name = typeof key?.kid === 'string' ? `kid ${JSON.stringify(key.kid)}` : 'a key without kid';
    if (key?.kty === 'oct') {
      throw configError(
        `--jwks (ROUNDTRIP_JWKS): ${name} is a shared secret (kty "oct"); only public keys of asymmetric algorithms are accepted`,
        'unsafe',
      );
    }
    if (key !== null && typeof key === 'object' && 'd' in key) {
      throw configError(
        `--jwks (ROUNDTRIP_JWKS): ${name} is a private key; give only the public keys (what the authorization server serves at its jwks_uri) and keep the private one secret`,
        'unsafe',
      );
    }
  }
  try {
    const getKey = createLocalJWKSet(jwks);
    return { getKey, keySource: `the configured JWKS (${keys.length} key${keys.length === 1 ? '' : 's'})`, load: async () => keys.length };
  } catch (error) {
    throw configError(`--jwks (ROUNDTRIP_JWKS): not a usable JSON Web Key Set: ${(error as Error).message}`);
  }
}

function scopesOf(payload: JWTPayload): string[] {
  const { scope, scp } = payload;
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean);
  if (typeof scp === 'string') return scp.split(' ').filter(Boolean);
  if (Array.isArray(scp)) return scp.filter((item): item is string => typeof item === 'string');
  return [];
}

function urlOrUndefined(value: string): URL | undefined {
  return /^https?:\/\//i.test(value) && URL.canParse(value) ? new URL(value) : undefined;
}

/** A `typ` as a JWT header carries it: a media type (`at+jwt`, `application/at+jwt`), else a config error. */
function typOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const typ = value.trim();
  if (!/^[A-Za-z0-9!#$&^_.+-]+(?:\/[A-Za-z0-9!#$&^_.+-]+)?$/.test(typ)) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_JWT_TYP',
      `--jwt-typ (ROUNDTRIP_JWT_TYP) ${JSON.stringify(value)}: give the typ header your access tokens carry, a media type such as at+jwt, or leave it unset`,
    );
  }
  return typ;
}

function requireText(value: unknown, flag: string, setting: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RoundtripConfigError(setting, `${flag} (${setting}) is not set: give ${what}`, { code: 'missing' });
  }
  return value.trim();
}

/**
 * A bearer-token authenticator for an MCP server acting as an OAuth resource server: JWT access tokens
 * verified with `jose` against the authorization server's JWKS. Throws {@link RoundtripConfigError} at once
 * for options it cannot work with (a plain-http JWKS URL to another machine, a key set with private or
 * shared-secret keys, a missing issuer or audience); after that, {@link JwtAuthenticator.authenticate}
 * answers every request with data.
 *
 * @example
 * ```ts
 * const authenticator = createJwtAuthenticator({
 *   jwks: new URL('https://auth.example.com/.well-known/jwks.json'),
 *   issuer: 'https://auth.example.com/',
 *   audience: 'https://mcp.example.com/mcp',
 * });
 * const result = await authenticator.authenticate(request);
 * if (!result.ok) {
 *   log.warn(result.reason);
 *   return bearerChallengeResponse(result, { resourceMetadataUrl });
 * }
 * // result.principal (the token's sub) is what every requestState is bound to
 * ```
 */
export function createJwtAuthenticator(options: JwtAuthenticatorOptions): JwtAuthenticator {
  const issuer = requireText(options.issuer, '--issuer', 'ROUNDTRIP_ISSUER', 'the issuer your authorization server puts in iss');
  const audience = requireText(
    options.audience,
    '--audience',
    'ROUNDTRIP_AUDIENCE',
    'this server’s resource identifier, the aud of its tokens',
  );
  const clockTolerance = options.clockTolerance ?? 30;
  if (!Number.isFinite(clockTolerance) || clockTolerance < 0) {
    throw new RoundtripConfigError('clockTolerance', `clockTolerance ${clockTolerance}: give a number of seconds, 0 or more`);
  }
  const typ = typOf(options.typ);
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const now = options.now ?? (() => new Date());
  const { getKey, keySource, load } = keysOf(options);
  const resource = urlOrUndefined(audience);

  async function authenticate(request: Request): Promise<Authentication> {
    const bearer = bearerTokenOf(request);
    if (!bearer.ok) return bearer;
    const { token } = bearer;
    const currentDate = now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        issuer,
        audience,
        algorithms: [...ASYMMETRIC_ALGORITHMS],
        clockTolerance,
        currentDate,
        requiredClaims: ['exp'],
        ...(typ !== undefined && { typ }),
      }));
    } catch (error) {
      return failureFromVerifyError(error, {
        token,
        issuer,
        audience,
        now: currentDate,
        clockToleranceSeconds: clockTolerance,
        keySource,
        algorithms: ASYMMETRIC_ALGORITHMS,
        typ,
      });
    }
    const subject = checkedSubject(payload, { now: currentDate, clockToleranceSeconds: clockTolerance });
    if (!subject.ok) return subject;
    const { sub } = subject;
    const scopes = scopesOf(payload);
    const missing = requiredScopes.filter((scope) => !scopes.includes(scope));
    if (missing.length > 0) {
      return {
        ok: false,
        status: 403,
        error: 'insufficient_scope',
        description: 'The access token lacks a scope this server requires',
        reason: `token of ${JSON.stringify(sub)} refused: it lacks the scope(s) ${missing.join(', ')} (it has: ${scopes.join(', ') || 'none'})`,
        requiredScopes,
      };
    }
    const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : '';
    const authInfo: AuthInfo = {
      token,
      clientId,
      scopes,
      ...(payload.exp !== undefined && { expiresAt: payload.exp }),
      ...(resource !== undefined && { resource }),
      extra: { sub, iss: payload.iss },
    };
    return { ok: true, principal: sub, authInfo };
  }

  async function loadKeys(): Promise<KeysLoaded> {
    try {
      return { ok: true, keys: await load(), keySource };
    } catch (error) {
      return { ok: false, reason: keysUnavailableReason(error, keySource), keySource };
    }
  }

  return { authenticate, loadKeys, issuer, requiredScopes };
}
