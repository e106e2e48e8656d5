// `roundtrip chat` in-process: one session over a real server child process (the bundled command's
// `serve` of the bundled fixture module, see bundled-cli.ts; call-command.test.ts runs the module form),
// driven by a scripted stdin through the menu, a tool, a prompt and a resource template.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { runCommand } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const key = randomBytes(32).toString('base64url');
let bundled: BundledCli;
beforeAll(async () => {
  bundled = await bundleCli();
});
afterAll(() => bundled.remove());

const run = (args: string[], lines: string[] = []) => runCommand(args, { cwd: here, lines });

describe('roundtrip chat', { timeout: 120_000 }, () => {
  it('lists the offerings, runs what is picked by number or name, goes back to the menu after a cancel, and quits on q', async () => {
    const { code, out, err } = await run(
      ['chat', '--era', '2025-06-18', '--', ...bundled.serve('trip-definitions', { ROUNDTRIP_KEY: key, ROUNDTRIP_LEDGER: ':memory:' })],
      [
        'nonsense',
        '9',
        'plan_trip',
        ':cancel',
        '2',
        'Mum',
        '1',
        'template:weather',
        'Oslo',
        '2026-01-01',
        '1',
        'Ada',
        'Rome',
        '',
        '',
        ':cancel',
        'q',
      ],
    );
    expect(err).toContain('Connected to trips 1.2.3 (protocol 2025-06-18)');
    expect(err).toContain('Tools\n  1  plan_trip — Plan a trip\n     Plans a trip after asking where and how, then whether to book it\n');
    expect(err).toContain('Prompts\n  2  postcard\n');
    expect(err).toContain('Resource templates\n  3  weather  trip://{city}/weather\n');
    expect(err).toContain("nothing is named 'nonsense'");
    expect(err).toContain('there is no number 9: pick 1–3.');
    expect(err).toContain('Which tone for Mum?');
    expect(out).toBe(
      [
        'Drafts a postcard after asking its tone',
        '[user] Write a warm postcard to Mum.',
        '[trip://Oslo/weather text/plain]',
        'Sunny in Oslo on 2026-01-01.',
        'Error (the tool reported isError):',
        "Nothing planned: the question 'book' was cancelled.",
        'structuredContent:',
        '{\n  "city": "",\n  "nights": 0,\n  "booked": false\n}',
        '',
      ].join('\n'),
    );
    expect(code).toBe(0);
  });

  it('says what is wrong with the command line (exit 2), and prints its help', async () => {
    expect(await run(['chat'])).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        'roundtrip chat: give one module of definitions, -- and a server command, or --url and the address of a server.',
      ),
    });
    expect(await run(['chat', 'a.ts', '--', 'node', 's.js'])).toMatchObject({
      code: 2,
      err: expect.stringContaining("with a server command after --, give no module (got 'a.ts')."),
    });
    expect(await run(['chat', 'a.ts', '--'])).toMatchObject({ code: 2, err: expect.stringContaining('give the server command after --') });
    expect(await run(['chat', 'a.ts', '--args', '{}'])).toMatchObject({ code: 2, err: expect.stringContaining("unknown option '--args'") });
    const help = await run(['chat', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: roundtrip chat <module> [options]');
    expect(help.out).toContain('Exit codes (the same for every command):\n  0    done (chat: you quit;');
  });
});
