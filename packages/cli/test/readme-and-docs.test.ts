// The README is the front door: short enough to read (at most 250 lines), no line wider than a terminal
// can show (200 characters, tables included, here and in every doc), the two commands a fresh clone needs
// (CI runs the same test command), and every link within the repository leading to a file and heading
// that exist; BENCHMARKS.md at most 300 lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLink, isRelative, linksOf } from './fixtures/markdown-links.ts';

const root = new URL('../../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const MAX_README_LINES = 250;
/** BENCHMARKS.md is a reference of today's figures, not a diary (issue 30): the history stays in git. */
const MAX_BENCHMARKS_LINES = 300;
const MAX_LINE = 200;
const INSTALL = 'npx -y pnpm@10.34.9 install --frozen-lockfile';

const docs = readdirSync(join(root, 'docs'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => `docs/${file}`);
const packageReadmes = readdirSync(join(root, 'packages')).map((folder) => `packages/${folder}/README.md`);
/** Every page of prose this project writes for its readers. */
const pages = ['README.md', 'SECURITY.md', 'BENCHMARKS.md', ...docs, ...packageReadmes];

describe('README.md', () => {
  const readme = read('README.md');

  it(`is at most ${MAX_README_LINES} lines: the details live in docs/`, () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('gives the two commands that work on a fresh clone: the demo, and the tests CI runs', () => {
    expect(readme).toContain(`\`\`\`sh\n${INSTALL} && npx -y pnpm@10.34.9 demo\n\`\`\``);
    expect(readme).toContain(`\`\`\`sh\n${INSTALL} && npx -y pnpm@10.34.9 test\n\`\`\``);
    // the test command CI runs is the README's: pnpm as the packageManager field pins it, then `test`
    const ci = read('.ci/run');
    expect(ci).toContain('pnpm() { npx -y pnpm@10.34.9 "$@"; }');
    expect(ci).toMatch(/^pnpm install --frozen-lockfile$/m);
    expect(ci).toMatch(/^pnpm test\b/m);
    expect(JSON.parse(read('package.json')).packageManager).toBe('pnpm@10.34.9');
  });

  it('says the packages are not on npm yet, and how to install them from a clone', () => {
    expect(readme).toMatch(/not on npm yet/i);
    expect(readme).toMatch(/pack --pack-destination/);
    expect(readme).toMatch(/npm install "\$tarballs"\/\*\.tgz xstate zod/);
  });

  it('links every page of docs/', () => {
    const linked = new Set(linksOf(readme).map(({ target }) => target.split('#')[0]));
    expect(docs.filter((doc) => !linked.has(doc))).toEqual([]);
  });
});

describe('BENCHMARKS.md', () => {
  it(`is at most ${MAX_BENCHMARKS_LINES} lines: what is measured, how to run it, today's figures`, () => {
    expect(read('BENCHMARKS.md').trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_BENCHMARKS_LINES);
  });
});

describe.each(pages)('%s', (page) => {
  const text = read(page);

  it(`has no line over ${MAX_LINE} characters`, () => {
    const wide = text
      .split('\n')
      .map((line, index) => ({ line: index + 1, width: [...line].length }))
      .filter(({ width }) => width > MAX_LINE);
    expect(wide, `lines of ${page} too wide for a terminal: wrap the prose, split the table`).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    const broken = linksOf(text)
      .filter(({ target }) => isRelative(target) || target.startsWith('#'))
      .flatMap(({ line, target }) => {
        const problem = brokenLink(root, page, target);
        return problem ? [`${page}:${line}: ${problem}`] : [];
      });
    expect(broken).toEqual([]);
  });
});
