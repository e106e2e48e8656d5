import type { AuthInfo } from '@modelcontextprotocol/server';

/**
 * A request the authenticator let through: who it is (the token's `sub`, the principal every
 * requestState of the request is bound to) and the SDK's `AuthInfo` for the MCP handler.
 */
export interface Authenticated {
  ok: true;
  /** The token's `sub`: the one identity the server binds state to. Never anything else the client says. */
  principal: string;
  authInfo: AuthInfo;
}

/**
 * A request the authenticator refused, as data. `reason` is for the operator's log (what was wrong:
 * expired, which audience was expected and which came, an unknown `kid`); `error` and `description`
 * are all the client gets (RFC 6750 codes and a fixed sentence), through {@link bearerChallengeResponse}.
 */
export interface AuthenticationFailure {
  ok: false;
  /** 401 (no or bad token), 400 (a malformed Authorization header), 403 (a missing scope), 503 (the keys cannot be fetched). */
  status: 400 | 401 | 403 | 503;
  /**
   * The RFC 6750 error code, or none when the request carried no bearer token at all (RFC 6750 §3.1:
   * the challenge then names no error) or when the server itself cannot check tokens (503).
   */
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  /** For the client: a fixed sentence with nothing an attacker could learn from beyond the error code. */
  description: string;
  /** For the operator's log: what exactly was wrong, and what to do about it. */
  reason: string;
  /** The scopes the server requires, named in an `insufficient_scope` challenge. */
  requiredScopes?: string[];
}

/** What {@link JwtAuthenticator.authenticate} answers: validation results as data, never a throw. */
export type Authentication = Authenticated | AuthenticationFailure;
