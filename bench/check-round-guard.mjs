// Compares the round/floor ratios of a bench run with the baseline committed in BENCHMARKS.md.
// Usage: node bench/check-round-guard.mjs <bench output file>   (or the output on stdin)
// The baseline is the fenced block ```round-guard in BENCHMARKS.md: one `<kind> <ratio>` a line. Exits 1
// when a kind's ratio is more than 20 % above its baseline, or a kind is missing from either side.
import { readFileSync } from 'node:fs';

const TOLERANCE = 1.2;
const output = readFileSync(process.argv[2] ?? 0, 'utf8');
const benchmarks = readFileSync(new URL('../BENCHMARKS.md', import.meta.url), 'utf8');

const block = /```round-guard\n([\s\S]*?)```/.exec(benchmarks)?.[1];
if (block === undefined) {
  console.error('BENCHMARKS.md has no ```round-guard block with the baseline ratios (one `<kind> <ratio>` a line).');
  process.exit(1);
}
const parse = (text, prefix) =>
  new Map([...text.matchAll(new RegExp(`^${prefix}(\\S+) (\\d+(?:\\.\\d+)?)\\s*$`, 'gm'))].map((m) => [m[1], Number(m[2])]));
const baseline = parse(block, '');
const measured = parse(output, 'round/floor ');
if (baseline.size === 0) {
  console.error('the ```round-guard block of BENCHMARKS.md lists no `<kind> <ratio>` lines.');
  process.exit(1);
}

let failed = false;
for (const [kind, base] of baseline) {
  const ratio = measured.get(kind);
  if (ratio === undefined) {
    console.error(`round/floor ${kind}: not in the bench output (expected a line \`round/floor ${kind} <ratio>\`)`);
    failed = true;
    continue;
  }
  const limit = base * TOLERANCE;
  const verdict = ratio > limit ? 'TOO SLOW' : 'ok';
  console.log(`round/floor ${kind}: ${ratio.toFixed(2)} against baseline ${base.toFixed(2)} (limit ${limit.toFixed(2)}): ${verdict}`);
  if (ratio > limit) failed = true;
}
for (const kind of measured.keys())
  if (!baseline.has(kind)) {
    console.error(
      `round/floor ${kind}: measured, but BENCHMARKS.md has no baseline for it; add \`${kind} <ratio>\` to its round-guard block`,
    );
    failed = true;
  }
if (failed) {
  console.error(
    'The engine got slower against its floor than BENCHMARKS.md allows (20 % over its baseline). Profile the round ' +
      '(node --cpu-prof --import tsx bench/profile-round.bench.ts reask) and remove what it added, or, if the cost is intended, ' +
      'measure again and update the baseline in BENCHMARKS.md with the reason.',
  );
  process.exit(1);
}
