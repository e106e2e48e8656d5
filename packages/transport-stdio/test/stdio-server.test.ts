import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '@roundtrip/engine';
import { modernMeta, type RawServer, spawnRawServer } from './fixtures/spawn-raw-server.ts';

const script = join(import.meta.dirname, 'fixtures', 'greeting-server.ts');
const running: RawServer[] = [];
const start = (env: Record<string, string>) => {
  const server = spawnRawServer(script, env);
  running.push(server);
  return server;
};
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill('SIGKILL');
});

const call = (id: number, params: Record<string, unknown>, capabilities?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { _meta: modernMeta(capabilities), name: 'greet', arguments: { greeting: 'Hello' }, ...params },
});
const byId = (id: number) => (m: Record<string, unknown>) => m.id === id;
type Result = { resultType?: string; requestState?: string; content?: Array<{ text: string }>; isError?: boolean };

describe('the stdio server', () => {
  it('writes nothing but JSON-RPC messages to stdout, and logs to stderr', async () => {
    const server = start({ ROUNDTRIP_KEY: generateKey() });
    server.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } });
    server.send(call(2, {}));
    const first = (await server.next(byId(2))).result as Result;
    server.send(call(3, { requestState: `${first.requestState}A`, inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } } }));
    await server.next(byId(3));
    server.send(call(4, { requestState: first.requestState, inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } } }));
    expect(((await server.next(byId(4))).result as Result).content?.[0]?.text).toBe('Hello, Ada!');
    server.child.stdin.end();
    await server.exited;
    expect(server.stdoutLines.length).toBeGreaterThanOrEqual(4);
    for (const line of server.stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(server.stderr()).toMatch(/info started: greeting-test 0\.0\.1 serving 1 tool over stdio/);
    expect(server.stderr()).toMatch(/warn state_rejected \(greet\): requestState refused \(invalid\)/);
  });

  it('exits with status 0 when stdin closes', async () => {
    const server = start({ ROUNDTRIP_KEY: generateKey() });
    server.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } });
    await server.next(byId(1));
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('exits with status 0 on SIGTERM', async () => {
    const server = start({ ROUNDTRIP_KEY: generateKey() });
    server.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } });
    await server.next(byId(1));
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('refuses to start with a bad setting: status 1, the fix on stderr, nothing on stdout', async () => {
    const server = start({ ROUNDTRIP_KEY: 'notakey1' });
    expect((await server.exited).code).toBe(1);
    expect(server.stderr()).toMatch(/\[greeting-test\] cannot start: ROUNDTRIP_KEY: Key #1 decodes to 6 bytes/);
    expect(server.stdoutLines).toEqual([]);
  });

  it('keeps conversations in flight across a restart that reuses the generated key file', async () => {
    const config = mkdtempSync(join(tmpdir(), 'rt-restart-'));
    const env = { XDG_CONFIG_HOME: config, HOME: config };
    const before = start(env);
    before.send(call(1, {}));
    const first = (await before.next(byId(1))).result as Result;
    expect(first.resultType).toBe('input_required');
    before.child.kill('SIGTERM');
    await before.exited;

    const after = start(env);
    after.send(call(2, { requestState: first.requestState, inputResponses: { who: { action: 'accept', content: { name: 'Grace' } } } }));
    expect(((await after.next(byId(2))).result as Result).content?.[0]?.text).toBe('Hello, Grace!');
  });

  it('reports invoked work as progress when the request carries a progressToken', async () => {
    const server = start({ ROUNDTRIP_KEY: generateKey() });
    server.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { ...modernMeta(), progressToken: 'p-1' }, name: 'greet', arguments: { greeting: 'Hello' } } });
    const progress = await server.next((m) => m.method === 'notifications/progress');
    expect(progress.params).toEqual({ progressToken: 'p-1', progress: 1, message: "greet: running 'warm-up'" });
    expect(((await server.next(byId(1))).result as Result).resultType).toBe('input_required');
    server.send(call(2, {}));
    await server.next(byId(2));
    expect(server.stdoutLines.filter((l) => l.includes('notifications/progress'))).toHaveLength(1);
  });

  it('answers an undeclared elicitation capability with -32021 and what is required', async () => {
    const server = start({ ROUNDTRIP_KEY: generateKey() });
    server.send(call(1, {}, {}));
    const reply = await server.next(byId(1));
    expect(reply.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    expect((reply.error as { message: string }).message).toMatch(/needs to ask the user \('who'\)/);
  });

  it('serves a 2025-06-18 host through real elicitation/create requests', async () => {
    const server = start({ ROUNDTRIP_KEY: generateKey() });
    server.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'old-host', version: '1' } } });
    await server.next(byId(1));
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { greeting: 'Hi' } } });
    const ask = await server.next((m) => m.method === 'elicitation/create');
    expect((ask.params as { message: string }).message).toBe('Whom should I say "Hi" to?');
    server.send({ jsonrpc: '2.0', id: ask.id as number, result: { action: 'accept', content: { name: 'Linus' } } });
    expect(((await server.next(byId(2))).result as Result).content?.[0]?.text).toBe('Hi, Linus!');
  });

  it('tells a 2025-era host without elicitation what is missing, as a tool error', async () => {
    const server = start({ ROUNDTRIP_KEY: generateKey() });
    server.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old-host', version: '1' } } });
    await server.next(byId(1));
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { greeting: 'Hi' } } });
    const result = (await server.next(byId(2))).result as Result;
    expect(result.isError).toBe(true);
    expect(result.content?.[0]?.text).toMatch(/did not declare the elicitation capability/);
  });
});
