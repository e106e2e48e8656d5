import { decodeProtectedHeader, errors, type JWTPayload } from 'jose';
import type { AuthenticationFailure } from './authentication.ts';

/** What a failure's log reason is told about the check that failed. */
export interface VerificationContext {
  token: string;
  issuer: string;
  audience: string;
  now: Date;
  clockToleranceSeconds: number;
  /** Where the keys come from, as the log names it: the JWKS URL, or "the JWKS file's N keys". */
  keySource: string;
  /** The algorithms a token may be signed with. */
  algorithms: readonly string[];
  /** The `typ` header every token must carry, when the operator asks for one. */
  typ?: string | undefined;
}

/** The one sentence a client gets for a token that was refused for anything but its age. */
const INVALID_TOKEN = 'The access token is not valid for this server';
const EXPIRED_TOKEN = 'The access token has expired';
const UNAVAILABLE = 'The server cannot check access tokens right now; try again later';

/** A value from a token, as it may stand in a log line: JSON-quoted (controls escaped) and cut. */
function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const cut = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return JSON.stringify(cut);
}

export function isoTime(seconds: unknown): string {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : quoted(seconds);
}

function headerOf(token: string): { alg?: unknown; kid?: unknown; typ?: unknown } {
  try {
    return decodeProtectedHeader(token);
  } catch {
    return {};
  }
}

export function invalid(reason: string, description = INVALID_TOKEN): AuthenticationFailure {
  return { ok: false, status: 401, error: 'invalid_token', description, reason };
}

function claimFailure(error: errors.JWTClaimValidationFailed, context: VerificationContext): AuthenticationFailure {
  if (error.claim === 'typ') {
    const { typ } = headerOf(context.token);
    return invalid(
      `token refused: its typ header is ${typ === undefined ? 'missing' : quoted(typ)}, and this server accepts only typ ${quoted(context.typ)} ` +
        '(--jwt-typ, ROUNDTRIP_JWT_TYP): it may be another kind of token (an ID token, say) than an access token for this server. ' +
        'Have the authorization server issue access tokens with that typ, or unset the setting',
    );
  }
  const payload: JWTPayload = error.payload;
  const clock = `now ${context.now.toISOString()}, ${context.clockToleranceSeconds} s tolerance`;
  if (error.reason === 'missing') {
    return invalid(`token refused: it has no "${error.claim}" claim, which this server requires`);
  }
  switch (error.claim) {
    case 'iss':
      return invalid(
        `token refused: wrong issuer, expected ${quoted(context.issuer)}, got ${quoted(payload.iss)}. ` +
          'If that authorization server should be trusted, set --issuer (ROUNDTRIP_ISSUER) to it and --jwks to its keys.',
      );
    case 'aud':
      return invalid(
        `token refused: wrong audience, expected ${quoted(context.audience)}, got ${quoted(payload.aud)}. ` +
          `It was issued for another resource: the client must ask its authorization server for a token with resource=${context.audience}, ` +
          'or --audience (ROUNDTRIP_AUDIENCE) is not the value this server’s tokens carry.',
      );
    case 'nbf':
      return invalid(`token refused: not valid before ${isoTime(payload.nbf)} (${clock}); is this machine’s clock right?`);
    default:
      return invalid(`token refused: its "${error.claim}" claim failed the check (${error.message})`);
  }
}

/**
 * Turns what `jwtVerify` threw into a refusal: the log reason names what was wrong (expired when,
 * which issuer or audience was expected and which came, an unknown `kid`, a refused `alg`); the client
 * learns only `invalid_token` and whether the token expired. A key set that cannot be fetched is the
 * server's problem, not the client's: 503, no challenge.
 */
export function failureFromVerifyError(error: unknown, context: VerificationContext): AuthenticationFailure {
  const header = headerOf(context.token);
  const kid = header.kid === undefined ? 'no kid' : `kid ${quoted(header.kid)}`;
  if (error instanceof errors.JWTExpired) {
    return invalid(
      `token refused: expired at ${isoTime(error.payload.exp)} (now ${context.now.toISOString()}, ` +
        `${context.clockToleranceSeconds} s tolerance); the client must get a new one`,
      EXPIRED_TOKEN,
    );
  }
  if (error instanceof errors.JWTClaimValidationFailed) return claimFailure(error, context);
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return invalid(
      `token refused: alg ${quoted(header.alg)} is not accepted; only asymmetric signatures are (${context.algorithms.join(', ')})`,
    );
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return invalid(
      `token refused: unknown key, no key in ${context.keySource} matches ${kid} (alg ${quoted(header.alg)}); ` +
        'the key was retired, or the token comes from another authorization server',
    );
  }
  if (error instanceof errors.JWKSMultipleMatchingKeys) {
    return invalid(`token refused: several keys in ${context.keySource} match ${kid} and none verifies its signature`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return invalid(`token refused: bad signature (${kid}, alg ${quoted(header.alg)})`);
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return invalid(`token refused: not a well-formed signed JWT (${error.message})`);
  }
  return unavailable(`cannot check tokens: ${keysUnavailableReason(error, context.keySource)}`);
}

/**
 * Why a key set could not be fetched or read, for the log: the URL, what failed, and what to check.
 * The same words for a token that found the keys missing and for the fetch a server makes at start.
 */
export function keysUnavailableReason(error: unknown, keySource: string): string {
  if (error instanceof errors.JWKSTimeout) return `${keySource} did not answer in time; check that the URL is reachable from here`;
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  const message = error instanceof Error ? error.message : String(error);
  return (
    `fetching or reading ${keySource} failed: ${message}${cause}; ` +
    'check --jwks (ROUNDTRIP_JWKS): it must serve a JSON Web Key Set with status 200'
  );
}

function unavailable(reason: string): AuthenticationFailure {
  return { ok: false, status: 503, description: UNAVAILABLE, reason };
}
