// `pnpm conformance:serve`: the fixture over Streamable HTTP in a real child process at a free port (PORT=0).
// The official v2 client, pinned to 2026-07-28, completes an argument and answers a question over two rounds;
// SIGTERM stops it (exit 0). A PORT that is not a port is refused, saying what to give. The child runs the
// script the root script names, bundled (the suite's bundle, suite-bundle.ts) rather than through tsx (about
// 1 s of CPU a start): `.ci/run`'s conformance step starts it as the root script does, tsx and all, and runs the
// official suite against it (scripts/conformance.sh).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createBundles } from '../../../packages/mcp/test/fixtures/suite-bundle.ts';
import { HARNESS_CAPABILITIES } from './connect-fixture.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = 'apps/conformance/src/http-server.ts';

const children: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

const bundles = createBundles();
afterAll(() => bundles.remove());

/** The fixture's script bundled, run by plain node with only PATH and PORT in its environment. */
async function serve(port: string) {
  const child = spawn(process.execPath, [await bundles.of(`${ROOT}${SCRIPT}`)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = new Promise<URL>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = / over HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    void exited.then(() => reject(new Error(`the fixture exited before it served:\n${stderr}`)));
  });
  return { child, exited, url, stderr: () => stderr, stdout: () => stdout };
}

describe('pnpm conformance:serve', () => {
  it('is the root script that runs the HTTP server of the fixture', () => {
    const root = JSON.parse(readFileSync(new URL('package.json', `file://${ROOT}`), 'utf8')) as { scripts: Record<string, string> };
    expect(root.scripts['conformance:serve']).toBe(`tsx ${SCRIPT}`);
  });

  it('serves the fixture at http://127.0.0.1:$PORT/mcp without a key file: completion, two rounds, then SIGTERM exits 0', async () => {
    const server = await serve('0');
    const url = await server.url;
    expect(server.stderr()).toContain('with no authentication, for this machine only (ROUNDTRIP_KEY (1 key); principal conformance;');

    const client = new Client(
      { name: 'conformance-http-test', version: '0.0.1' },
      { capabilities: HARNESS_CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { autoFulfill: false } },
    );
    await client.connect(new StreamableHTTPClientTransport(url));
    clients.push(client);
    expect(client.getServerCapabilities()?.completions).toEqual({});
    const completed = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'pa' },
    });
    expect(completed.completion.values).toEqual(['paris', 'park', 'party']);

    const name = 'test_input_required_result_elicitation';
    const first = (await client.callTool({ name, arguments: {} }, { allowInputRequired: true })) as {
      inputRequests?: Record<string, { method: string }>;
      requestState?: string;
    };
    expect(first.inputRequests?.user_name?.method).toBe('elicitation/create');
    // the second round as the harness sends it: the answer and the state beside the arguments
    const retry = { inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } }, requestState: first.requestState! };
    const second = await client.callTool({ name, arguments: {}, ...retry }, { allowInputRequired: true });
    expect(second.content).toEqual([{ type: 'text', text: 'Hello, Alice!' }]);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('[roundtrip-conformance] info stopped: stopped;');
    expect(server.stdout()).toBe('');
  });

  it('refuses a PORT that is not a port, saying what to give', async () => {
    const server = await serve('http');
    await expect(server.url).rejects.toThrow('exited before it served');
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toBe(
      '[roundtrip-conformance] cannot start: PORT is "http"; give the port to listen on, from 0 to 65535 (0 picks a free one).\n',
    );
  });
});
