// The module a command serves (serve, config): a path that names no file says why (build output not built
// yet, with the TypeScript source it could load instead), and the server's name, when neither --name nor
// serverInfo gives one, is the package's (the nearest package.json's name), not the file's: every project
// whose entry is dist/tools.js would otherwise be "tools", sharing one key file and ledger.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from './fixtures/run-command.ts';
import { FIXTURES } from './fixtures/spawn-cli.ts';

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A project in a folder of its own: its files by relative path, each module re-exporting a fixture's definitions. */
async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'roundtrip-project-'));
  temps.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}
const TOOLS = `export { confirmIt } from ${JSON.stringify(join(FIXTURES, 'good-definitions.ts'))};\n`;

describe('a module path that names no file', () => {
  it('says build output is not built yet, and names the TypeScript source to give instead', async () => {
    const dir = await project({ 'package.json': '{ "name": "trips" }', 'src/tools.ts': TOOLS });
    const result = await runCommand(['serve', 'dist/tools.js'], { cwd: dir });
    expect(result).toEqual({
      code: 1,
      out: '',
      err:
        `roundtrip serve: cannot load ${join(dir, 'dist', 'tools.js')}: there is no such file: it is build output, so build the project ` +
        'first (e.g. `npx tsc`), or give its TypeScript source instead, src/tools.ts (roundtrip loads TypeScript as it is).\n',
    });
  });

  it('says so of build output without a source, of a .js file beside its .ts source, and of any other path', async () => {
    const dir = await project({ 'tools.ts': TOOLS });
    const errorOf = async (...args: string[]) => (await runCommand(args, { cwd: dir })).err;
    expect(await errorOf('serve', 'build/server.mjs')).toBe(
      `roundtrip serve: cannot load ${join(dir, 'build', 'server.mjs')}: there is no such file: it is build output, so build the project first (e.g. \`npx tsc\`).\n`,
    );
    expect(await errorOf('config', 'claude', 'tools.js')).toBe(
      `roundtrip config: cannot load ${join(dir, 'tools.js')}: there is no such file; give its TypeScript source instead, tools.ts (roundtrip loads TypeScript as it is).\n`,
    );
    expect(await errorOf('visualize', 'elsewhere.ts')).toBe(
      `roundtrip visualize: cannot load ${join(dir, 'elsewhere.ts')}: there is no such file.\n`,
    );
  });
});

describe("the server's name, when neither --name nor serverInfo gives one", () => {
  /** The name `roundtrip config` gives the module's server (the entry's key), and the default key file it names. */
  async function nameOf(dir: string, module: string, ...flags: string[]) {
    const result = await runCommand(['config', 'claude-code', module, ...flags], { cwd: dir });
    expect(result.code, result.err).toBe(0);
    const [[name, entry]] = Object.entries(
      (JSON.parse(result.out) as { mcpServers: Record<string, { env: Record<string, string> }> }).mcpServers,
    ) as [[string, { env: Record<string, string> }]];
    return { name, keyFile: entry.env.ROUNDTRIP_KEY_FILE };
  }

  it("is the nearest package's name, fit for a file name, passing over a package.json without one", async () => {
    const dir = await project({
      'package.json': '{ "name": "@acme/trips", "version": "1.0.0" }',
      'src/tools.ts': TOOLS,
      'lib/package.json': '{ "type": "module" }',
      'lib/tools.ts': TOOLS,
    });
    expect(await nameOf(dir, 'src/tools.ts')).toEqual({ name: 'acme-trips', keyFile: expect.stringMatching(/[\\/]acme-trips\.key$/) });
    expect((await nameOf(dir, 'lib/tools.ts')).name).toBe('acme-trips');
    expect((await nameOf(dir, 'src/tools.ts', '--name', 'tools')).name).toBe('tools');
  });

  it("is the file's name when no package.json above the module has a name", async () => {
    const dir = await project({ 'tools.ts': TOOLS });
    expect((await nameOf(dir, 'tools.ts')).name).toBe('tools');
  });
});
