import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';
import { RoundtripConfigError } from '@roundtrip/mcp';
import { clipped } from './client-echo.ts';
import type { RequestHead } from './request-head.ts';

/** The well-known path of RFC 9728 protected resource metadata, at the root of an origin. */
const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** What this server publishes about itself as an OAuth protected resource. */
export interface ProtectedResourceOptions {
  /**
   * This server's resource identifier: the public URL of its MCP endpoint (e.g.
   * `https://mcp.example.com/mcp`), as clients send it in RFC 8707's `resource` parameter and as the
   * authorization server puts it in the tokens' `aud`. No fragment.
   */
  resource: URL;
  /** The issuer identifiers of the authorization servers whose tokens this server accepts. */
  authorizationServers: string[];
  /** Scopes a client may ask for (those the server requires among them). */
  scopesSupported?: readonly string[];
  /** A human-readable name for the resource. */
  resourceName?: string;
}

/** The RFC 9728 §2 document: what a client needs to find the authorization server and present a token. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  /** Tokens are read from the Authorization header only, never from a query string or a form body. */
  bearer_methods_supported: ['header'];
  scopes_supported?: string[];
  resource_name?: string;
}

function checkResource(resource: URL): void {
  if (resource.hash !== '') {
    throw new RoundtripConfigError('resource', `resource ${resource.href}: a resource identifier has no fragment (RFC 8707); drop the #…`);
  }
}

/** The protected resource metadata document of this server. */
export function protectedResourceMetadata(options: ProtectedResourceOptions): ProtectedResourceMetadata {
  checkResource(options.resource);
  return {
    resource: options.resource.href,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
    ...(options.scopesSupported !== undefined && options.scopesSupported.length > 0 && { scopes_supported: [...options.scopesSupported] }),
    ...(options.resourceName !== undefined && { resource_name: options.resourceName }),
  };
}

/**
 * The URL of the metadata document for a resource, as a `WWW-Authenticate` challenge names it: the
 * well-known path inserted before the resource's path (RFC 9728 §3.1), so `https://mcp.example.com/mcp`
 * has its document at `https://mcp.example.com/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourceMetadataUrl(resource: URL): string {
  checkResource(resource);
  return getOAuthProtectedResourceMetadataUrl(resource);
}

const ALLOW = 'GET, HEAD, OPTIONS';

/**
 * Serves the metadata document when the request asks for it, at the path-suffixed form
 * (`/.well-known/oauth-protected-resource/mcp` for a resource at `/mcp`) and at the root form
 * (`/.well-known/oauth-protected-resource`) that MCP clients try next; `undefined` for any other path.
 * The document is public (no token needed) and readable from any origin (CORS `*`): browser-based
 * clients fetch it before they have a token. GET and HEAD answer it, OPTIONS answers a preflight,
 * other methods get 405.
 *
 * @example
 * ```ts
 * const metadata = protectedResourceMetadataResponse(request, { resource, authorizationServers: [issuer] });
 * if (metadata) return metadata;
 * ```
 */
export function protectedResourceMetadataResponse(request: RequestHead, options: ProtectedResourceOptions): Response | undefined {
  const path = new URL(request.url).pathname.replace(/(.)\/$/, '$1');
  const suffixed = new URL(protectedResourceMetadataUrl(options.resource)).pathname;
  if (path !== WELL_KNOWN && path !== suffixed) return undefined;
  const cors = { 'Access-Control-Allow-Origin': '*' };
  if (request.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: { ...cors, 'Access-Control-Allow-Methods': ALLOW, 'Access-Control-Max-Age': '86400' },
    });
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const body = { error: 'method_not_allowed', error_description: `Use GET to read this document, not ${clipped(request.method)}` };
    return Response.json(body, { status: 405, headers: { ...cors, Allow: ALLOW } });
  }
  const document = JSON.stringify(protectedResourceMetadata(options));
  const headers = { ...cors, 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' };
  return new Response(request.method === 'HEAD' ? null : document, { headers });
}
