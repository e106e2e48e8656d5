// What every published package needs before `pnpm pack` or `pnpm publish`: a prepack that builds it (a
// package packed unbuilt would ship without dist), the repository it comes from, and a README whose links
// work on npm, where the package stands alone (no `../../README.md`). The real pack, from a clean state,
// is the consumer test's (`pnpm test:consumer`); these checks are the fast half. The packages release in lockstep:
// one version, and each names its siblings at exactly that version.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLink, isRelative, linksOf } from './fixtures/markdown-links.ts';

const root = new URL('../../../', import.meta.url).pathname;
const readJson = (...path: string[]) => JSON.parse(readFileSync(join(root, ...path), 'utf8'));

interface Manifest {
  name: string;
  version?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  private?: boolean;
  files?: string[];
  scripts?: Record<string, string>;
  repository?: { type?: string; url?: string; directory?: string };
  publishConfig?: { exports?: Record<string, string | Record<string, string>>; bin?: Record<string, string> };
}

const published = readdirSync(join(root, 'packages'))
  .filter((folder) => existsSync(join(root, 'packages', folder, 'package.json')))
  .map((folder) => ({ folder, manifest: readJson('packages', folder, 'package.json') as Manifest }))
  .filter(({ manifest }) => !manifest.private);

/** The repository's web address, from the first manifest: `https://github.com/<owner>/<name>`. */
const repositoryUrl = published[0]?.manifest.repository?.url?.replace(/^git\+/, '').replace(/\.git$/, '') ?? '(none)';

/** A link to this repository on GitHub as a path in the checkout (`docs/hosts.md#eras`), or undefined for any other link. */
function inCheckout(target: string): string | undefined {
  // `#readme` is the repository page's own anchor for its README
  if (target === repositoryUrl || target === `${repositoryUrl}#readme`) return 'README.md';
  if (target.startsWith(`${repositoryUrl}#`)) return `README.md${target.slice(repositoryUrl.length)}`;
  return /^\/(?:blob|tree)\/main\/(.+)$/.exec(target.startsWith(repositoryUrl) ? target.slice(repositoryUrl.length) : '')?.[1];
}

it('finds the published packages, the same ones the root build compiles', () => {
  const built = (readJson('tsconfig.build.json') as { references: { path: string }[] }).references.map(
    (reference) => reference.path.split('/')[1],
  );
  expect(published.map(({ folder }) => folder).sort()).toEqual([...built].sort());
});

it('releases every package in lockstep: one version, and each depends on its siblings at exactly that version', () => {
  const versions = new Set(published.map(({ manifest }) => manifest.version));
  expect([...versions], 'every published package carries the same version').toHaveLength(1);
  for (const { manifest } of published) {
    for (const field of ['dependencies', 'peerDependencies', 'devDependencies'] as const) {
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        // workspace:* packs as the exact version; workspace:^ would let a sibling of another release in
        if (name.startsWith('@roundtrip/')) expect(range, `${manifest.name} ${field} ${name}`).toBe('workspace:*');
      }
    }
  }
});

describe.each(published.map(({ folder, manifest }) => [manifest.name, folder, manifest] as const))('%s', (_, folder, manifest) => {
  it('builds on prepack, into the dist its packed manifest points at', () => {
    expect(manifest.scripts?.prepack, 'pnpm pack of an unbuilt package would ship no dist').toBe('tsc -b tsconfig.build.json');
    const build = readJson('packages', folder, 'tsconfig.build.json') as { compilerOptions: { outDir: string } };
    expect(build.compilerOptions.outDir).toBe('dist');
    expect(manifest.files).toContain('dist');
    const targets = Object.entries(manifest.publishConfig?.exports ?? {})
      .filter(([key]) => key !== './package.json')
      .flatMap(([, target]) => (typeof target === 'string' ? [target] : Object.values(target)));
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(target).toMatch(/^\.\/dist\//);
  });

  it('names the repository it comes from, with its own folder', () => {
    expect(manifest.repository).toEqual({
      type: 'git',
      url: published[0]!.manifest.repository?.url,
      directory: `packages/${folder}`,
    });
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
  });

  it('links its README absolutely, to files and headings the repository holds', () => {
    const readme = readFileSync(join(root, 'packages', folder, 'README.md'), 'utf8');
    const links = linksOf(readme);
    expect(links.length).toBeGreaterThan(0);
    for (const { line, target } of links) {
      const where = `packages/${folder}/README.md:${line} links ${target}`;
      // npm shows the README without the files around it: a relative link leads nowhere there
      expect(isRelative(target), `${where}; link ${repositoryUrl}/blob/main/… instead`).toBe(false);
      const inRepository = inCheckout(target);
      if (inRepository !== undefined) expect(brokenLink(root, 'README.md', inRepository), where).toBeUndefined();
    }
  });
});
