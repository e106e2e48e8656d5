// The stdio server as a host runs it: a child process speaking JSON-RPC lines. Only what needs a real
// process is here (stdout discipline, exit codes, bad settings, restarts); the settings it takes from the
// environment are checked on a server in this process (in-process-server.ts), and protocol behaviour
// in protocol-server.test.ts.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBundles } from '../../mcp/test/fixtures/suite-bundle.ts';
import { V8_TUNING_SHOWN } from '../../mcp/test/fixtures/v8-tuning-shown.ts';
import { startInProcess } from './fixtures/in-process-server.ts';
import { modernMeta, type RawServer, spawnRawServer } from './fixtures/spawn-raw-server.ts';

const bundles = createBundles();
let script: string;
beforeAll(async () => {
  script = await bundles.of(join(import.meta.dirname, 'fixtures', 'greeting-server.ts'));
});
const folders: string[] = [];
const tempDir = (prefix: string) => {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  bundles.remove();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

// the cases run concurrently (each its own servers, folders and key; most of their time is spent waiting on a child
// process): a server a failed case left running is killed once they all have run
const running: RawServer[] = [];
const start = (env: Record<string, string>) => {
  const server = spawnRawServer(script, env);
  running.push(server);
  folders.push(server.home);
  return server;
};
afterAll(() => {
  for (const server of running.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
});

const call = (id: number, params: Record<string, unknown>, capabilities?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { _meta: modernMeta(capabilities), name: 'greet', arguments: { greeting: 'Hello' }, ...params },
});
const byId = (id: number) => (m: Record<string, unknown>) => m.id === id;
type Result = { resultType?: string; requestState?: string; content?: Array<{ text: string }>; isError?: boolean };
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the stdio server', { concurrent: true }, () => {
  it('serves a 2026-07-28 conversation that survives a restart reusing the generated key file: only JSON-RPC on stdout, logs on stderr, exit 0 on SIGTERM', async () => {
    const home = tempDir('rt-restart-');
    const env = { HOME: home, ROUNDTRIP_PRINCIPAL: 'ada' };
    const keyFile = join(home, '.config', 'roundtrip', 'keys', 'greeting-test.key');
    const ledger = join(home, '.local', 'state', 'roundtrip', 'ledgers', 'greeting-test.db');
    // the first server in this process (it generates the key file and opens the ledger), the second a real process
    // reading them: a restart across a process's end, and exit 0 on SIGTERM
    const before = await startInProcess(env);
    expect(before.stderr()).toContain(
      `[greeting-test] info started: greeting-test 0.0.1 serving 1 tool, 1 prompt, 1 resource, 1 resource template over stdio ` +
        `(key file ${keyFile} (generated now); principal ada; state lifetime 600s, settle timeout 10000 ms, at most 20 rounds, states up to 65536 bytes; effect ledger ${ledger})\n`,
    );
    expect(existsSync(ledger)).toBe(true);
    before.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } });
    expect((await before.next(byId(1))).result).toMatchObject({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, prompts: {}, resources: {} },
    });
    before.send(call(2, {}));
    const first = (await before.next(byId(2))).result as Result;
    expect(first.resultType).toBe('input_required');
    await before.end();

    const after = start(env);
    after.send(
      call(3, { requestState: `${first.requestState}A`, inputResponses: { who: { action: 'accept', content: { name: 'Grace' } } } }),
    );
    expect((await after.next(byId(3))).error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    await after.stderrMatching(/warn state_rejected \(tool greet\): requestState refused \(invalid\)/);
    after.send(call(4, { requestState: first.requestState, inputResponses: { who: { action: 'accept', content: { name: 'Grace' } } } }));
    expect(((await after.next(byId(4))).result as Result).content?.[0]?.text).toBe('Hello, Grace!');
    expect(after.stderr()).toContain(`(key file ${keyFile}; principal ada;`);
    // a server on its process's own stdio owns the process: it tuned V8 (in process, above, it did not)
    expect(after.stderr()).toMatch(/info started: .*; effect ledger \S+; V8 pretenuring off/);
    expect(after.stderr()).toContain(`${V8_TUNING_SHOWN})\n`);
    after.child.kill('SIGTERM');
    expect(await after.exited).toEqual({ code: 0, signal: null });

    expect(before.stdoutLines).toHaveLength(2);
    expect(after.stdoutLines).toHaveLength(2);
    for (const line of [...before.stdoutLines, ...after.stdoutLines]) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });

  it('serves a 2025-06-18 host through a real elicitation/create, takes limits, the ledger and the inspector from the environment, and closes when stdin ends', async () => {
    const ledger = join(tempDir('rt-ledger-'), 'effects.db');
    // an inspector page stand-in: the server reports its rounds to it (ROUNDTRIP_INSPECT)
    const rounds: Array<{ server: string; report: { round: number; outcome: string; answers: unknown } }> = [];
    let twoRounds: () => void = () => {};
    const reported = new Promise<void>((resolve) => (twoRounds = resolve));
    const page = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        rounds.push(JSON.parse(body));
        res.writeHead(204).end();
        if (rounds.length === 2) twoRounds();
      });
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const server = await startInProcess({
      ROUNDTRIP_KEY: generateKey(),
      ROUNDTRIP_LEDGER: ledger,
      ROUNDTRIP_MAX_ROUNDS: '30',
      ROUNDTRIP_STATE_TTL: '120',
      ROUNDTRIP_INSPECT: `http://127.0.0.1:${(page.address() as AddressInfo).port}`,
    });
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'old-host', version: '1' } },
    });
    expect((await server.next(byId(1))).result).toMatchObject({
      protocolVersion: '2025-06-18',
      capabilities: { tools: {}, prompts: {}, resources: {} },
    });
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { greeting: 'Hi' } } });
    const ask = await server.next((m) => m.method === 'elicitation/create');
    expect((ask.params as { message: string }).message).toBe('Whom should I say "Hi" to?');
    server.send({ jsonrpc: '2.0', id: ask.id as number, result: { action: 'accept', content: { name: 'Linus' } } });
    expect(((await server.next(byId(2))).result as Result).content?.[0]?.text).toBe('Hi, Linus!');

    // logged before runStdioServer resolved
    const log = server.stderr();
    expect(log).toMatch(
      new RegExp(
        `state lifetime 120s, settle timeout 10000 ms, at most 30 rounds, states up to 65536 bytes; effect ledger ${escapeRegExp(ledger)}\\)`,
      ),
    );
    expect(existsSync(ledger)).toBe(true);
    await reported;
    page.close();
    expect(rounds.map((r) => [r.server, r.report.round, r.report.outcome, r.report.answers])).toEqual([
      ['greeting-test', 1, 'input_required', {}],
      ['greeting-test', 2, 'complete', { who: { action: 'accept', fields: ['name'] } }],
    ]);
    await server.end();
    for (const line of server.stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });

  it('keeps stdout for protocol messages: what the served code prints (console.log, XState log actions, process.stdout.write) goes to stderr, and so does the Stately inspector (ROUNDTRIP_INSPECT=stately), online or not', async () => {
    // the printing server is the greeting server whose module prints once it has started
    const server = spawnRawServer(await bundles.of(join(import.meta.dirname, 'fixtures', 'printing-server.ts')), {
      ROUNDTRIP_KEY: generateKey(),
      ROUNDTRIP_INSPECT: 'stately',
    });
    running.push(server);
    folders.push(server.home);
    await server.stderrMatching(/with console\.table/);
    server.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } });
    expect(await server.next(byId(1))).toMatchObject({ jsonrpc: '2.0', id: 1 });
    // a conversation the inspector sees, through a real elicitation/create of a 2025-06-18 host
    server.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'old-host', version: '1' } },
    });
    await server.next(byId(2));
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'greet', arguments: { greeting: 'Hi' } } });
    const ask = await server.next((m) => m.method === 'elicitation/create');
    server.send({ jsonrpc: '2.0', id: ask.id as number, result: { action: 'accept', content: { name: 'Linus' } } });
    expect(((await server.next(byId(3))).result as Result).content?.[0]?.text).toBe('Hi, Linus!');
    expect(await server.stderrMatching(/info stately: inspecting with Stately/)).toContain('answers and context masked');
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // the answers to discover, initialize, the elicitation and the call: nothing else
    expect(server.stdoutLines).toHaveLength(4);
    for (const line of server.stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    for (const how of ['console.log', 'console.info', 'console.debug', 'console.dir', 'an XState log action', 'process.stdout.write']) {
      expect(server.stderr()).toContain(`with ${how}`);
    }
  });

  it('refuses to start with a bad setting: status 1, the fix on stderr, nothing on stdout', async () => {
    // one bad setting shows how the process refuses; the fix each setting gets is checked where it is made
    // (server-settings.test.ts: ROUNDTRIP_MAX_ROUNDS "0" and the other limits; sealed-state.test.ts: the keys)
    const server = start({ ROUNDTRIP_KEY: 'notakey1' });
    expect((await server.exited).code).toBe(1);
    expect(server.stderr()).toMatch(
      /\[greeting-test\] cannot start: ROUNDTRIP_KEY: Key #1: it decodes to 6 bytes; a state key is exactly 32 bytes\./,
    );
    expect(server.stdoutLines).toEqual([]);
  });
});
