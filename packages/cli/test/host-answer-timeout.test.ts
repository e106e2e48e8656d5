// `roundtrip call` and `chat` wait up to a day for a person at the terminal; on a 2025 era the server they
// start for a module holds each question only ROUNDTRIP_ANSWER_TIMEOUT_MS (50 s by default). So that server
// is given a day too, unless the person set their own (the flag, or the variable in their shell), and a
// server given after `--` is left as it is. The module is the bundled fixture and call and chat's launcher
// the bundled command, as a server after `--` is (see bundled-cli.ts). The module's tool reports what its
// server process was given.
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
    const server = [...bundled.launcher, 'serve', bundled.module('answer-timeout-definitions'), '--key-file', keyFile];
    const given = await runCommand(['call', 'answer_timeout', '--era', '2025-11-25', '--', ...server, '--ledger', ':memory:'], {
      cwd: here,
      lines: ['y'],
    });
    expect(given.out).toBe('variable unset, flag none\n');
    expect(given.code).toBe(0);
  });
});
