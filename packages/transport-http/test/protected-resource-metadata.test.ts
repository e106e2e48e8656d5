import { describe, expect, it } from 'vitest';
import { protectedResourceMetadata, protectedResourceMetadataResponse, protectedResourceMetadataUrl } from '../src/index.ts';

const resource = new URL('https://mcp.example.test/mcp');
const options = { resource, authorizationServers: ['https://auth.example.test/'], scopesSupported: ['mcp:tools'] };

function get(path: string, method = 'GET'): Request {
  return new Request(`https://mcp.example.test${path}`, { method });
}

describe('protected resource metadata (RFC 9728)', () => {
  it('names the resource, the authorization server, header-only bearer tokens and the scopes', () => {
    expect(protectedResourceMetadata(options)).toEqual({
      resource: 'https://mcp.example.test/mcp',
      authorization_servers: ['https://auth.example.test/'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:tools'],
    });
    expect(protectedResourceMetadata({ resource, authorizationServers: ['https://a.test/'], resourceName: 'Orders' })).toEqual({
      resource: 'https://mcp.example.test/mcp',
      authorization_servers: ['https://a.test/'],
      bearer_methods_supported: ['header'],
      resource_name: 'Orders',
    });
  });

  it('its URL puts the well-known path before the resource’s path', () => {
    expect(protectedResourceMetadataUrl(resource)).toBe('https://mcp.example.test/.well-known/oauth-protected-resource/mcp');
    expect(protectedResourceMetadataUrl(new URL('https://mcp.example.test/'))).toBe(
      'https://mcp.example.test/.well-known/oauth-protected-resource',
    );
    expect(() => protectedResourceMetadataUrl(new URL('https://mcp.example.test/mcp#x'))).toThrow('a resource identifier has no fragment');
  });

  it('is served at the path-suffixed and the root well-known paths, to anyone, from any origin', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/',
    ]) {
      const response = protectedResourceMetadataResponse(get(path), options);
      expect(response?.status).toBe(200);
      expect(response?.headers.get('content-type')).toBe('application/json');
      expect(response?.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response?.json()).toEqual(protectedResourceMetadata(options));
    }
  });

  it('leaves every other path to the caller', () => {
    for (const path of ['/mcp', '/.well-known/oauth-protected-resource/other', '/.well-known/oauth-authorization-server']) {
      expect(protectedResourceMetadataResponse(get(path), options)).toBeUndefined();
    }
  });

  it('answers HEAD without a body, a CORS preflight with 204, and other methods with 405', async () => {
    const head = protectedResourceMetadataResponse(get('/.well-known/oauth-protected-resource/mcp', 'HEAD'), options);
    expect(head?.status).toBe(200);
    expect(await head?.text()).toBe('');
    const preflight = protectedResourceMetadataResponse(get('/.well-known/oauth-protected-resource/mcp', 'OPTIONS'), options);
    expect(preflight?.status).toBe(204);
    expect(preflight?.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    const post = protectedResourceMetadataResponse(get('/.well-known/oauth-protected-resource/mcp', 'POST'), options);
    expect(post?.status).toBe(405);
    expect(post?.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
