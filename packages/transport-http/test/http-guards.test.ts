// What every request passes before the MCP handler, over real HTTP: the Host and Origin checks (DNS
// rebinding and cross-site protection), the body limit, the one path served. Each refusal tells the
// client what was wrong and logs the reason for the operator.
import { afterEach, describe, expect, it } from 'vitest';
import { greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { closeAll, startServer } from './support/http-host.ts';
import { modernListTools, rawRequest } from './support/raw-request.ts';

afterEach(closeAll);

const serve = (env: NodeJS.ProcessEnv = {}, flags = {}) =>
  startServer({ tools: [greetTool], flags }, { ROUNDTRIP_INSTANCE: 'guard-1', ...env });

describe('Host and Origin', () => {
  it('refuses a rebound name with 403 before anything else, and logs the name and what to do', async () => {
    const server = await serve();
    const refused = await rawRequest(server.url, modernListTools({ host: `evil.example:${server.url.port}` }));
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Invalid Host: evil.example' }, id: null });
    expect(refused.headers['roundtrip-instance']).toBe('guard-1');
    expect(server.logs).toContainEqual({
      level: 'warn',
      event: 'request_refused',
      message: expect.stringMatching(
        /^request refused \(DNS rebinding protection\): Host "evil\.example:\d+" is not a name .*; if clients reach this server by that name, add it to --allowed-hosts \(ROUNDTRIP_ALLOWED_HOSTS\)$/,
      ),
    });
  });

  it('refuses a page from a foreign Origin, and lets an allowed one through', async () => {
    const server = await serve({}, { allowedOrigins: 'app.example.com' });
    const host = `127.0.0.1:${server.url.port}`;
    const foreign = await rawRequest(server.url, modernListTools({ host, origin: 'https://evil.example' }));
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toMatchObject({ error: { message: 'Invalid Origin: evil.example' } });
    expect(server.logs.at(-1)?.message).toMatch(
      /^request refused \(cross-origin protection\): a browser page from Origin "https:\/\/evil\.example" may not call this server .*add its host name to --allowed-origins \(ROUNDTRIP_ALLOWED_ORIGINS\)$/,
    );
    const allowed = await rawRequest(server.url, modernListTools({ host, origin: 'https://app.example.com' }));
    expect(allowed.status).toBe(200);
  });

  it('answers to the names of --allowed-hosts (ROUNDTRIP_ALLOWED_HOSTS)', async () => {
    const server = await serve({ ROUNDTRIP_ALLOWED_HOSTS: 'mcp.internal, other.internal' });
    expect((await rawRequest(server.url, modernListTools({ host: 'other.internal' }))).status).toBe(200);
  });

  it('refuses to start with an allow-list entry that is not a host name, naming the flag and its variable', async () => {
    await expect(serve({ ROUNDTRIP_ALLOWED_HOSTS: 'https://mcp.example.com' })).rejects.toThrow(
      '--allowed-hosts (ROUNDTRIP_ALLOWED_HOSTS): "https://mcp.example.com" is not a host name; give the name alone, without scheme, port or path (e.g. mcp.example.com)',
    );
  });
});

describe('the request body limit', () => {
  it('refuses a declared body over ROUNDTRIP_MAX_REQUEST_BYTES with 413 unread, saying the size, the limit and what to do', async () => {
    const server = await serve({ ROUNDTRIP_MAX_REQUEST_BYTES: '65536' });
    const host = `127.0.0.1:${server.url.port}`;
    // the length alone is declared: the server answers before any of the body would be read
    const refused = await rawRequest(server.url, { headers: { ...modernListTools().headers, host, 'content-length': '70000' } });
    expect(refused.status).toBe(413);
    expect(refused.headers.connection).toBe('close');
    expect(refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message:
          "Request too large: 70000 bytes, over this server's limit of 65536 bytes. Nothing of it was read. Send less in one request " +
          "(shorter arguments or answers), or have the server's operator raise its limit (ROUNDTRIP_MAX_REQUEST_BYTES).",
      },
    });
    expect(server.logs).toContainEqual(
      expect.objectContaining({
        event: 'request_too_large',
        message: 'a POST body of 70000 bytes refused unread: over the limit of 65536 bytes',
      }),
    );
  });

  it('refuses a chunked body that grows over the limit with its own 413: the limit, what to do, the instance, the log line', async () => {
    const server = await serve({ ROUNDTRIP_MAX_REQUEST_BYTES: '65536' });
    const host = `127.0.0.1:${server.url.port}`;
    const refused = await rawRequest(server.url, {
      headers: { ...modernListTools().headers, host },
      body: 'x'.repeat(65_537),
      chunked: true,
    });
    expect(refused.status).toBe(413);
    expect(refused.headers['roundtrip-instance']).toBe('guard-1');
    expect(refused.headers.connection).toBe('close');
    expect(refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message:
          "Request too large: over this server's limit of 65536 bytes. It was refused as it grew over the limit; the rest was not read. " +
          "Send less in one request (shorter arguments or answers), or have the server's operator raise its limit (ROUNDTRIP_MAX_REQUEST_BYTES).",
      },
    });
    expect(server.logs).toContainEqual({
      level: 'warn',
      event: 'request_too_large',
      message: 'a POST body sent without a length grew over the limit of 65536 bytes: refused, the rest unread',
    });
  });

  it('serves a chunked body of exactly the limit', async () => {
    const server = await serve({ ROUNDTRIP_MAX_REQUEST_BYTES: '65536' });
    const list = modernListTools({ host: `127.0.0.1:${server.url.port}` });
    // JSON allows whitespace after the value: the body is padded to the limit's size
    const served = await rawRequest(server.url, { headers: list.headers, body: list.body.padEnd(65_536), chunked: true });
    expect(served.status).toBe(200);
  });

  it('serves a body under the limit', async () => {
    const server = await serve({ ROUNDTRIP_MAX_REQUEST_BYTES: '65536' });
    const list = modernListTools({ host: `127.0.0.1:${server.url.port}` });
    expect((await rawRequest(server.url, list)).status).toBe(200);
  });
});

describe('the request body', () => {
  // the listener reads the body and hands the SDK the JSON it holds; bytes it cannot parse go to the SDK as they came
  it('answers a body that is not JSON with the parse error, naming the fault', async () => {
    const server = await serve();
    const list = modernListTools({ host: `127.0.0.1:${server.url.port}` });
    const refused = await rawRequest(server.url, { headers: list.headers, body: `${list.body.slice(0, -1)},` });
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
  });

  it('serves a JSON body that begins with a byte order mark, as the SDK reads it', async () => {
    const server = await serve();
    const list = modernListTools({ host: `127.0.0.1:${server.url.port}` });
    const served = await rawRequest(server.url, { headers: list.headers, body: `\uFEFF${list.body}` });
    expect(served.status).toBe(200);
    expect(served.json()).toMatchObject({ result: { tools: [expect.objectContaining({ name: 'greet' })] } });
  });

  it('serves a JSON body that arrives in many pieces', async () => {
    const server = await serve();
    const list = modernListTools({ host: `127.0.0.1:${server.url.port}` });
    const served = await rawRequest(server.url, { headers: list.headers, body: list.body.padEnd(300_000), chunked: true });
    expect(served.status).toBe(200);
    expect(served.json()).toMatchObject({ result: { tools: [expect.objectContaining({ name: 'greet' })] } });
  });
});

describe('paths', () => {
  it('answers 404 off /mcp, naming the endpoint', async () => {
    const server = await serve();
    const list = modernListTools({ host: `127.0.0.1:${server.url.port}` });
    const missing = await rawRequest(server.url, { ...list, path: '/api' });
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: { message: 'Not found: this server answers MCP at /mcp, not at "/api"' } });
  });

  it('serves no protected resource metadata without authentication', async () => {
    const server = await serve();
    const path = '/.well-known/oauth-protected-resource/mcp';
    expect((await rawRequest(server.url, { method: 'GET', path, headers: { host: `127.0.0.1:${server.url.port}` } })).status).toBe(404);
  });
});
