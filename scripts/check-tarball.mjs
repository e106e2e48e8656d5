// What a packed package must hold to be published: its compiled entries with declarations, its README
// and the LICENSE, a manifest that points at them; and what it must not: sources, tests, build info,
// `workspace:` versions, `private`, or compiled code that points at a file (`new URL(…, import.meta.url)`)
// the tarball does not hold.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';

const FILE_URL = /new URL\(\s*['"`](\.{1,2}\/[^'"`]+)['"`]\s*,\s*import\.meta\.url\s*\)/g;

/** Every problem of the tarball at `path`, as one line each; empty when it is fit to publish. */
export function checkTarball(path) {
  const folder = mkdtempSync(join(tmpdir(), 'roundtrip-tarball-'));
  try {
    execFileSync('tar', ['-xzf', path, '-C', folder]);
    return problemsOf(join(folder, 'package'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function problemsOf(root) {
  const listing = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      posix.join(
        ...join(entry.parentPath, entry.name)
          .slice(root.length + 1)
          .split(/[\\/]/),
      ),
    );
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const problems = [];
  const has = (file) => listing.includes(file);

  for (const file of ['package.json', 'README.md', 'LICENSE']) if (!has(file)) problems.push(`missing ${file}`);
  for (const file of listing) {
    if (/^(src|test|scripts)\//.test(file) || /(^|\/)tsconfig[^/]*\.json$/.test(file))
      problems.push(`ships ${file}, which is not for users`);
    if (file.endsWith('.tsbuildinfo')) problems.push(`ships the build info ${file}`);
    if (file.endsWith('.ts') && !file.endsWith('.d.ts')) problems.push(`ships the TypeScript source ${file}`);
  }
  if (manifest.private) problems.push('package.json says private: true');
  if (!/^0\.\d+\.\d+$/.test(manifest.version ?? '')) problems.push(`version ${manifest.version} is not 0.x`);
  if (manifest.license !== 'MIT') problems.push(`license is ${manifest.license}, not MIT`);
  if (!manifest.engines?.node) problems.push('no engines.node');
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`${field}.${name} is ${range}`);
    }
  }
  const entries = Object.entries(manifest.exports ?? {}).filter(([key]) => key !== './package.json');
  if (entries.length === 0) problems.push('no exports');
  for (const [key, target] of entries) {
    const types = typeof target === 'object' ? target.types : undefined;
    const code = typeof target === 'object' ? target.default : target;
    if (!types || !has(types.replace(/^\.\//, ''))) problems.push(`exports["${key}"].types is missing or not in the tarball (${types})`);
    if (!code?.endsWith('.js') || !has(code.replace(/^\.\//, '')))
      problems.push(`exports["${key}"] code is not a shipped .js file (${code})`);
  }
  for (const [name, bin] of Object.entries(manifest.bin ?? {})) {
    if (!has(bin.replace(/^\.\//, ''))) problems.push(`bin ${name} (${bin}) is not in the tarball`);
  }
  // compiled code only: the bins are run by the consumer test, and bin/roundtrip.mjs probes for sources on purpose
  for (const file of listing.filter((name) => name.startsWith('dist/') && name.endsWith('.js'))) {
    for (const [, target] of readFileSync(join(root, file), 'utf8').matchAll(FILE_URL)) {
      const resolved = posix.normalize(posix.join(posix.dirname(file), target));
      if (!has(resolved)) problems.push(`${file} points at ${target} (${resolved}), which is not in the tarball`);
    }
  }
  return problems;
}
