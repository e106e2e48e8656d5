import { describe, expect, it } from 'vitest';
import { createHostOriginCheck, type HostOriginVerdict, HttpConfigError } from '../src/index.ts';

function request(headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers });
}

function refusedWith(verdict: HostOriginVerdict): { response: Response; reason: string } {
  if (verdict.ok) throw new Error('expected a refusal');
  return verdict;
}

describe('createHostOriginCheck: DNS rebinding and cross-site protection', () => {
  const check = createHostOriginCheck();

  it('lets through requests addressed to this machine, with any port, and clients that send no Origin', () => {
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'localhost']) {
      expect(check(request({ host }))).toEqual({ ok: true });
    }
    expect(check(request({ host: 'localhost:3000', origin: 'http://localhost:6274' }))).toEqual({ ok: true });
  });

  it('refuses a rebound name (Host evil.com) with the SDK’s 403, and logs what to do', async () => {
    const { response, reason } = refusedWith(check(request({ host: 'evil.com:3000' })));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Invalid Host: evil.com' }, id: null });
    expect(reason).toBe(
      'request refused (DNS rebinding protection): Host "evil.com:3000" is not a name this server answers to ' +
        '(localhost, 127.0.0.1, [::1]); if clients reach this server by that name, add it to the allowed hosts',
    );
  });

  it('refuses a request without a Host header: 400, as HTTP/1.1 asks', () => {
    const verdict = check(new Request('http://127.0.0.1:3000/mcp'));
    // a Request made here gets no Host header of its own: that is the case of a proxy that drops it
    expect(refusedWith(verdict).response.status).toBe(400);
    expect(refusedWith(verdict).reason).toContain('no Host header');
  });

  it('cuts the name it repeats in a 403, as every client string an answer repeats', async () => {
    const long = `${'a'.repeat(5000)}.example`;
    for (const headers of [{ host: long }, { host: 'localhost', origin: `https://${long}` }] as Record<string, string>[]) {
      const { response } = refusedWith(check(request(headers)));
      const { error } = (await response.json()) as { error: { message: string } };
      expect(error.message).toMatch(/^Invalid (Host|Origin): a{120}… \(\d+ more characters\)$/);
    }
  });

  it('refuses a page from a foreign Origin, and the opaque null origin', async () => {
    const { response, reason } = refusedWith(check(request({ host: 'localhost:3000', origin: 'https://evil.com' })));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Invalid Origin: evil.com' }, id: null });
    expect(reason).toContain('a browser page from Origin "https://evil.com" may not call this server');
    expect(check(request({ host: 'localhost:3000', origin: 'null' })).ok).toBe(false);
  });

  it('allow-lists add names to this machine’s', () => {
    const public_ = createHostOriginCheck({
      allowedHosts: ['MCP.example.com', '::2'],
      allowedOrigins: ['app.example.com', 'moz-extension://*'],
    });
    expect(public_(request({ host: 'mcp.example.com' }))).toEqual({ ok: true });
    expect(public_(request({ host: '[::2]:8080' }))).toEqual({ ok: true });
    expect(public_(request({ host: 'localhost:3000' }))).toEqual({ ok: true });
    expect(public_(request({ host: 'mcp.example.com', origin: 'https://app.example.com' }))).toEqual({ ok: true });
    expect(public_(request({ host: 'mcp.example.com', origin: 'moz-extension://4b1e-11' }))).toEqual({ ok: true });
    expect(public_(request({ host: 'mcp.example.com', origin: 'https://evil.com' })).ok).toBe(false);
    expect(public_(request({ host: 'evil.com' })).ok).toBe(false);
  });

  it('judges every request’s Host afresh after one it let through: a refused one is refused each time, with a response of its own', async () => {
    const fresh = createHostOriginCheck();
    for (let round = 0; round < 2; round++) {
      expect(fresh(request({ host: 'localhost:3000' }))).toEqual({ ok: true });
      for (const host of ['evil.com:3000', 'localhost:3000, evil.com', 'evil.com@localhost:3000']) {
        const { response } = refusedWith(fresh(request({ host })));
        expect(response.bodyUsed).toBe(false);
        expect((await response.json()) as unknown).toMatchObject({ error: { code: -32000 } });
      }
      expect(refusedWith(fresh(new Request('http://127.0.0.1:3000/mcp'))).response.status).toBe(400);
      expect(fresh(request({ host: 'localhost:3000', origin: 'https://evil.com' })).ok).toBe(false);
    }
  });

  it('a specific bind address is a name clients may use; a wildcard or loopback bind adds nothing', () => {
    expect(createHostOriginCheck({ bindHost: '192.168.1.20' })(request({ host: '192.168.1.20:3000' }))).toEqual({ ok: true });
    expect(createHostOriginCheck({ bindHost: '0.0.0.0' })(request({ host: '0.0.0.0:3000' })).ok).toBe(false);
  });

  it('an allow-list entry that is not a host name is refused at once, saying what to give', () => {
    for (const entry of ['https://mcp.example.com', 'mcp.example.com:443', 'mcp.example.com/mcp', '']) {
      expect(() => createHostOriginCheck({ allowedHosts: [entry] })).toThrow(HttpConfigError);
    }
    expect(() => createHostOriginCheck({ allowedOrigins: ['https://app.example.com'] })).toThrow(
      'allowedOrigins: "https://app.example.com" is not a host name; give the name alone, without scheme, port or path (e.g. mcp.example.com)',
    );
  });
});
