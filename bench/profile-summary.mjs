// Sums a V8 .cpuprofile (from `node --cpu-prof`) by function and by file: self time, top 40 of each.
// Usage: node bench/profile-summary.mjs <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-summary.mjs <file.cpuprofile> [top]');
const top = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfTicks = new Map();
for (const id of profile.samples) selfTicks.set(id, (selfTicks.get(id) ?? 0) + 1);
const total = profile.samples.length;
const shortUrl = (url) =>
  url.replace(/^file:\/\/.*?\/(packages|node_modules|bench)\//, '$1/').replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '');
const fn = new Map();
const files = new Map();
for (const [id, ticks] of selfTicks) {
  const { callFrame } = byId.get(id);
  const where = shortUrl(callFrame.url) || '(native)';
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
    const key = `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url) || '(native)'}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + ticks);
  }
}
print('inclusive, by function', inclusive);
