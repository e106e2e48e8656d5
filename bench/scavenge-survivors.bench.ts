// Which short-lived objects V8's scavenger keeps: each case makes 1,000,000 objects that nothing refers to
// once the next is made (each beside a small array, `{ a, b: Array(20) }`, so the young generation fills),
// in a fresh `node --trace-gc-nvp`, and the bench prints the share of what the scavenges found allocated that
// they promoted (copied to the old generation, where only a full collection frees it), over the second half
// of the run, with a scavenge's mean pause. Garbage should promote nothing. On Node 20 (V8 11.3) an object
// with a hidden class of its own is kept with all it refers to; an AbortSignal there is one (Node makes it an
// EventTarget and then sets its prototype), and the SDK and undici make several a request. Run from the repo
// root: `npx tsx bench/scavenge-survivors.bench.ts` (about 45 s), under each Node to compare.
import { spawnSync } from 'node:child_process';

const CASES: Record<string, string> = {
  'an object literal': 'sink = { kind: i, at: 1 };',
  '{ ...a, key }': 'sink = { ...shape, key: i };',
  'Object.assign({}, a, { key })': 'sink = Object.assign({}, shape, { key: i });',
  'an AbortController, its signal unread': 'sink = new AbortController();',
  'an AbortSignal': 'sink = new AbortController().signal;',
  'a web Request': "sink = new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{}' });",
  'a web Request with a signal':
    "sink = new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{}', signal: new AbortController().signal });",
};

const program = (make: string) =>
  `const shape = { p: 1, q: 2 }; let sink, filler;
   for (let i = 0; i < 1e6; i++) { filler = { a: i, b: new Array(20).fill(i) }; ${make} if (i % 1000 === 0) await null; }`;

console.log(`Short-lived objects and V8's scavenges, Node ${process.version} (V8 ${process.versions.v8})`);
console.log('case                                     promoted / allocated   mean pause');
for (const [name, make] of Object.entries(CASES)) {
  const run = spawnSync(process.execPath, ['--trace-gc-nvp', '--input-type=module', '-e', program(make)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the case '${name}' failed:\n${run.stderr}`);
  const scavenges = run.stdout
    .split('\n')
    .filter((line) => line.includes(' gc=s '))
    .map((line) => Object.fromEntries([...line.matchAll(/(\w+)=([0-9.]+)/g)].map(([, field, value]) => [field, Number(value)])));
  const kept = scavenges.slice(Math.floor(scavenges.length / 2));
  const sum = (field: string) => kept.reduce((total, s) => total + (s[field] ?? 0), 0);
  const share = (100 * sum('promoted')) / sum('allocated');
  console.log(`${name.padEnd(40)} ${`${share.toFixed(1)} %`.padStart(19)}   ${(sum('pause') / kept.length).toFixed(2).padStart(7)} ms`);
}
