// Graceful shutdown, in a real child process sent a real SIGTERM while a round is in flight: the server
// stops accepting connections at once, lets the round finish and answer, and exits 0; when the round
// outlasts the drain time, it is cut, the log says which, and the exit status is 1. The round's work
// waits for the test's word over IPC, never for a timer. With nothing in flight, the same shutdown
// (runHttpServer's close(), which SIGTERM calls) is checked on a server in this process.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKey } from '@roundtrip/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { createBundles } from '../../mcp/test/fixtures/suite-bundle.ts';
import { V8_TUNING_SHOWN } from '../../mcp/test/fixtures/v8-tuning-shown.ts';
import { closeAll, connectModern, startServer } from './support/http-host.ts';

const bundles = createBundles();
afterAll(() => bundles.remove());
// the cases run concurrently (each its own server process, client and home; most of their time is spent waiting on
// the process): clients and a process a failed case left are closed once they all have run
afterAll(closeAll);
const children: ChildProcess[] = [];
const homes: string[] = [];
afterAll(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

interface HeldServer {
  child: ChildProcess;
  url: URL;
  stderr(): string;
  /** Resolves once stderr matches. */
  logged(pattern: RegExp): Promise<string>;
  /** Resolves with the next IPC message. */
  message(): Promise<unknown>;
  exited: Promise<number | null>;
}

async function startHeldServer(env: Record<string, string> = {}): Promise<HeldServer> {
  const script = await bundles.of(fileURLToPath(new URL('./fixtures/held-round-server.ts', import.meta.url)));
  const home = mkdtempSync(join(tmpdir(), 'rt-held-'));
  homes.push(home);
  const child = spawn(process.execPath, [script], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ROUNDTRIP_KEY: generateKey(),
      ROUNDTRIP_PRINCIPAL: 'ada',
      ROUNDTRIP_LEDGER: ':memory:',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.push(child);
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const waiter of waiters.splice(0)) waiter();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const logged = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (pattern.test(stderr)) resolve(stderr);
        else waiters.push(check);
      };
      void exited.then(() =>
        pattern.test(stderr) ? resolve(stderr) : reject(new Error(`exited; stderr never matched ${pattern}:\n${stderr}`)),
      );
      check();
    });
  const started = await logged(/serving 1 tool over HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp) /);
  const url = new URL(/over HTTP at (\S+) /.exec(started)![1]!);
  return { child, url, stderr: () => stderr, logged, message: () => new Promise((resolve) => child.once('message', resolve)), exited };
}

describe('SIGTERM with a round in flight', { concurrent: true }, () => {
  it('stops accepting, lets the round finish and answer, then exits 0', async () => {
    const server = await startHeldServer();
    // handling the signals, it owns its process: it tuned V8
    expect(server.stderr()).toMatch(/info started: held-test /);
    expect(server.stderr()).toContain(`${V8_TUNING_SHOWN})\n`);
    const { client } = await connectModern({ urls: [server.url] });
    const working = server.message();
    const call = client.callTool({ name: 'held_report', arguments: {} });
    expect(await working).toBe('started');

    server.child.kill('SIGTERM');
    await server.logged(
      /info stopping: SIGTERM: accepting no more requests; waiting up to 20000 ms for 1 request in flight \(tools\/call held_report\)/,
    );
    // no new connection is accepted meanwhile
    await expect(fetch(server.url, { method: 'POST' })).rejects.toThrow();

    server.child.send('release');
    expect(await call).toMatchObject({ content: [{ type: 'text', text: 'Report finished.' }] });
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('[held-test] info stopped: stopped; 1 request in flight finished first');
  });

  it('cuts a round that outlasts the drain time, says which, and exits 1', async () => {
    const server = await startHeldServer({ ROUNDTRIP_DRAIN_TIMEOUT_MS: '50' });
    const { client } = await connectModern({ urls: [server.url] });
    const working = server.message();
    const call = client.callTool({ name: 'held_report', arguments: {} });
    expect(await working).toBe('started');

    server.child.kill('SIGTERM');
    await expect(call).rejects.toThrow();
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain(
      '[held-test] warn stopped: cut 1 request still in flight after 50 ms (tools/call held_report); their clients got no answer and may send them again',
    );
  });
});

describe('the same shutdown with nothing in flight', () => {
  it('stops at once, with the exit code 0', async () => {
    const { server, logs } = await startServer({ tools: [] });
    await server.close();
    expect(await server.stopped).toBe(0);
    expect(logs.filter((entry) => ['stopping', 'stopped'].includes(entry.event)).map((entry) => entry.message)).toEqual([
      'close(): accepting no more requests; none in flight',
      'stopped; 0 requests in flight finished first',
    ]);
  });
});
