// `roundtrip call` and `roundtrip chat` in a real pseudo-terminal (tmux): a person types the answers,
// presses Enter for defaults, Ctrl-C to cancel (a key in the terminal's raw mode: no signal reaches the
// command; at a field in chat, which goes back to its menu, and while a call's server works, which ends
// the call with 130: interrupt-at-question.test.ts has both at a field in-process) and Ctrl-D to quit.
// The command is the bundled one (see bundled-cli.ts), started in a fraction of the time the workspace
// bin takes; call-command.test.ts runs `call <module>` (in-process, its server the bundled command) and a
// whole call typed in-process on TTY streams; serve-command.test.ts the real bin. `chat` on 2026-07-28
// asks the trip definitions served over HTTP in this process (--url, http-mcp-server.ts): what the
// terminal shows does not depend on the transport, and no second process starts (the 2025 eras'
// conversations with the command's own `serve` over stdio are chat-command.test.ts's and
// host-answer-timeout.test.ts's); the cancelled call starts a server over stdio that never answers.
import { existsSync, mkdtempSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { type HttpMcpServer, startHttpMcpServer } from './fixtures/http-mcp-server.ts';
import { hasTmux, openTmuxPane, type TmuxPane } from './fixtures/tmux-pane.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
// CI (.ci/run installs tmux) always runs these; elsewhere they run when tmux is there, and say so when not
const required = process.env.CI === 'true';
if (!hasTmux && !required) process.stderr.write("skipping the terminal host's tmux tests: no tmux on PATH (apt-get install -y tmux)\n");
let bundled: BundledCli;
let served: HttpMcpServer | undefined;
beforeAll(async () => {
  if (!hasTmux && required)
    throw new Error("These tests drive the terminal host in tmux, which is missing: install it with 'apt-get install -y tmux'.");
  if (hasTmux) [bundled, served] = await Promise.all([bundleCli(), startHttpMcpServer()]);
});
afterAll(async () => {
  bundled?.remove();
  await served?.close();
});
// the cases run concurrently (each its own tmux server and command; they mostly wait for the pane to show text):
// the panes are closed once they all have run
const panes: TmuxPane[] = [];
afterAll(() => {
  for (const pane of panes.splice(0)) pane.close();
});

/** Resolves once the file at `path` (in a folder that exists) holds `text`: checked whenever something in its folder changes. */
function fileShows(path: string, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!existsSync(path) || !readFileSync(path, 'utf8').includes(text)) return;
      watcher.close();
      resolve();
    };
    const watcher = watch(dirname(path), check);
    // once the watch is on, so that a write before it is not missed
    check();
  });
}

/** `roundtrip <args…>` in a new pane. */
function open(...args: string[]) {
  const pane = openTmuxPane([...bundled.launcher, ...args], { cwd: here, env: {} });
  panes.push(pane);
  return pane;
}
/** The trip definitions served over HTTP in this process. */
const overHttp = () => ['--url', served!.url];

describe.skipIf(!hasTmux && !required)('the terminal host in a pseudo-terminal', { timeout: 120_000, concurrent: true }, () => {
  it('call: Ctrl-C while the server works cancels the request, says so and exits 130', async () => {
    // a 2025-11-25 server that lists one tool and never answers a call (it logs the cancellation)
    const silent = [
      "const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');",
      "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
      '  const m = JSON.parse(line);',
      "  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'silent', version: '1' } } });",
      "  else if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'wait', inputSchema: { type: 'object' } }] } });",
      "  else if (m.method === 'tools/call') console.error('working');",
      "  else if (m.method === 'notifications/cancelled') console.error('cancelled by the host');",
      '});',
    ].join('\n');
    const log = join(mkdtempSync(join(tmpdir(), 'roundtrip-call-')), 'server.log');
    const pane = openTmuxPane(
      [...bundled.launcher, 'call', 'wait', '--era', '2025-11-25', '--server-log', log, '--', process.execPath, '-e', silent],
      { cwd: here, env: {} },
    );
    panes.push(pane);
    // the request is in flight once the server has logged it (bounded by the test's timeout)
    await fileShows(log, 'working');
    pane.keys('C-c');
    const shown = await pane.waitFor(/roundtrip call: (interrupted\.|[^\n]*did not answer)/);
    expect(shown).toContain('roundtrip call: interrupted.');
    expect(shown).not.toContain('did not answer in time');
    expect(await pane.exitStatus()).toBe(130);
    expect(readFileSync(log, 'utf8')).toContain('cancelled by the host');
    rmSync(dirname(log), { recursive: true, force: true });
  });

  it('chat: lists what the server offers, runs a prompt, goes back to the menu on Ctrl-C at a field, runs a resource template, and quits on Ctrl-D', async () => {
    const pane = open('chat', ...overHttp());
    const menu = await pane.waitFor('roundtrip>');
    expect(menu).toContain('Connected to trips 1.2.3 (protocol 2026-07-28)');
    expect(menu).toContain('1  plan_trip — Plan a trip');
    expect(menu).toContain('3  weather  trip://{city}/weather');
    pane.line('postcard');
    await pane.waitFor('to *');
    pane.line('Mum');
    await pane.waitFor('Which tone for Mum?');
    pane.line('funny');
    await pane.waitFor('[user] Write a funny postcard to Mum.');
    pane.line('plan_trip');
    await pane.waitFor('traveller *');
    pane.line('Ada');
    await pane.waitFor('City *');
    pane.keys('C-c');
    const interrupted = await pane.waitFor('Interrupted; back at the menu.');
    expect(interrupted).toContain('roundtrip chat: interrupted.');
    expect(interrupted).not.toContain('Nothing planned');
    pane.line('3');
    await pane.waitFor('city *');
    pane.line('Oslo');
    await pane.waitFor('Day *');
    pane.line('2026-13-01');
    await pane.waitFor('✗ that is not a date (YYYY-MM-DD).');
    pane.line('2026-12-01');
    const read = await pane.waitFor('Sunny in Oslo on 2026-12-01.');
    pane.keys('C-d');
    expect(await pane.exitStatus()).toBe(0);
    expect(read).toContain('[trip://Oslo/weather text/plain]');
  });
});
