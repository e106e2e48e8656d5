import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from './fixtures/run-command.ts';

// each run lays out every machine of its module with ELK (the most of this file's time): the modules are small,
// and a folder written once is checked, then spoilt and checked again

const here = new URL('.', import.meta.url).pathname;
const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const run = (...args: string[]) => runCommand(args, { cwd: here });

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'roundtrip-visualize-'));
  temps.push(dir);
  return dir;
}

describe('roundtrip visualize', () => {
  it('writes JSON, TypeScript, Mermaid and SVG for every definition a module exports, then finds them up to date, and fails --check on a stale, missing or left-over file, naming each', async () => {
    const dir = await tempDir();
    const wrote = await run('visualize', 'fixtures/good-definitions.ts', '--out', dir);
    expect(wrote).toMatchObject({ code: 0, out: `2 machines: wrote 8 files to ${dir}\n` });
    expect((await readdir(dir)).sort()).toEqual([
      'confirm_it.machine.json',
      'confirm_it.machine.ts',
      'confirm_it.mmd',
      'confirm_it.svg',
      'tone.machine.json',
      'tone.machine.ts',
      'tone.mmd',
      'tone.svg',
    ]);
    const json = JSON.parse(await readFile(join(dir, 'tone.machine.json'), 'utf8')) as { id: string; states: Record<string, unknown> };
    expect(json.id).toBe('tone');
    expect(Object.keys(json.states)).toEqual(['asking', 'done']);
    expect(await run('visualize', 'fixtures/good-definitions.ts', '--out', dir, '--check')).toMatchObject({
      code: 0,
      out: `2 machines: files up to date in ${dir}\n`,
    });

    await writeFile(join(dir, 'tone.mmd'), 'stateDiagram-v2\n');
    await rm(join(dir, 'confirm_it.svg'));
    await writeFile(join(dir, 'gone.machine.json'), '{}\n');
    const checked = await run('visualize', 'fixtures/good-definitions.ts', '--out', dir, '--check');
    expect(checked.code).toBe(1);
    expect(checked.err).toContain(`stale: ${join(dir, 'confirm_it.svg')}\n`);
    expect(checked.err).toContain(`stale: ${join(dir, 'tone.mmd')}\n`);
    expect(checked.err).toContain(`left over: ${join(dir, 'gone.machine.json')} (no definition writes it any more: remove it)\n`);
    expect(checked.err).toContain('run the same command without --check');
  });

  it('draws what the user goes through by default, and every edge with --all-edges (the JSON is the whole machine either way)', async () => {
    const users = await tempDir();
    const all = await tempDir();
    expect((await run('visualize', 'fixtures/plan-trip-definitions.ts', '--out', users)).code).toBe(0);
    expect((await run('visualize', 'fixtures/plan-trip-definitions.ts', '--out', all, '--all-edges')).code).toBe(0);
    const mmd = (dir: string) => readFile(join(dir, 'plan_trip.mmd'), 'utf8');
    expect(await mmd(users)).not.toMatch(/answeredBefore|keptAnswerFails/);
    expect(await mmd(users)).toContain('fields#58; City, Nights, Travel by');
    expect(await mmd(all)).toMatch(/answeredBefore/);
    expect(await mmd(all)).toMatch(/keptAnswerFails/);
    const json = (dir: string) => readFile(join(dir, 'plan_trip.machine.json'), 'utf8');
    expect(await json(users)).toBe(await json(all));
    expect((await run('visualize', 'fixtures/plan-trip-definitions.ts', '--out', all, '--all-edges', '--check')).code).toBe(0);
    expect((await run('visualize', 'fixtures/plan-trip-definitions.ts', '--out', all, '--check')).code).toBe(1);
  });

  it('refuses a machine with inline code, naming the part and the fix, instead of cutting it', async () => {
    const dir = await tempDir();
    const refused = await run('visualize', 'fixtures/inline-definitions.ts', '--out', dir);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      "error: tool 'counter': its machine has inline code where a name belongs: states.counting.always.actions (a function",
    );
    expect(refused.err).toContain('Name it in setup({ guards, actions, actors })');
    expect(await readdir(dir)).toEqual([]);
  });

  it('says what is wrong with the command line', async () => {
    expect(await run('visualize')).toMatchObject({
      code: 2,
      err: expect.stringContaining('roundtrip visualize: give exactly one module.'),
    });
    expect(await run('visualize', 'x.ts', '--out')).toMatchObject({ code: 2, err: expect.stringContaining('--out needs a folder.') });
    expect(await run('visualize', 'fixtures/missing.ts')).toMatchObject({ code: 1, err: expect.stringContaining('cannot load') });
    expect(await run('visualize', 'x.ts', '--chek')).toMatchObject({
      code: 2,
      err: "roundtrip visualize: unknown option --chek. Did you mean '--check'?\nRun `roundtrip visualize --help` for its usage.\n",
    });
    expect(await run('nope')).toMatchObject({ code: 2, err: expect.stringContaining("roundtrip: unknown command 'nope'.") });
    expect(await run('serv', 'x.ts')).toMatchObject({
      code: 2,
      err: "roundtrip: unknown command 'serv'. Did you mean 'serve'?\nThe commands: serve, config, keys, call, chat, visualize, inspect; run `roundtrip --help` for more.\n",
    });
    expect(await run('--help')).toMatchObject({ code: 0, out: expect.stringContaining('Usage: roundtrip <command>') });
  });
});
