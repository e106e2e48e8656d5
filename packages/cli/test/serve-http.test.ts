// `roundtrip serve <module> --http [host:]port`: the bundled command in a real child process serving the
// module over Streamable HTTP at /mcp to the official v2 client, then stopping on SIGTERM; its HTTP
// options refused as usage errors in-process, before anything is loaded.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { generateKey } from '@roundtrip/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { runCommand } from './fixtures/run-command.ts';
import { FIXTURES } from './fixtures/spawn-cli.ts';

const MODULE = join(FIXTURES, 'serve-definitions.ts');
let bundled: BundledCli;
beforeAll(async () => {
  bundled = await bundleCli();
});
afterAll(() => bundled.remove());
const temps: string[] = [];
const children: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const run = (...args: string[]) => runCommand(args, { cwd: FIXTURES });
type Round = { requestState?: string; inputRequests?: Record<string, { params: { message: string } }>; content?: Array<{ text: string }> };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** Starts the bundled `roundtrip serve <bundled module> …args` and resolves once its startup line names the URL. */
async function serveHttp(args: string[], env: Record<string, string>) {
  const home = await mkdtemp(join(tmpdir(), 'roundtrip-serve-http-'));
  temps.push(home);
  const child = spawn(process.execPath, [bundled.launcher[1]!, 'serve', bundled.module('serve-definitions'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = / over HTTP at (\S+) /.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    void exited.then(() => reject(new Error(`serve exited before it started:\n${stderr}`)));
  });
  return { child, url, exited, stderr: () => stderr, stdout: () => stdout };
}

describe('roundtrip serve --http', () => {
  it('serves the module at /mcp to a 2026-07-28 client over three rounds, and exits 0 on SIGTERM', async () => {
    const server = await serveHttp(['--http', '127.0.0.1:0', '--ledger', ':memory:', '--principal', 'grace'], {
      ROUNDTRIP_KEY: generateKey(),
    });
    expect(server.url.pathname).toBe('/mcp');
    const client = new Client(
      { name: 'cli-http-test', version: '0.0.1' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(server.url));
    clients.push(client);
    expect(client.getServerVersion()).toMatchObject({ name: 'serve-fixture', version: '1.2.3' });
    const call = (extra: object = {}) =>
      client.callTool({ name: 'order_pizza', arguments: { for: 'Ada' }, ...extra }, { allowInputRequired: true }) as Promise<Round>;
    const size = await call();
    expect(size.inputRequests?.size?.params.message).toBe('Which size for Ada?');
    const topping = await call({ requestState: size.requestState, inputResponses: { size: accept({ size: 'l' }) } });
    const sure = await call({ requestState: topping.requestState, inputResponses: { topping: accept({ topping: 'basil' }) } });
    const done = await call({ requestState: sure.requestState, inputResponses: { sure: accept({ ok: true }) } });
    expect(done.content?.[0]?.text).toBe('Ordered a l basil pizza for Ada.');
    expect(server.stderr()).toMatch(
      /\[serve-fixture\] info started: serve-fixture 1\.2\.3 serving 1 tool, 1 prompt, 1 resource over HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp with no authentication, for this machine only \(ROUNDTRIP_KEY \(1 key\); principal grace;/,
    );

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('[serve-fixture] info stopping: SIGTERM: accepting no more requests; none in flight');
    // over HTTP nothing is written to stdout, the module's console.log included
    expect(server.stdout()).toBe('');
  });

  it('refuses to start with a JWKS but no issuer, naming both flags (exit 1)', async () => {
    const { code, err } = await run('serve', MODULE, '--http', '127.0.0.1:0', '--jwks', 'https://auth.example.com/jwks.json');
    expect(code).toBe(1);
    expect(err).toContain(
      'roundtrip serve: cannot start serve-fixture: --jwks (ROUNDTRIP_JWKS) is set but --issuer (ROUNDTRIP_ISSUER) is not',
    );
  });
});

describe('roundtrip serve --http: usage errors', () => {
  it('refuses an address beyond this machine without authentication, naming the flags that allow it', async () => {
    const { code, err } = await run('serve', MODULE, '--http', '0.0.0.0:8080');
    expect(code).toBe(2);
    expect(err).toContain('roundtrip serve: refusing to serve on 0.0.0.0:8080 without authentication');
    expect(err).toContain('Set --jwks, --issuer and --audience');
    expect(err).toContain('or, for a trusted network only, --insecure-no-auth.');
  });

  it('refuses HTTP options without --http, an address that is not [host:]port, a missing value and a misspelt flag', async () => {
    expect(await run('serve', MODULE, '--jwks', 'keys.json')).toMatchObject({
      code: 2,
      err: expect.stringContaining('roundtrip serve: --jwks is for serving over HTTP: add --http [host:]port'),
    });
    expect(await run('serve', MODULE, '--http', 'localhost:http')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--http "localhost:http": "http" is not a port; give [host:]port'),
    });
    expect(await run('serve', MODULE, '--http')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--http needs the address to listen on'),
    });
    expect(await run('serve', MODULE, '--http', '3000', '--alowed-hosts', 'a.example')).toMatchObject({
      code: 2,
      err: expect.stringContaining("unknown option --alowed-hosts. Did you mean '--allowed-hosts'?"),
    });
  });

  it('lists the HTTP options in its help', async () => {
    const { code, out } = await run('serve', '--help');
    expect(code).toBe(0);
    expect(out).toContain('roundtrip serve <module> --http [host:]port [options]');
    expect(out).toContain('--insecure-no-auth');
    expect(out).toContain('ROUNDTRIP_DRAIN_TIMEOUT_MS');
  });
});
