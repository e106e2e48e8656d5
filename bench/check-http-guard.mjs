// Compares the HTTP CPU ratio of a `pnpm bench:http --guard` run with the baseline committed in BENCHMARKS.md.
// Usage: node bench/check-http-guard.mjs <bench output file>   (or the output on stdin)
// The baseline is the fenced block ```http-guard in BENCHMARKS.md: one line `ours/floor <ratio>` (server CPU per
// conversation of the demo's HTTP server over that of a bare node:http server answering the same bytes, measured
// in one run). Exits 1 when the measured ratio is more than 20 % above the baseline, or either is missing.
import { readFileSync } from 'node:fs';

const TOLERANCE = 1.2;
const output = readFileSync(process.argv[2] ?? 0, 'utf8');
const benchmarks = readFileSync(new URL('../BENCHMARKS.md', import.meta.url), 'utf8');
const ratioIn = (text) => {
  const match = /^ours\/floor (\d+(?:\.\d+)?)\s*$/m.exec(text);
  return match ? Number(match[1]) : undefined;
};

const block = /```http-guard\n([\s\S]*?)```/.exec(benchmarks)?.[1];
const base = block === undefined ? undefined : ratioIn(block);
if (base === undefined) {
  console.error('BENCHMARKS.md has no ```http-guard block with the baseline line `ours/floor <ratio>`.');
  process.exit(1);
}
const ratio = ratioIn(output);
if (ratio === undefined) {
  console.error('ours/floor: not in the bench output (expected a line `ours/floor <ratio>` from `pnpm bench:http --guard`)');
  process.exit(1);
}
const limit = base * TOLERANCE;
console.log(
  `ours/floor: ${ratio.toFixed(2)} against baseline ${base.toFixed(2)} (limit ${limit.toFixed(2)}): ${ratio > limit ? 'TOO MUCH CPU' : 'ok'}`,
);
if (ratio > limit) {
  console.error(
    'An HTTP conversation costs more server CPU against the bare node:http floor than BENCHMARKS.md allows (20 % over its ' +
      'baseline). Profile it (CPU_PROF=<dir> pnpm bench:http, then node bench/profile-summary.mjs <the profile in dir>) ' +
      'and remove what it added, or, if the cost is intended, measure again and update the baseline in BENCHMARKS.md with the reason.',
  );
  process.exit(1);
}
