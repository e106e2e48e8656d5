// `roundtrip keys` writers take turns through `<file>.lock`: concurrent commands, some as real processes
// (the command bundled: see bundled-cli.ts) and the rest in this process, keep every key they report; a
// held lock makes a writer fail after its wait with a message naming the lock and its holder; a lock left
// by a process that died is taken over. Those last cases run the command in this process (the holder of a
// held lock is this live process), the lock wait set in this process's environment as a shell would set it.
// The lock is a file taken by link and waited for on timers, the same to a writer in this process as to one
// in another: two processes race each other and eighteen commands here (each process costs about 0.15 s of
// CPU to start; twenty of them were the suite's most expensive test, four were two more than the race needs).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyring } from '@roundtrip/engine';
import { readKeyFile } from '@roundtrip/mcp/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { runCommand } from './fixtures/run-command.ts';

let bundled: BundledCli;
beforeAll(async () => {
  bundled = await bundleCli();
});
afterAll(() => bundled.remove());
const temps: string[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh folder holding a key file with one key, and that key's id. */
async function keyFile() {
  // the real path: a lock sits beside the file a link points to (macOS's tmpdir is a link)
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'roundtrip-keys-lock-')));
  temps.push(dir);
  const file = join(dir, 'server.key');
  const created = await runCommand(['keys', 'new', file], { cwd: dir });
  expect(created.code).toBe(0);
  return { dir, file, first: kidOf(created.out) };
}

/** The kid a command printed first on its stdout line. */
const kidOf = (out: string) => out.split(' ')[0]!;
const kidsIn = (file: string) => readKeyFile(file, 'test').map((key) => createKeyring([key]).sealingKid);

interface ProcessRun {
  code: number | null;
  out: string;
  err: string;
}

/** `roundtrip …args` as its own process (the bundled command), with `env` added to this process's variables. */
function spawnCommand(args: readonly string[], env: Record<string, string> = {}): Promise<ProcessRun> {
  const [command, ...launcher] = bundled.launcher as [string, ...string[]];
  const child = spawn(command, [...launcher, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** `roundtrip …args` in this process, from `dir`, waiting `lockTimeoutMs` (ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS) for another writer. */
function runWithLockWait(args: readonly string[], dir: string, lockTimeoutMs: string) {
  vi.stubEnv('ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS', lockTimeoutMs);
  return runCommand(args, { cwd: dir });
}

let exited: Promise<number> | undefined;
/** The id of a process that ran and has exited, so no process runs with it (one for the file's cases). */
function deadPid(): Promise<number> {
  exited ??= new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.on('exit', () => resolve(child.pid!));
  });
  return exited;
}

/** A lock as `roundtrip keys` writes one: its owner's pid, host, start and a unique id. */
const lockText = (pid: number, host = hostname()) =>
  `${JSON.stringify({ pid, host, started: '2026-12-01T10:00:00.000Z', id: `test${pid}` })}\n`;

describe('roundtrip keys: one writer at a time', () => {
  it('keeps every key that 20 `keys add` writers started at once report, 2 of them processes', async () => {
    const { dir, file, first } = await keyFile();
    // a long wait: 20 writers starting at once on a loaded machine may each hold the lock a while
    const wait = { ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS: '60000' };
    vi.stubEnv('ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS', wait.ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS);
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 10 === 0 ? spawnCommand(['keys', 'add', file], wait) : runCommand(['keys', 'add', file], { cwd: dir }),
      ),
    );
    for (const run of runs) expect(run, run.err).toMatchObject({ code: 0, out: expect.stringContaining(`(added to ${file})`) });
    const reported = runs.map((run) => kidOf(run.out));
    expect(new Set(reported).size).toBe(20);
    const kept = kidsIn(file);
    expect(kept[0]).toBe(first);
    expect(kept.toSorted()).toEqual([first, ...reported].toSorted());
    // the lock went with its last writer, and no temp file stayed
    expect(await readdir(dir)).toEqual(['server.key']);
  });

  it('fails after its wait when a live process holds the lock, naming the lock and its holder, and leaves file and lock alone', async () => {
    const { dir, file } = await keyFile();
    const lock = `${file}.lock`;
    await writeFile(lock, lockText(process.pid));
    const text = await readFile(file, 'utf8');
    const refused = await runWithLockWait(['keys', 'add', file], dir, '100');
    expect(refused).toMatchObject({
      code: 1,
      out: '',
      err:
        `roundtrip keys add: another \`roundtrip keys\` is writing ${file} (pid ${process.pid}, since 2026-12-01T10:00:00.000Z); ` +
        `waited 0.1 s for ${lock}. Wait for it and retry, or remove ${lock} if no such process runs.\n`,
    });
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await readFile(lock, 'utf8')).toBe(lockText(process.pid));
    // readers do not wait for writers
    expect(await runCommand(['keys', 'list', file], { cwd: dir })).toMatchObject({ code: 0 });

    // a process on another host cannot be checked: its lock is never taken for stale
    const pid = await deadPid();
    await writeFile(lock, lockText(pid, 'build-box'));
    const foreign = await runWithLockWait(['keys', 'retire', file, 'AAAAAAAA'], dir, '0');
    expect(foreign).toMatchObject({ code: 1 });
    expect(foreign.err).toBe(
      `roundtrip keys retire: another \`roundtrip keys\` is writing ${file} (pid ${pid} on host build-box, since 2026-12-01T10:00:00.000Z); ` +
        `waited 0 s for ${lock}. Wait for it and retry, or remove ${lock} if no such process runs on build-box.\n`,
    );

    // a lock file that names no owner is not taken over either
    await writeFile(lock, 'held by hand\n');
    const unknown = await runWithLockWait(['keys', 'add', file], dir, '0');
    expect(unknown.err).toBe(
      `roundtrip keys add: another \`roundtrip keys\` is writing ${file} (${lock} does not say which process holds it); ` +
        `waited 0 s for ${lock}. Wait for it and retry, or remove ${lock} if no such process runs.\n`,
    );
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('takes over a lock whose process no longer runs on this host, says so, and removes it when done', async () => {
    const { dir, file, first } = await keyFile();
    const lock = `${file}.lock`;
    const pid = await deadPid();
    await writeFile(lock, lockText(pid));
    const added = await runWithLockWait(['keys', 'add', file], dir, '0');
    expect(added).toMatchObject({ code: 0 });
    expect(added.err).toMatch(
      new RegExp(`^note: ${lock} was left by pid ${pid}, which no longer runs \\(interrupted\\?\\); it was taken over\\.\\nNext: `),
    );
    expect(kidsIn(file)).toEqual([first, kidOf(added.out)]);
    expect(await readdir(dir)).toEqual(['server.key']);
    expect((await runCommand(['keys', 'list', file], { cwd: dir })).code).toBe(0);
  });

  it('refuses a lock wait that is not a whole number of milliseconds', async () => {
    const { dir, file } = await keyFile();
    const refused = await runWithLockWait(['keys', 'add', file], dir, '2s');
    expect(refused).toMatchObject({
      code: 1,
      err:
        "roundtrip keys add: ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS is '2s'; give the time to wait for another writer in whole " +
        'milliseconds (0: do not wait), or unset it to wait 10000 ms.\n',
    });
  });
});
