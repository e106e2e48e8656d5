// Ctrl-C at a server's question, typed in a terminal (in-process: TTY streams, a raw key press): it
// cancels the question and interrupts the command as Ctrl-C does everywhere else: `call` prints no
// result and exits 130; `chat` goes back to its menu. The server is the bundled `serve` of the trips module.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { runInTerminal } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const key = randomBytes(32).toString('base64url');
let bundled: BundledCli;
beforeAll(async () => {
  bundled = await bundleCli();
});
afterAll(() => bundled.remove());
// the cases run concurrently (each its own streams and server process, which they mostly wait on), all without colours
beforeAll(() => void vi.stubEnv('NO_COLOR', '1'));
afterAll(() => void vi.unstubAllEnvs());
const server = () => ['--', ...bundled.serve('trip-definitions', { ROUNDTRIP_KEY: key, ROUNDTRIP_LEDGER: ':memory:' })];
const CTRL_C = '\u0003';

describe('Ctrl-C at a question', { timeout: 60_000, concurrent: true }, () => {
  it.each(['2026-07-28', '2025-11-25'])('call (%s): interrupted, no result printed, exit 130', async (era) => {
    const { code, out, err } = await runInTerminal(['call', 'plan_trip', '--era', era, '--args', '{"traveller":"Bo"}', ...server()], {
      cwd: here,
      steps: [{ after: 'City *', keys: CTRL_C }],
    });
    expect(err).toContain('roundtrip call: interrupted.');
    expect(out).toBe('');
    expect(code).toBe(130);
  });

  it('chat: the run is interrupted, no result printed, and the menu asks again', async () => {
    const { code, out, err } = await runInTerminal(['chat', ...server()], {
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
