import type { AuthenticationFailure } from './authentication.ts';

/** RFC 6750 §2.1: the characters of a bearer token (a JWT's base64url parts and dots among them). */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The bearer token of a request's `Authorization` header, or why there is none. A request without
 * the header, or with another scheme (Basic), carries no bearer credentials: 401 with a challenge that
 * names no error (RFC 6750 §3.1). A Bearer header that is not one well-formed token is
 * `invalid_request` (400). Tokens in the query string or the body are not read (RFC 9700 advises against).
 */
export function bearerTokenOf(request: Request): { ok: true; token: string } | AuthenticationFailure {
  const header = request.headers.get('authorization');
  const [scheme = '', ...rest] = (header ?? '').trim().split(/\s+/);
  if (header === null || scheme.toLowerCase() !== 'bearer') {
    return {
      ok: false,
      status: 401,
      description: 'This server needs an access token: send it as Authorization: Bearer <token>',
      reason:
        header === null
          ? 'request refused: no Authorization header (a client that has not signed in yet, or one that does not know this server needs a token)'
          : `request refused: Authorization scheme ${JSON.stringify(scheme.slice(0, 20))} instead of Bearer`,
    };
  }
  const token = rest.join(' ');
  if (rest.length !== 1 || !B64TOKEN.test(token)) {
    return {
      ok: false,
      status: 400,
      error: 'invalid_request',
      description: 'The Authorization header must carry exactly one bearer token: Authorization: Bearer <token>',
      reason: 'request refused: the Authorization header is Bearer but not followed by exactly one well-formed token',
    };
  }
  return { ok: true, token };
}
