// The README's recipe for installing the packages in a project of one's own runs as written (issue 27): it
// starts from the checkout the reader has (it clones nothing: the packages and the repository are not
// published), every folder it enters is one it made, pnpm is the version the workspace names, its pack
// filter picks exactly the published packages, which are the ones the consumer test (scripts/consumer-test.mjs,
// run by CI) packs and installs with npm the same way, and docs/releasing.md shows the same recipe; the
// tarballs/ it packs into is ignored by git. The recipe's packing and installing themselves take minutes
// and the network: the consumer test does them in CI.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The first `sh` block after `heading` in the Markdown file at `page`. */
function recipeOf(page: string, heading: string): string {
  const text = read(page);
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${page} has no heading "${heading}"`);
  const block = /\n```sh\n([\s\S]*?)```\n/.exec(text.slice(at))?.[1];
  if (block === undefined) throw new Error(`${page} has no sh block after "${heading}"`);
  return block;
}

const readme = recipeOf('README.md', '## Install in a project of your own');

/** Each simple command of the recipe as its words (quotes removed), in order: lines split at `&&`. */
const commands = readme
  .split('\n')
  .filter((line) => line.trim() !== '')
  .flatMap((line) => line.split('&&'))
  .map((command) => (command.match(/(?:"[^"]*"|'[^']*'|[^\s"'])+/g) ?? []).map((word) => word.replace(/"([^"]*)"|'([^']*)'/g, '$1$2')));

describe("the README's install recipe", () => {
  it('is valid shell, and docs/releasing.md shows the same', () => {
    expect(() => execFileSync('bash', ['-n'], { input: readme })).not.toThrow();
    expect(recipeOf('docs/releasing.md', '## Install from a clone')).toBe(readme);
  });

  it('runs from the checkout the reader has: it clones nothing and enters only folders it made', () => {
    const made = new Set<string>();
    for (const words of commands) {
      const [program = '', ...args] = words;
      expect(words.join(' '), 'the repository is not published: the reader works in the checkout they have').not.toMatch(
        /git clone|https?:\/\//,
      );
      if (/^\w+=/.test(program)) continue; // a shell variable
      expect(['npx', 'npm', 'mkdir', 'cd'], `${words.join(' ')}: a program a reader with Node has`).toContain(program);
      if (program === 'mkdir') for (const folder of args.filter((arg) => !arg.startsWith('-'))) made.add(folder);
      if (program === 'cd') expect([...made], `cd ${args[0]}: a folder an earlier line made`).toContain(args[0]);
    }
  });

  it("packs into the checkout's tarballs/, which git ignores", () => {
    expect(readme).toContain('--pack-destination "$PWD/tarballs"');
    expect(read('.gitignore').split('\n')).toContain('tarballs/');
  });

  it('runs the pnpm the workspace names, and packs exactly the published packages, the ones the consumer test packs', () => {
    const { packageManager } = JSON.parse(read('package.json')) as { packageManager: string };
    const pnpmRuns = commands.filter((words) => words[0] === 'npx');
    expect(pnpmRuns.map((words) => words.slice(0, 3))).toEqual([
      ['npx', '-y', packageManager],
      ['npx', '-y', packageManager],
    ]);
    const pack = pnpmRuns[1]!.slice(3);
    expect(pack).toEqual(['-r', '--filter', './packages/*', 'pack', '--pack-destination', '$PWD/tarballs']);
    // what './packages/*' picks: every package folder, each published (not private)
    const folders = readdirSync(join(root, 'packages'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    for (const folder of folders) {
      expect(JSON.parse(read(`packages/${folder}/package.json`)).private, `packages/${folder} is published`).toBeUndefined();
    }
    const consumerTest = read('scripts/consumer-test.mjs');
    const packed = /const PACKAGES = \[([^\]]*)\]/.exec(consumerTest)?.[1]?.match(/[\w-]+/g);
    expect(packed?.slice().sort()).toEqual(folders);
    // and installs them with npm in a project of its own, with xstate and zod, as the recipe does
    expect(commands.at(-1)!.slice(0, 3)).toEqual(['npm', 'install', '$tarballs/*.tgz']);
    expect(commands.at(-1)!.slice(3)).toEqual(['xstate', 'zod']);
    expect(consumerTest).toMatch(/npm,\s*\[\s*'install',[\s\S]*?files\.map\(\(file\) => join\(tarballs, file\)\),\s*`zod@/);
  });
});
