// The suite's time, measured two ways so that one run's seconds, which the host moves by half from one hour to the
// next (BENCHMARKS.md, "The suite"), say something:
// - against a fixed CPU workload timed beside it (issue 31 item 4; bench/fixed-workload.ts): `--workload [runs]` runs
//   `npx vitest run` in this checkout, the workload before and after each run, and prints the median of the suite's
//   Duration over the workload's seconds (goal: at most 9);
// - against a baseline commit measured in the same run (issue 16 item 7): `npx vitest run` in clean copies of HEAD and
//   of the baseline (bench/at-commit.sh: both with cold transform caches), alternating, and the median ratio HEAD /
//   baseline. For the default baseline, d8181d8, it also prints what that ratio makes of the 13.3 – 13.9 s d8181d8
//   took in the checkout on a quiet day (2026-12-04).
// Each run also says where its CPU went, by kind of process (bench/suite-cpu.ts), and its floor: the cores' busy
// seconds over their number, the least wall time that CPU allows (over the workload's seconds with --workload).
// Run from the repo root, after `eval "$(bash scripts/services.sh)"`:
//   pnpm bench:suite --workload [runs]             (about a minute a run)
//   pnpm bench:suite [baseline commit] [pairs]      (about a minute a pair)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { median } from './e2e-stats.ts';
import { fixedWorkload } from './fixed-workload.ts';
import { type CpuByKind, watchSuiteCpu } from './suite-cpu.ts';

const WORKLOAD = process.argv[2] === '--workload';
const baseline = WORKLOAD ? 'HEAD' : (process.argv[2] ?? 'd8181d8');
const pairs = Number(process.argv[3] ?? 3);
if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`pairs must be a whole number from 1: got '${process.argv[3]}'.`);
if (!process.env.ROUNDTRIP_TEST_PG) {
  throw new Error(
    'ROUNDTRIP_TEST_PG is not set: run `eval "$(bash scripts/services.sh)"` first, so that both suites run their PostgreSQL tests.',
  );
}
/** d8181d8's suite in the checkout on a quiet machine (BENCHMARKS.md, "The suite"). */
const REFERENCE = { commit: 'd8181d8', seconds: [13.3, 13.9] } as const;

/** Busy seconds of all the machine's cores so far (/proc/stat: user, nice, system, irq, softirq). */
function busySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]!) / 100;
}

interface SuiteRun {
  /** vitest's own Duration, seconds. */
  duration: number;
  /** The command's wall time and the cores' busy time during it, seconds. */
  wall: number;
  busy: number;
  tests: string;
  /** Where the CPU went (bench/suite-cpu.ts), and this process's own CPU meanwhile (the sampling), seconds. */
  cpu: CpuByKind;
  sampling: number;
}

async function runSuite(commit: string | undefined): Promise<SuiteRun> {
  const busyBefore = busySeconds();
  const ownBefore = process.cpuUsage();
  const start = performance.now();
  const command =
    commit === undefined
      ? (['npx', ['vitest', 'run']] as const)
      : (['bash', ['bench/at-commit.sh', commit, 'npx', 'vitest', 'run']] as const);
  const child = spawn(command[0], [...command[1]], { env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
  const watch = watchSuiteCpu(child.pid!);
  const chunks: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wall = (performance.now() - start) / 1000;
  const busy = busySeconds() - busyBefore;
  const cpu = watch.finish();
  const own = process.cpuUsage(ownBefore);
  const output = chunks.join('');
  if (status !== 0)
    throw new Error(`the suite at ${commit ?? 'the checkout'} failed (exit ${status}); its last lines:\n${output.slice(-3000)}`);
  const duration = /Duration\s+([\d.]+)s/.exec(output);
  const tests = /Tests\s+(.+)/.exec(output);
  if (!duration || !tests) throw new Error(`no Duration or Tests line in the output of the suite at ${commit}:\n${output.slice(-3000)}`);
  return { duration: Number(duration[1]), wall, busy, tests: tests[1]!.trim(), cpu, sampling: (own.user + own.system) / 1e6 };
}

/** Where a run's CPU went, and the least wall time its busy cores allow, over the workload's seconds when given. */
function cpuLines(run: SuiteRun, workload?: number): string {
  const { cpu } = run;
  const started = cpu.started.node + cpu.started.chromium + cpu.started.other;
  const rest = run.busy - cpu.run - cpu.postgres;
  const cores = availableParallelism();
  const floor = run.busy / cores;
  return [
    `    CPU, s: test workers ${f(cpu.workers)} · what the tests started ${f(started)} (node ${f(cpu.started.node)}, chromium ${f(cpu.started.chromium)}, other ${f(cpu.started.other)})`,
    ` · PostgreSQL ${f(cpu.postgres)} · vitest's main ${f(cpu.vitestMain)} · the rest ${f(rest)} (this sampling ${f(run.sampling)})\n`,
    `    floor: cores busy / ${cores} cores = ${f(floor)} s`,
    workload === undefined ? '' : ` = ${f(floor / workload)} × the workload`,
  ].join('');
}

const f = (x: number) => x.toFixed(2);

if (WORKLOAD) {
  // the suite in this checkout, each run between two timings of the fixed workload
  console.log(`pnpm test's suite in this checkout against a fixed CPU workload (bench/fixed-workload.ts), ${pairs} runs`);
  const ratios: number[] = [];
  for (let run = 0; run < pairs; run++) {
    const before = fixedWorkload();
    const suite = await runSuite(undefined);
    const after = fixedWorkload();
    const workload = (before.seconds + after.seconds) / 2;
    ratios.push(suite.duration / workload);
    console.log(
      `  suite ${f(suite.duration)} s (wall ${f(suite.wall)} s, cores busy ${f(suite.busy)} s) ${suite.tests}; workload ${f(before.seconds)} and ${f(after.seconds)} s (${before.proof})`,
    );
    console.log(cpuLines(suite, workload));
  }
  console.log(`suite / workload, median of ${pairs}: ${f(median(ratios))} (runs ${ratios.map(f).join(', ')}; goal: at most 9)`);
  process.exit(0);
}
console.log(`pnpm test's suite, HEAD against ${baseline}, ${pairs} alternating pairs (clean copies, cold caches: bench/at-commit.sh)`);
const ratios: number[] = [];
const times: Record<'head' | 'baseline', number[]> = { head: [], baseline: [] };
for (let pair = 0; pair < pairs; pair++) {
  const order = pair % 2 === 0 ? (['baseline', 'head'] as const) : (['head', 'baseline'] as const);
  const runs = {} as Record<'head' | 'baseline', SuiteRun>;
  for (const side of order) {
    const run = await runSuite(side === 'head' ? 'HEAD' : baseline);
    runs[side] = run;
    times[side].push(run.duration);
    console.log(
      `  ${side === 'head' ? 'HEAD' : baseline}: ${f(run.duration)} s (wall ${f(run.wall)} s, cores busy ${f(run.busy)} s) ${run.tests}`,
    );
    console.log(cpuLines(run));
  }
  ratios.push(runs.head.duration / runs.baseline.duration);
}
console.log(`median seconds: HEAD ${f(median(times.head))}, ${baseline} ${f(median(times.baseline))}`);
console.log(`HEAD / ${baseline}, median of the pairs: ${f(median(ratios))} (pairs ${ratios.map(f).join(', ')})`);
if (REFERENCE.commit.startsWith(baseline) || baseline.startsWith(REFERENCE.commit)) {
  const [low, high] = REFERENCE.seconds;
  console.log(
    `HEAD on the machine of ${REFERENCE.commit}'s ${low} – ${high} s (checkout, quiet): about ${f(median(ratios) * low)} – ${f(median(ratios) * high)} s (goal: at most 20)`,
  );
}
