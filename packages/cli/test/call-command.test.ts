// `roundtrip call` in-process: the answers come from a scripted stdin. The server is a real child process
// where the path a user takes goes through one: the CLI's own `serve` of the fixture module, spawned from
// the module given to call with serve's options passed on, twice, both bundled (call's launcher is the
// bundled command, the module its bundled file, named from the bundle's folder; see bundled-cli.ts), a
// server whose error result comes with a log, and servers that stop or cannot start (a few lines of
// JavaScript run with `node -e`). The 2025 eras' conversations with the command's own `serve` over stdio
// are host-answer-timeout.test.ts's (2025-11-25) and chat-command.test.ts's (2025-06-18). What call checks
// against the server's list (a name not offered, a misspelt argument), a declined question and the whole
// conversation typed in a terminal (TTY streams, keys at each prompt: what call-terminal.test.ts's pane
// shows of the same host) are the same on every transport: they ask the trip definitions served over HTTP
// in this process (http-mcp-server.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { type HttpMcpServer, startHttpMcpServer } from './fixtures/http-mcp-server.ts';
import { runCommand, runInTerminal } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
let bundled: BundledCli;
let served: HttpMcpServer;
let home: string;
beforeAll(async () => {
  [bundled, served] = await Promise.all([bundleCli(), startHttpMcpServer()]);
  home = mkdtempSync(join(tmpdir(), 'roundtrip-call-'));
});
// plain text in the terminal case (the others' streams are no terminal)
beforeAll(() => void vi.stubEnv('NO_COLOR', '1'));
afterAll(async () => {
  vi.unstubAllEnvs();
  bundled.remove();
  await served.close();
  rmSync(home, { recursive: true, force: true });
});
/** A 2025-11-25 stdio server whose one tool logs a line on stderr, then reports an error result. */
const failing = [
  "const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');",
  "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
  '  const m = JSON.parse(line);',
  "  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stock', version: '1' } } });",
  "  else if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'reserve', inputSchema: { type: 'object' } }] } });",
  "  else if (m.method === 'tools/call') {",
  "    console.error('reserve: the last one went at 10:02');",
  "    send({ id: m.id, result: { content: [{ type: 'text', text: 'Out of stock: see the server log.' }], isError: true } });",
  '  }',
  '});',
].join('\n');
/** The same definitions served over HTTP in this process. */
const inProcess = () => ['--url', served.url];

const run = (args: string[], lines: string[] = []) => runCommand(args, { cwd: here, lines });
/** `run` from the bundle's folder, call starting a module's server with the bundled command: `trip-definitions.mjs` is the bundled module. */
const runModule = (args: string[], lines: string[] = []) => runCommand(args, { cwd: bundled.folder, lines, launcher: bundled.script });

// concurrent: the cases share nothing but the bundle, the key and the HTTP server (each its own key file, streams and
// child process), and most of their time is spent waiting on a child process
describe('roundtrip call', { timeout: 120_000, concurrent: true }, () => {
  it('runs the tool of a module through both questions on 2026-07-28, re-asked with the reason, and prints text and structured content', async () => {
    // the module form: call spawns its launcher's `serve` of the module, passing on serve's options
    const keyFile = join(home, 'trips.key');
    expect((await run(['keys', 'new', keyFile])).code).toBe(0);
    const { code, out, err } = await runModule(
      ['call', 'trip-definitions.mjs', 'plan_trip', '--args', '{"traveller":"Ada"}', '--key-file', keyFile, '--ledger=:memory:'],
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

  it('in a terminal: asks the arguments, both questions, re-asks with the reason, takes Enter for a default, and prints the result', async () => {
    const { code, out, err } = await runInTerminal(['call', 'plan_trip', ...inProcess()], {
      cwd: here,
      steps: [
        { after: 'traveller *', keys: 'Ada\r' },
        { after: 'City *', keys: 'Atlantis\r' },
        { after: 'Nights (whole number, 1–14) [3]', keys: '\r' },
        { after: '2) Plane', keys: '\r' },
        { after: 'Your last answer was not accepted: Atlantis is not on the map.', keys: '' },
        { after: 'City *', keys: 'Rome\r' },
        { after: 'Nights', keys: '4\r' },
        { after: 'Travel by', keys: '2\r' },
        { after: 'Book 4 nights in Rome?', keys: 'maybe\r' },
        { after: '✗ answer yes or no (y/n). Try again.', keys: 'y\r' },
      ],
    });
    expect(err).toContain('Arguments of tool plan_trip');
    expect(err).toContain('Where should Ada go?');
    expect(out).toBe(
      'Booked: 4 nights in Rome for Ada, by plane.\nstructuredContent:\n{\n  "city": "Rome",\n  "nights": 4,\n  "booked": true\n}\n',
    );
    expect(code).toBe(0);
  });

  it('exits 1 on an error result: a declined question, and a result that comes with what the server logged meanwhile', async () => {
    const declined = await run(['call', 'plan_trip', '--args', '{"traveller":"Bo"}', ...inProcess()], [':decline']);
    expect(declined.out).toContain("Error (the tool reported isError):\nNothing planned: the question 'where' was declined.");
    expect(declined.code).toBe(1);
    const { code, out, err } = await run(['call', 'reserve', '--era', '2025-11-25', '--', process.execPath, '-e', failing]);
    expect(out).toBe('Error (the tool reported isError):\nOut of stock: see the server log.\n');
    expect(err).toContain('server log:\n  │ reserve: the last one went at 10:02\n');
    expect(code).toBe(1);
  });

  it('exits 2 naming what the server offers when the name is not offered', async () => {
    const { code, err } = await run(['call', 'plan', ...inProcess()]);
    expect(err).toContain(
      "roundtrip call: the server offers no tool, prompt or resource named 'plan'. It offers:\n  tool plan_trip\n  prompt postcard\n  resource template weather (trip://{city}/weather)\n",
    );
    expect(code).toBe(2);
    const misspelt = await run(['call', 'plan_trp', ...inProcess()]);
    expect(misspelt.err).toContain(
      "roundtrip call: the server offers no tool, prompt or resource named 'plan_trp'. Did you mean 'plan_trip'?",
    );
    expect(misspelt.code).toBe(2);
  });

  it('exits 2 naming a misspelt argument with the one meant, before sending anything', async () => {
    const tool = await run(['call', 'plan_trip', '--args', '{"traveler":"Ada"}', ...inProcess()]);
    expect(tool.err).toBe(
      "roundtrip call: --args names 'traveler' (did you mean 'traveller'?), which tool plan_trip does not take: it takes 'traveller'. Correct the name in --args.\n",
    );
    expect(tool.out).toBe('');
    expect(tool.code).toBe(2);
    const prompt = await run(['call', 'postcard', '--args', '{"to":"Mum","tone":"warm"}', ...inProcess()]);
    expect(prompt.err).toBe(
      "roundtrip call: --args names 'tone', which prompt postcard does not take: it takes 'to'. Correct the name in --args.\n",
    );
    expect(prompt.code).toBe(2);
  });

  it("passes serve's options on only to a module it serves, checks their values first, and points a missing key file to `keys new`", async () => {
    const missing = join(home, 'missing.key');
    const stopped = await runModule(['call', 'trip-definitions.mjs', 'plan_trip', '--key-file', missing]);
    expect(stopped.err).toContain("roundtrip call: the server 'trip-definitions.mjs' stopped before it answered.");
    expect(stopped.err).toContain(`Create it with \`roundtrip keys new ${missing}\`, or check the path in --key-file.`);
    expect(stopped.code).toBe(3);
    const cases: [string[], string][] = [
      [
        ['call', 'm.ts', 'x', '--ttl', 'soon'],
        'roundtrip call: --ttl is "soon"; give the state lifetime in whole seconds from 1 to 604800 (default 600).\n',
      ],
      [['chat', 'm.ts', '--max-rounds=0'], 'roundtrip chat: --max-rounds is "0"; give the number of rounds one request may take'],
      [['call', 'x', '--ledger', 'l.db', '--', 'node', 's.js'], 'roundtrip call: --ledger is an option of `roundtrip serve`'],
      [['chat', '--principal', 'ada', '--', 'node', 's.js'], 'roundtrip chat: --principal is an option of `roundtrip serve`'],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await run(args);
      expect(err.startsWith(message), err).toBe(true);
      expect(code).toBe(2);
    }
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
      [['call', 'm.ts', 'x', '--bogus'], "roundtrip call: unknown option '--bogus'.\n"],
      [['call', 'm.ts', 'x', '--key-fle', 'k'], "roundtrip call: unknown option '--key-fle'. Did you mean '--key-file'?\n"],
      [['call', 'm.ts', 'x', '--arg={}'], "roundtrip call: unknown option '--arg'. Did you mean '--args'?\n"],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await run(args);
      expect(err).toContain(message);
      // the problem, then where the usage is: not 30 lines of it
      expect(err.split('\n').at(-2)).toBe('Run `roundtrip call --help` for its usage.');
      expect(code).toBe(2);
    }
    const help = await run(['call', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: roundtrip call <module> <name> [--args <json>] [options]');
    expect(help.out).toContain('Exit codes (the same for every command):\n  0    done');
    expect(help.out).toContain('130  interrupted (Ctrl-C)');
  });
});
