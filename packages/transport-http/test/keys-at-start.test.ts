// A JWKS the server cannot fetch is said at start, loudly (an error in the log, before the startup line),
// instead of every client getting 503 with nothing said; the server starts anyway and fetches it again
// until it comes (the authorization server may be starting at the same time), and says so then. A real
// JWKS on 127.0.0.1 that drops every connection at first, then serves its keys; the test waits on the
// log's entries, never on time.
import type { EngineLogEntry } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { closeAll, startServer } from './support/http-host.ts';
import { modernListTools, rawRequest } from './support/raw-request.ts';
import { AUDIENCE, ISSUER, type JwksServer, keySetOf, sharedSigningKey, signToken, startJwksServer } from './support/token-issuer.ts';

const jwksServers: JwksServer[] = [];
afterEach(async () => {
  await closeAll();
  await Promise.all(jwksServers.splice(0).map((server) => server.close()));
});

/** A log that keeps its entries and resolves `next(event)` when an entry of that event arrives. */
function watchedLog() {
  const entries: EngineLogEntry[] = [];
  const waiting: Array<{ event: string; resolve: (entry: EngineLogEntry) => void }> = [];
  return {
    entries,
    log: (entry: EngineLogEntry) => {
      entries.push(entry);
      for (const waiter of waiting.filter((w) => w.event === entry.event)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    },
    next: (event: string) => new Promise<EngineLogEntry>((resolve) => waiting.push({ event, resolve })),
  };
}

async function serveWithJwks(jwks: JwksServer) {
  const watched = watchedLog();
  const server = await startServer({
    tools: [greetTool],
    log: watched.log,
    flags: { jwks: jwks.url.href, issuer: ISSUER, audience: AUDIENCE },
  });
  return { ...server, watched };
}

async function call(url: URL) {
  const now = Math.floor(Date.now() / 1000);
  const token = await signToken(await sharedSigningKey('key-1'), { iat: now, exp: now + 300 });
  return rawRequest(url, modernListTools({ host: `127.0.0.1:${url.port}`, authorization: `Bearer ${token}` }));
}

describe('the JWKS, fetched as the server starts', () => {
  it('down at start: an error in the log before the startup line, 503 meanwhile; fetched again until it comes, then served', async () => {
    const jwks = await startJwksServer('down');
    jwksServers.push(jwks);
    const { url, watched } = await serveWithJwks(jwks);
    const events = watched.entries.map((entry) => entry.event);
    expect(events.indexOf('jwks_unavailable')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('jwks_unavailable')).toBeLessThan(events.indexOf('started'));
    expect(watched.entries.find((entry) => entry.event === 'jwks_unavailable')).toEqual({
      level: 'error',
      event: 'jwks_unavailable',
      message: expect.stringMatching(
        new RegExp(
          `^cannot check any token: fetching or reading the JWKS at ${jwks.url.href.replace(/[.?]/g, '\\$&')} failed: fetch failed \\(.+\\); ` +
            'check --jwks \\(ROUNDTRIP_JWKS\\): it must serve a JSON Web Key Set with status 200\\. Until it can be fetched, every request ' +
            'with a token is answered 503; fetching it again in 500 ms, then less often \\(up to every 30 s\\)$',
        ),
      ),
    });
    expect((await call(url)).status).toBe(503);

    const loaded = watched.next('jwks_loaded');
    jwks.serve(keySetOf(await sharedSigningKey('key-1')));
    expect(await loaded).toEqual({
      level: 'info',
      event: 'jwks_loaded',
      message: expect.stringMatching(
        /^the JWKS at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json was fetched at attempt \d+ \(1 key\): tokens are checked from now on$/,
      ),
    });
    expect((await call(url)).status).toBe(200);
  });

  it('up at start: fetched once before the first request, nothing said', async () => {
    const jwks = await startJwksServer(keySetOf(await sharedSigningKey('key-1')));
    jwksServers.push(jwks);
    const { url, watched } = await serveWithJwks(jwks);
    expect(jwks.fetches()).toBe(1);
    expect(watched.entries.filter((entry) => entry.event.startsWith('jwks'))).toEqual([]);
    expect((await call(url)).status).toBe(200);
    expect(jwks.fetches()).toBe(1);
  });
});
