import { describe, expect, it } from 'vitest';
import { DEFAULT_BIND_HOST, decideBind, isLoopbackHost } from '../src/index.ts';

describe('decideBind: safe by default', () => {
  it('binds 127.0.0.1 unless told otherwise, and serves loopback without authentication', () => {
    expect(DEFAULT_BIND_HOST).toBe('127.0.0.1');
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2']) {
      expect(decideBind({ host, port: 3000, authenticated: false })).toEqual({ ok: true });
    }
  });

  it('refuses any other address without an authenticator, telling the operator what to set', () => {
    expect(decideBind({ host: '0.0.0.0', port: 3000, authenticated: false })).toEqual({
      ok: false,
      message:
        'refusing to serve on 0.0.0.0:3000 without authentication: anyone who can reach it could call every tool, as the one ' +
        'principal ROUNDTRIP_PRINCIPAL names. Set --jwks, --issuer and --audience (ROUNDTRIP_JWKS, ROUNDTRIP_ISSUER, ' +
        'ROUNDTRIP_AUDIENCE) to accept only tokens from your authorization server, bind 127.0.0.1 (the default) to serve ' +
        'this machine only, or, for a trusted network only, --insecure-no-auth.',
    });
    for (const host of ['::', '', '192.168.1.20', 'mcp.example.com']) {
      expect(decideBind({ host, port: 8080, authenticated: false }).ok).toBe(false);
    }
    const ipv6 = decideBind({ host: '::', port: 8080, authenticated: false });
    expect(!ipv6.ok && ipv6.message).toMatch(/^refusing to serve on \[::\]:8080 without authentication/);
  });

  it('serves any address with an authenticator', () => {
    expect(decideBind({ host: '0.0.0.0', port: 3000, authenticated: true })).toEqual({ ok: true });
  });

  it('--insecure-no-auth starts a non-loopback server without authentication, with a warning', () => {
    const decision = decideBind({ host: '0.0.0.0', port: 3000, authenticated: false, insecureNoAuth: true });
    expect(decision.ok).toBe(true);
    expect(decision.ok && decision.warning).toBe(
      'serving on 0.0.0.0:3000 WITHOUT authentication (--insecure-no-auth): anyone who can reach this address can call every tool, ' +
        'as the one principal ROUNDTRIP_PRINCIPAL names. Keep it on a trusted network.',
    );
    const ignored = decideBind({ host: '0.0.0.0', port: 3000, authenticated: true, insecureNoAuth: true });
    expect(ignored.ok && ignored.warning).toContain('--insecure-no-auth is ignored');
  });

  it('isLoopbackHost tells this machine from the rest', () => {
    for (const host of ['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.255.0.9', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '', '128.0.0.1', '10.0.0.1', 'localhost.example.com', '127.0.0.1.nip.io']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});
