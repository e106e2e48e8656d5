// `roundtrip call` and `chat` wait up to a day for a person at the terminal; on a 2025 era the server they
// start for a module holds each question only ROUNDTRIP_ANSWER_TIMEOUT_MS (50 s by default). So that server
// is given a day too, unless the person set their own (the flag, or the variable in their shell), and a
// server given after `--` is left as it is. The module is the bundled fixture and call and chat's launcher
// the bundled command (see bundled-cli.ts). The module's tool reports what its server process was given;
// so does the server given after `--`, any stdio server: a few lines of JSON-RPC run with `node -e`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { runCommand } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
let home: string;
let keyFile: string;
let bundled: BundledCli;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'roundtrip-answer-timeout-'));
  keyFile = join(home, 'answer-timeout.key');
  expect((await runCommand(['keys', 'new', keyFile], { cwd: here })).code).toBe(0);
  bundled = await bundleCli();
});
afterAll(() => {
  bundled.remove();
  rmSync(home, { recursive: true, force: true });
});
const shellValue = process.env.ROUNDTRIP_ANSWER_TIMEOUT_MS;
afterEach(() => {
  if (shellValue === undefined) delete process.env.ROUNDTRIP_ANSWER_TIMEOUT_MS;
  else process.env.ROUNDTRIP_ANSWER_TIMEOUT_MS = shellValue;
});

/**
 * `roundtrip <command> <module> …` on a 2025-11-25 connection, with a key file and no ledger file, saying yes to the
 * question: the bundled module, named from the bundle's folder, served by the bundled command.
 */
const run = (command: 'call' | 'chat', extra: string[] = []) =>
  runCommand(
    [
      command,
      'answer-timeout-definitions.mjs',
      ...(command === 'call' ? ['answer_timeout'] : []),
      '--era',
      '2025-11-25',
      '--key-file',
      keyFile,
      '--ledger',
      ':memory:',
      ...extra,
    ],
    { cwd: bundled.folder, launcher: bundled.script, lines: command === 'call' ? ['y'] : ['answer_timeout', 'y', 'q'] },
  );

/** A 2025-11-25 stdio server whose one tool says what the answer timeout fixture's says: the variable and the flag it was given. */
const reportingServer = [
  "const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');",
  "const at = process.argv.indexOf('--answer-timeout-ms');",
  "const text = 'variable ' + (process.env.ROUNDTRIP_ANSWER_TIMEOUT_MS ?? 'unset') + ', flag ' + (at === -1 ? 'none' : process.argv[at + 1]);",
  "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
  '  const m = JSON.parse(line);',
  "  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'reporting', version: '1' } } });",
  "  else if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'answer_timeout', inputSchema: { type: 'object' } }] } });",
  "  else if (m.method === 'tools/call') send({ id: m.id, result: { content: [{ type: 'text', text }] } });",
  '});',
].join('\n');

describe('the server call and chat start for a module', { timeout: 120_000 }, () => {
  // call and chat build the module's server command alike (parseHostArgs): call is run with nothing set and
  // with the variable, chat with the flag, so that each of the three cases costs one start of the server
  it('gets a day to wait for each answer (86400000 ms, what the terminal host waits) when the person set none', async () => {
    delete process.env.ROUNDTRIP_ANSWER_TIMEOUT_MS;
    const call = await run('call');
    expect(call.err).toContain('Show the answer timeout?');
    expect(call.out).toBe('variable 86400000, flag none\n');
    expect(call.code).toBe(0);
  });

  it('keeps the answer timeout the person gave: --answer-timeout-ms, or ROUNDTRIP_ANSWER_TIMEOUT_MS in their shell', async () => {
    delete process.env.ROUNDTRIP_ANSWER_TIMEOUT_MS;
    const byFlag = await run('chat', ['--answer-timeout-ms', '70000']);
    expect(byFlag.out).toContain('variable unset, flag 70000\n');
    expect(byFlag.code).toBe(0);
    process.env.ROUNDTRIP_ANSWER_TIMEOUT_MS = '65000';
    const byVariable = await run('call');
    expect(byVariable.out).toBe('variable 65000, flag none\n');
    expect(byVariable.code).toBe(0);
  });

  it('is the only one: a server given after -- gets the environment as it is', async () => {
    delete process.env.ROUNDTRIP_ANSWER_TIMEOUT_MS;
    const given = await runCommand(['call', 'answer_timeout', '--era', '2025-11-25', '--', process.execPath, '-e', reportingServer], {
      cwd: here,
    });
    expect(given.out).toBe('variable unset, flag none\n');
    expect(given.code).toBe(0);
  });
});
