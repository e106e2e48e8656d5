// Why the engine's hot path builds objects with Object.assign where a spread would read better: on Node
// 20 (V8 11.3) an object literal that spreads an object of one shape and then adds keys ({ ...a, key } or
// { ...a, ...b }) gets a hidden class of its own at every call, old-space garbage that every inline cache
// reading the result then misses. Node 22's V8 fixed it. Prints, for this Node: whether two results of
// the same literal share their hidden class (V8's %HaveSameMap, in a child with --allow-natives-syntax),
// and the time per call of each form against Object.assign, measured in the same run.
// Run from the repo root: `npx tsx bench/object-spread.bench.ts` (a few seconds); with Node 22:
// `npx -y node@22 --import tsx bench/object-spread.bench.ts`.
import { execFileSync } from 'node:child_process';

type Make = (a: Record<string, number>, i: number) => object;
const forms: Record<string, Make> = {
  '{ ...a, key }': (a, i) => ({ ...a, key: i }),
  '{ ...a, ...b }': (a, i) => ({ ...a, ...{ key: i } }),
  'Object.assign({}, a, { key })': (a, i) => Object.assign({}, a, { key: i }),
  '{ ...a } alone': (a) => ({ ...a }),
};

// the same source shape at every call, as at a site of the engine that one tool reaches
const source = { amount: 40, order: 51, round: 2 };

const shared = (name: string): boolean => {
  const script = `const make = ${forms[name]!.toString()};
    const a = ${JSON.stringify(source)};
    for (let i = 0; i < 10; i++) make(a, i);
    process.stdout.write(String(%HaveSameMap(make(a, 1), make(a, 2))));`;
  return execFileSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8' }) === 'true';
};

const nsPerCall = (make: Make): number => {
  let keep: object | undefined;
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < 200_000; i++) keep = make(source, i);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 200_000);
  }
  if (!keep) throw new Error('nothing was made');
  return best;
};

console.log(`object literals from one source shape, Node ${process.version} (best of 5 runs of 200,000 calls)`);
const baseline = nsPerCall(forms['Object.assign({}, a, { key })']!);
for (const name of Object.keys(forms)) {
  const ns = name.startsWith('Object.assign') ? baseline : nsPerCall(forms[name]!);
  const same = shared(name) ? 'one hidden class' : 'a new hidden class each call';
  console.log(`  ${name.padEnd(31)} ${ns.toFixed(1).padStart(7)} ns   ${(ns / baseline).toFixed(2).padStart(6)} × Object.assign   ${same}`);
}
