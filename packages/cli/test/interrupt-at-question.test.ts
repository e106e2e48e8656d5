// Ctrl-C at a server's question, typed in a terminal (in-process: TTY streams, a raw key press): it
// cancels the question and interrupts the command as Ctrl-C does everywhere else: `call` prints no
// result and exits 130; `chat` goes back to its menu. On 2025-11-25 the question is a request the server
// holds open: that server is a real process, the bundled `serve` of the trips module over stdio. On
// 2026-07-28 the question is a result and nothing is in flight when Ctrl-C comes: the trips definitions
// are served over HTTP in this process (http-mcp-server.ts), without a process start.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { type HttpMcpServer, startHttpMcpServer } from './fixtures/http-mcp-server.ts';
import { runInTerminal } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const key = randomBytes(32).toString('base64url');
let bundled: BundledCli;
let served: HttpMcpServer;
beforeAll(async () => {
  [bundled, served] = await Promise.all([bundleCli(), startHttpMcpServer()]);
});
afterAll(async () => {
  bundled.remove();
  await served.close();
});
// the cases run concurrently (each its own streams and server process, which they mostly wait on), all without colours
beforeAll(() => void vi.stubEnv('NO_COLOR', '1'));
afterAll(() => void vi.unstubAllEnvs());
/** The trips module served by a process of its own over stdio on 2025-11-25, or in this process over HTTP on 2026-07-28. */
const server = (era: '2026-07-28' | '2025-11-25') =>
  era === '2025-11-25'
    ? ['--era', era, '--', ...bundled.serve('trip-definitions', { ROUNDTRIP_KEY: key, ROUNDTRIP_LEDGER: ':memory:' })]
    : ['--era', era, '--url', served.url];
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
