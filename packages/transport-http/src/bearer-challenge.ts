import type { AuthenticationFailure } from './authentication.ts';

/** Where the challenge sends a client to discover the authorization server. */
export interface BearerChallengeOptions {
  /** The URL of this server's protected resource metadata (RFC 9728), from {@link protectedResourceMetadataUrl}. */
  resourceMetadataUrl: string;
}

/** An HTTP quoted-string: `\` and `"` escaped, anything outside printable ASCII replaced by a space. */
function quotedString(value: string): string {
  return `"${value.replaceAll(/[\\"]/g, '\\$&').replaceAll(/[^\u0020-\u007E]/g, ' ')}"`;
}

/**
 * The `WWW-Authenticate` value of a refusal (RFC 6750 §3 with RFC 9728 §5.1): always `resource_metadata`,
 * so an MCP client can find the authorization server; `error` and `error_description` when the request
 * carried a token (a request without one gets no error code, RFC 6750 §3.1); `scope` on insufficient_scope.
 */
function bearerChallenge(failure: AuthenticationFailure, options: BearerChallengeOptions): string {
  const parts = [`resource_metadata=${quotedString(options.resourceMetadataUrl)}`];
  if (failure.error !== undefined) {
    parts.push(`error=${quotedString(failure.error)}`, `error_description=${quotedString(failure.description)}`);
  }
  if (failure.error === 'insufficient_scope' && failure.requiredScopes !== undefined && failure.requiredScopes.length > 0) {
    parts.push(`scope=${quotedString(failure.requiredScopes.join(' '))}`);
  }
  return `Bearer ${parts.join(', ')}`;
}

/**
 * The response to a request the authenticator refused: its status (401, 400, 403, or 503 when the
 * server cannot fetch its keys), the `WWW-Authenticate` challenge on 401, 400 and 403, and a JSON body
 * with the same code and sentence. Nothing of the log reason reaches the client.
 *
 * @example
 * ```ts
 * const result = await authenticator.authenticate(request);
 * if (!result.ok) return bearerChallengeResponse(result, { resourceMetadataUrl });
 * ```
 */
export function bearerChallengeResponse(failure: AuthenticationFailure, options: BearerChallengeOptions): Response {
  const body = { ...(failure.error !== undefined && { error: failure.error }), error_description: failure.description };
  const headers = new Headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  if (failure.status !== 503) headers.set('WWW-Authenticate', bearerChallenge(failure, options));
  return new Response(JSON.stringify(body), { status: failure.status, headers });
}
