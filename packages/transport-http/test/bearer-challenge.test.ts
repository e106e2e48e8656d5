import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthenticationFailure,
  bearerChallengeResponse,
  createJwtAuthenticator,
  type JwtAuthenticator,
  protectedResourceMetadataUrl,
} from '../src/index.ts';
import { AUDIENCE, bearer, ISSUER, keySetOf, makeSigningKey, NOW, nowSeconds, type SigningKey, signToken } from './support/token-issuer.ts';

const resourceMetadataUrl = protectedResourceMetadataUrl(new URL(AUDIENCE));
let key: SigningKey;
let authenticator: JwtAuthenticator;
beforeAll(async () => {
  key = await makeSigningKey('key-1', 'ES256');
  authenticator = createJwtAuthenticator({
    jwks: keySetOf(key),
    issuer: ISSUER,
    audience: AUDIENCE,
    requiredScopes: ['mcp:tools'],
    now: () => NOW,
  });
});

async function refusal(request: Request): Promise<AuthenticationFailure> {
  const result = await authenticator.authenticate(request);
  if (result.ok) throw new Error('expected a refusal');
  return result;
}

describe('bearerChallengeResponse: what a refused client gets (RFC 6750 with RFC 9728)', () => {
  it('a request without a token: 401 naming the resource metadata, and no error code', async () => {
    const response = bearerChallengeResponse(await refusal(new Request('http://127.0.0.1:3000/mcp')), { resourceMetadataUrl });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp"',
    );
    expect(await response.json()).toEqual({
      error_description: 'This server needs an access token: send it as Authorization: Bearer <token>',
    });
  });

  it('an expired token: 401 invalid_token, saying it expired and nothing more', async () => {
    const token = await signToken(key, { scope: 'mcp:tools', exp: nowSeconds - 3600 });
    const response = bearerChallengeResponse(await refusal(bearer(token)), { resourceMetadataUrl });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp", ' +
        'error="invalid_token", error_description="The access token has expired"',
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ error: 'invalid_token', error_description: 'The access token has expired' });
  });

  it('a token for another audience: the client is not told which audience was expected', async () => {
    const failure = await refusal(bearer(await signToken(key, { scope: 'mcp:tools', aud: 'https://elsewhere.example/' })));
    const response = bearerChallengeResponse(failure, { resourceMetadataUrl });
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="invalid_token", error_description="The access token is not valid for this server"');
    const body = await response.text();
    for (const leak of ['elsewhere', 'audience', 'expected']) {
      expect(challenge).not.toContain(leak);
      expect(body).not.toContain(leak);
    }
    expect(failure.reason).toContain('wrong audience');
  });

  it('a missing scope: 403 insufficient_scope with the scope to ask for', async () => {
    const response = bearerChallengeResponse(await refusal(bearer(await signToken(key, { scope: 'mcp:read' }))), { resourceMetadataUrl });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp", ' +
        'error="insufficient_scope", error_description="The access token lacks a scope this server requires", scope="mcp:tools"',
    );
  });

  it('a malformed Authorization header: 400 invalid_request', async () => {
    const request = new Request('http://127.0.0.1:3000/mcp', { headers: { authorization: 'Bearer two tokens' } });
    const response = bearerChallengeResponse(await refusal(request), { resourceMetadataUrl });
    expect(response.status).toBe(400);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_request"');
  });

  it('a server that cannot fetch its keys answers 503 with no challenge', () => {
    const response = bearerChallengeResponse(
      { ok: false, status: 503, description: 'The server cannot check access tokens right now; try again later', reason: 'x' },
      { resourceMetadataUrl },
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('www-authenticate')).toBeNull();
  });

  it('quotes and escapes every parameter value', () => {
    const response = bearerChallengeResponse(
      { ok: false, status: 401, error: 'invalid_token', description: 'say "hi"\\ \n', reason: 'x' },
      { resourceMetadataUrl: 'https://mcp.example.test/.well-known/oauth-protected-resource' },
    );
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource", error="invalid_token", error_description="say \\"hi\\"\\\\  "',
    );
  });
});
