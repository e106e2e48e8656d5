// Ctrl-C at a server's question, typed in a terminal (in-process: TTY streams, a raw key press): it
// cancels the question and interrupts the command as Ctrl-C does everywhere else: `call` prints no
// result and exits 130; `chat` goes back to its menu. On 2025-11-25 the question is a request the server
// holds open: that server is a real process over stdio, a few lines of JSON-RPC run with `node -e` that
// ask where to go and never answer the call (host-answer-timeout.test.ts holds 2025-11-25
// conversations with the command's own `serve`). On 2026-07-28 the question is a result and
// nothing is in flight when Ctrl-C comes: the trips definitions are served over HTTP in this process
// (http-mcp-server.ts), without a process start.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpMcpServer, startHttpMcpServer } from './fixtures/http-mcp-server.ts';
import { runInTerminal } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
let served: HttpMcpServer;
beforeAll(async () => {
  served = await startHttpMcpServer();
});
afterAll(() => served.close());
// the cases run concurrently (each its own streams and server process, which they mostly wait on), all without colours
beforeAll(() => void vi.stubEnv('NO_COLOR', '1'));
afterAll(() => void vi.unstubAllEnvs());
/** A 2025-11-25 stdio server whose tool plan_trip asks for a city with an elicitation request, and never answers the call. */
const asking = [
  "const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');",
  "const traveller = { type: 'string' };",
  "const city = { type: 'string', title: 'City' };",
  "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
  '  const m = JSON.parse(line);',
  "  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'asking', version: '1' } } });",
  "  else if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'plan_trip', inputSchema: { type: 'object', properties: { traveller } } }] } });",
  "  else if (m.method === 'tools/call') send({ id: 'where', method: 'elicitation/create', params: { message: 'Where?', requestedSchema: { type: 'object', properties: { city }, required: ['city'] } } });",
  '});',
].join('\n');
/** A server of its own over stdio that holds its question open on 2025-11-25, or the trips definitions in this process over HTTP on 2026-07-28. */
const server = (era: '2026-07-28' | '2025-11-25') =>
  era === '2025-11-25' ? ['--era', era, '--', process.execPath, '-e', asking] : ['--era', era, '--url', served.url];
const CTRL_C = '\u0003';

describe('Ctrl-C at a question', { timeout: 60_000, concurrent: true }, () => {
  it.each(['2026-07-28', '2025-11-25'] as const)('call (%s): interrupted, no result printed, exit 130', async (era) => {
    const { code, out, err } = await runInTerminal(['call', 'plan_trip', '--args', '{"traveller":"Bo"}', ...server(era)], {
      cwd: here,
      steps: [{ after: 'City *', keys: CTRL_C }],
    });
    expect(err).toContain('roundtrip call: interrupted.');
    expect(out).toBe('');
    expect(code).toBe(130);
  });

  it('chat: the run is interrupted, no result printed, and the menu asks again', async () => {
    const { code, out, err } = await runInTerminal(['chat', ...server('2026-07-28')], {
      cwd: here,
      steps: [
        { after: 'roundtrip>', keys: 'plan_trip\r' },
        { after: 'traveller *', keys: 'Ada\r' },
        { after: 'City *', keys: CTRL_C },
        { after: 'Interrupted; back at the menu.', keys: '' },
        { after: 'roundtrip>', keys: 'q\r' },
      ],
    });
    expect(err).toContain('roundtrip chat: interrupted.');
    expect(out).toBe('');
    expect(code).toBe(0);
  });
});
