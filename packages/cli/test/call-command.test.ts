// `roundtrip call` in-process: the answers come from a scripted stdin, the server is a real child
// process on every protocol era: the CLI's own `serve` of the TypeScript fixture module, spawned from
// the module given to call (the path a user takes), once; the bundled command and module given after
// `--` (see bundled-cli.ts) for the rest.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { runCommand } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const key = randomBytes(32).toString('base64url');
let bundled: BundledCli;
beforeAll(async () => {
  bundled = await bundleCli('trip-definitions');
});
afterAll(() => bundled.remove());
afterEach(() => void vi.unstubAllEnvs());
/** The bundled fixture module served by the bundled `roundtrip serve`, with a key and no ledger file. */
const server = () => ['--', ...bundled.serve('trip-definitions', { ROUNDTRIP_KEY: key, ROUNDTRIP_LEDGER: ':memory:' })];

const run = (args: string[], lines: string[] = []) => runCommand(args, { cwd: here, lines });

describe('roundtrip call', { timeout: 120_000 }, () => {
  it('runs the tool of a module through both questions on 2026-07-28, re-asked with the reason, and prints text and structured content', async () => {
    // the module form: call spawns the workspace bin's `serve` of the module, with this process's environment
    vi.stubEnv('ROUNDTRIP_KEY', key);
    vi.stubEnv('ROUNDTRIP_LEDGER', ':memory:');
    const { code, out, err } = await run(
      ['call', 'fixtures/trip-definitions.ts', 'plan_trip', '--args', '{"traveller":"Ada"}'],
      ['Atlantis', '', '', 'Rome', '', '2', 'y'],
    );
    expect(err).toContain('Where should Ada go?');
    expect(err).toContain('Your last answer was not accepted: Atlantis is not on the map. Please answer again.');
    expect(err).toContain('Book 3 nights in Rome?');
    expect(out).toBe(
      'Booked: 3 nights in Rome for Ada, by plane.\nstructuredContent:\n{\n  "city": "Rome",\n  "nights": 3,\n  "booked": true\n}\n',
    );
    expect(code).toBe(0);
  });

  it.each(['2025-11-25', '2025-06-18'])('completes on %s, where the server sends real elicitation requests', async (era) => {
    const { code, out } = await run(
      ['call', 'plan_trip', '--era', era, '--args', '{"traveller":"Bo"}', ...server()],
      ['Rome', '5', '', 'n'],
    );
    expect(out).toContain('Not booked: 5 nights in Rome for Bo, by train.');
    expect(code).toBe(0);
  });

  it('exits 1 on an error result (a declined question), showing what the server logged meanwhile', async () => {
    const { code, out, err } = await run(
      ['call', 'plan_trip', '--era', '2025-11-25', '--args', '{"traveller":"Bo"}', ...server()],
      [':decline'],
    );
    expect(out).toContain("Error (the tool reported isError):\nNothing planned: the question 'where' was declined.");
    expect(err).toContain('server log:');
    expect(code).toBe(1);
  });

  it('exits 2 naming what the server offers when the name is not offered', async () => {
    const { code, err } = await run(['call', 'plan', '--era', '2025-11-25', ...server()]);
    expect(err).toContain(
      "roundtrip call: the server offers no tool, prompt or resource named 'plan'. It offers:\n  tool plan_trip\n  prompt postcard\n  resource template weather (trip://{city}/weather)\n",
    );
    expect(code).toBe(2);
  });

  it('exits 3 with the server log when the server stops before it answers, or cannot be started', async () => {
    for (const era of ['2026-07-28', '2025-11-25']) {
      const stops = await run(['call', 'x', '--era', era, '--', process.execPath, '-e', 'console.error("no key here"); process.exit(1)']);
      expect(stops.err).toContain(
        `roundtrip call: the server '${process.execPath} -e console.error("no key here"); process.exit(1)' stopped before it answered.`,
      );
      expect(stops.err).toContain('  server log:\n  │ no key here\n');
      expect(stops.code).toBe(3);
    }
    const missing = await run(['call', 'x', '--', 'no-such-program-for-roundtrip']);
    expect(missing.err).toContain("cannot start the server 'no-such-program-for-roundtrip': no such program.");
    expect(missing.code).toBe(3);
  });

  it('says what is wrong with the command line (exit 2), and prints its help', async () => {
    const cases: [string[], string][] = [
      [['call'], 'roundtrip call: give a module of definitions and a tool, prompt or resource name'],
      [
        ['call', 'm.ts', 'x', '--era', '2024-11-05'],
        "roundtrip call: --era takes one of 2026-07-28, 2025-11-25, 2025-06-18, not '2024-11-05'.",
      ],
      [['call', 'm.ts', 'x', '--args', '{nope'], 'roundtrip call: --args is not JSON'],
      [['call', 'm.ts', 'x', '--args', '[1]'], 'roundtrip call: --args must be a JSON object'],
      [['call', 'm.ts', 'x', '--server'], 'roundtrip call: --server needs the server command after --'],
      [
        ['call', 'm.ts', 'x', '--', 'node', 's.js'],
        'roundtrip call: give a tool, prompt or resource name, then -- and the server command.',
      ],
      [['call', 'm.ts', 'x', '--bogus'], "roundtrip call: unknown option '--bogus'."],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await run(args);
      expect(err).toContain(message);
      expect(code).toBe(2);
    }
    const help = await run(['call', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: roundtrip call <module> <name> [--args <json>] [options]');
    expect(help.out).toContain('Exit codes: 0 done;');
  });
});
