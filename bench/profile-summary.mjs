// Sums a V8 .cpuprofile (from `node --cpu-prof`) by function and by file: self time, top 40 of each.
// Usage: node bench/profile-summary.mjs <file.cpuprofile> [top]
// A function of an esbuild bundle is named by its source module (the `// path` line esbuild writes before
// each module) when the bundle is still at its path, or a copy of it is beside the profile (bench:e2e's CPU_PROF).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-summary.mjs <file.cpuprofile> [top]');
const top = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfTicks = new Map();
for (const id of profile.samples) selfTicks.set(id, (selfTicks.get(id) ?? 0) + 1);
const total = profile.samples.length;
const shortPath = (url) =>
  url.replace(/^file:\/\/.*?\/(packages|node_modules|bench)\//, '$1/').replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '');
/** Per bundle url: the first line of each module in it, ascending, with the module's path. */
const bundles = new Map();
function modulesOf(url) {
  if (!url.endsWith('.mjs') || !url.startsWith('file://')) return undefined;
  if (bundles.has(url)) return bundles.get(url);
  const path = fileURLToPath(url);
  const copy = join(dirname(file), basename(path));
  const found = existsSync(path) ? path : existsSync(copy) ? copy : undefined;
  const starts = [];
  if (found)
    readFileSync(found, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const match = /^\/\/ (\S+\.[cm]?[jt]sx?)$/.exec(line);
        if (match) starts.push([i, shortPath(match[1])]);
      });
  bundles.set(url, starts.length > 0 ? starts : undefined);
  return bundles.get(url);
}
/** The source module of a bundled function (by its 0-based line), else the url shortened. */
function shortUrl(url, line) {
  const starts = line === undefined ? undefined : modulesOf(url);
  if (!starts) return shortPath(url);
  let low = 0;
  let high = starts.length - 1;
  if (line < starts[0][0]) return shortPath(url);
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle][0] <= line) low = middle;
    else high = middle - 1;
  }
  return starts[low][1];
}
const fn = new Map();
const files = new Map();
for (const [id, ticks] of selfTicks) {
  const { callFrame } = byId.get(id);
  const where = shortUrl(callFrame.url, callFrame.lineNumber) || '(native)';
  const key = `${callFrame.functionName || '(anonymous)'} ${where}:${callFrame.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + ticks);
  files.set(where, (files.get(where) ?? 0) + ticks);
}
const print = (title, map) => {
  console.log(`== ${title} (self time, % of ${total} samples)`);
  for (const [k, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * t) / total).toFixed(1).padStart(5)} %  ${k}`);
  console.log('');
};
print('by file', files);
print('by function', fn);

// inclusive time: every sample counts once for each distinct function on its stack
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map();
for (const [id, ticks] of selfTicks) {
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const { callFrame } = byId.get(at);
    const key = `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url, callFrame.lineNumber) || '(native)'}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + ticks);
  }
}
print('inclusive, by function', inclusive);
