// Round reports posted to an inspector page: delivered while it listens, never in the way when it is down.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, createKeyring, type EngineLogEntry, generateKey, type RoundReport } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { createInspectReporter } from '../src/inspect-reporter.ts';
import { resolveInspect } from '../src/node/resolve-inspect.ts';
import { masked } from '../src/node/stately-inspector.ts';
import { greetTool } from './fixtures/greeting-definitions.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A stand-in inspector page: keeps every body posted to /api/rounds. */
async function inspectorPage(port = 0): Promise<{ address: string; received: Array<{ server: string; report: RoundReport }> }> {
  const received: Array<{ server: string; report: RoundReport }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/api/rounds') received.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { address: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function engineReportingTo(address: string) {
  const logs: Array<Omit<EngineLogEntry, 'target'>> = [];
  const reporter = createInspectReporter(address, 'greeting-test', (entry) => logs.push(entry));
  const engine = createEngine({
    tools: [greetTool],
    keyring: createKeyring([generateKey()]),
    audience: 'greeting-test',
    inspect: reporter.report,
  });
  const call = (extra: object = {}) =>
    engine.callTool({ name: 'greet', arguments: { greeting: 'Hello' }, principal: 'ada', capabilities: { elicitation: {} }, ...extra });
  return { reporter, logs, call };
}

describe('the inspect reporter', () => {
  it('posts every round, answers masked, to the page at ROUNDTRIP_INSPECT', async () => {
    const page = await inspectorPage();
    const { reporter, call } = engineReportingTo(page.address);
    const first = await call();
    if (first.type !== 'input_required') throw new Error(JSON.stringify(first));
    await call({ requestState: first.requestState, inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } } });
    await reporter.flushed();
    expect(page.received.map((r) => [r.server, r.report.round, r.report.outcome, r.report.answers])).toEqual([
      ['greeting-test', 1, 'input_required', {}],
      ['greeting-test', 2, 'complete', { who: { action: 'accept', fields: ['name'] } }],
    ]);
    expect(JSON.stringify(page.received)).not.toContain('Ada');
  });

  it('never holds a round when the page is down: one warning per outage, and it picks up again', async () => {
    const page = await inspectorPage();
    const { address } = page;
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const { reporter, logs, call } = engineReportingTo(address);
    expect((await call()).type).toBe('input_required');
    await reporter.flushed();
    expect((await call()).type).toBe('input_required');
    await reporter.flushed();
    expect(logs.filter((e) => e.level === 'warn')).toEqual([
      expect.objectContaining({
        event: 'inspector',
        message: expect.stringMatching(
          /^inspector at http:\/\/127\.0\.0\.1:\d+ not reachable \(.*\); round reports are dropped until it is$/,
        ),
      }),
    ]);
  });

  it('reads ROUNDTRIP_INSPECT (an address, or stately) and ROUNDTRIP_INSPECT_ANSWERS, refusing anything else', () => {
    expect(resolveInspect({})).toEqual({ address: undefined, stately: false, answers: 'masked' });
    expect(resolveInspect({ ROUNDTRIP_INSPECT: 'http://127.0.0.1:4343/', ROUNDTRIP_INSPECT_ANSWERS: 'shown' })).toEqual({
      address: 'http://127.0.0.1:4343',
      stately: false,
      answers: 'shown',
    });
    expect(resolveInspect({ ROUNDTRIP_INSPECT: 'stately' })).toEqual({ address: undefined, stately: true, answers: 'masked' });
    expect(() => resolveInspect({ ROUNDTRIP_INSPECT: 'ws://x' })).toThrow(
      "ROUNDTRIP_INSPECT is 'ws://x'; set it to the address of an inspector page, such as http://127.0.0.1:4343, or to stately.",
    );
    expect(() => resolveInspect({ ROUNDTRIP_INSPECT_ANSWERS: 'all' })).toThrow("ROUNDTRIP_INSPECT_ANSWERS is 'all'; set it to masked");
  });

  it("masks what goes to Stately's inspector: every value, keeping the shape", () => {
    expect(masked({ name: 'Ada', age: 36, tags: ['x', 'y'], note: null, nested: { ok: true } })).toEqual({
      name: '•••',
      age: '•••',
      tags: ['•••', '•••'],
      note: null,
      nested: { ok: '•••' },
    });
  });
});
