// Timing harness of the bench: cases with a weight, warm-up and calibration, rounds in alternating order,
// medians and paired ratios, and the tables the report prints.
import { PerformanceObserver, performance } from 'node:perf_hooks';

export interface Case {
  name: string;
  label: string;
  run: () => unknown;
  async: boolean;
  /** Share of TARGET_MS one sample of this case takes. */
  weight: number;
  iterations: number;
  /** µs per call, one per round. */
  samples: number[];
  /**
   * µs of this process's CPU time (user + system, all its threads) per call, one per round: unlike wall
   * time, it leaves out the time the process waited for a core that others held.
   */
  cpuSamples: number[];
  /** µs per call the main thread spent in GC pauses, one per round (filled in after the rounds). */
  gcSamples: number[];
  /** start and end of each round's sample, ms (performance.now) */
  windows: Array<[number, number]>;
}

export const mk = (name: string, label: string, run: () => unknown, weight: number, async = false): Case => ({
  name,
  label,
  run,
  async,
  weight,
  iterations: 0,
  samples: [],
  cpuSamples: [],
  gcSamples: [],
  windows: [],
});

export const ROUNDS = 11;
/** Wall time a case of weight 1 takes per round. */
const TARGET_MS = 200;
const WARMUP_MS = 300;
export const gc = (globalThis as { gc?: () => void }).gc;

async function timeIt(c: Case, iterations: number, window?: Array<[number, number]>): Promise<number> {
  const run = c.run;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  if (c.async) for (let i = 0; i < iterations; i++) await run();
  else for (let i = 0; i < iterations; i++) run();
  const end = performance.now();
  if (window) {
    const cpu = process.cpuUsage(cpuStart);
    window.push([start, end]);
    c.cpuSamples.push((cpu.user + cpu.system) / iterations);
  }
  return end - start;
}

/**
 * Warm-up and calibration (each case twice, to let the JIT settle, then sized to about TARGET_MS ×
 * weight), then ROUNDS rounds, every case once per round, the order flipped every round. Returns seconds.
 */
export async function runCases(cases: Case[], rounds = ROUNDS): Promise<number> {
  const started = performance.now();
  for (const pass of [0, 1]) {
    for (const c of cases) {
      let n = 16;
      let spent = 0;
      let count = 0;
      while (spent < WARMUP_MS * (pass === 0 ? 0.5 : 1) * Math.max(c.weight, 0.25)) {
        spent += await timeIt(c, n);
        count += n;
        n *= 2;
      }
      if (pass === 1) c.iterations = Math.max(50, Math.round(((TARGET_MS * c.weight) / spent) * count));
    }
  }
  // GC pauses of the main thread, each charged to the sample it fell in
  const pauses: Array<[number, number]> = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push([e.startTime, e.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? cases : [...cases].reverse();
    for (const c of order) {
      gc?.();
      const ms = await timeIt(c, c.iterations, c.windows);
      c.samples.push((ms * 1000) / c.iterations);
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 50)); // let the observer deliver the last entries
  observer.disconnect();
  for (const c of cases) {
    c.gcSamples = c.windows.map(([from, to]) => {
      const ms = pauses.filter(([at]) => at >= from && at < to).reduce((n, [, d]) => n + d, 0);
      return (ms * 1000) / c.iterations;
    });
  }
  return (performance.now() - started) / 1000;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export const fmt = (x: number, digits = 1) => x.toFixed(digits);
export const pad = (s: string, n: number) => s.padEnd(n);
export const lpad = (s: string, n: number) => s.padStart(n);

/** Figures over the cases of one run, looked up by name. */
export function results(cases: Case[]) {
  const byName = (name: string) => {
    const found = cases.find((c) => c.name === name);
    if (!found) throw new Error(`no case '${name}'`);
    return found;
  };
  /** median over rounds of µs/op */
  const us = (name: string) => median(byName(name).samples);
  /** median over rounds of µs/op spent in GC pauses */
  const gcUs = (name: string) => median(byName(name).gcSamples);
  /** the samples without their GC pauses */
  const noGc = (c: Case) => c.samples.map((x, i) => x - (c.gcSamples[i] ?? 0));
  /** median over rounds of a's / b's sample without GC pauses */
  const pairedNoGc = (a: string, b: string) => {
    const bs = noGc(byName(b));
    const xs = noGc(byName(a)).map((x, i) => x / bs[i]!);
    return { ratio: median(xs), lo: Math.min(...xs), hi: Math.max(...xs) };
  };
  const pairedDiffNoGc = (a: string, b: string) => {
    const bs = noGc(byName(b));
    return median(noGc(byName(a)).map((x, i) => x - bs[i]!));
  };
  /** median over rounds of a's sample / b's sample of the same round, with the extremes */
  const paired = (a: string, b: string) => {
    const bs = byName(b).samples;
    const xs = byName(a).samples.map((x, i) => x / bs[i]!);
    return { ratio: median(xs), lo: Math.min(...xs), hi: Math.max(...xs) };
  };
  /** median over rounds of a's sample − b's sample of the same round, µs */
  const pairedDiff = (a: string, b: string) => {
    const bs = byName(b).samples;
    return median(byName(a).samples.map((x, i) => x - bs[i]!));
  };
  /** median over rounds of a's / b's CPU time per call of the same round */
  const pairedCpu = (a: string, b: string) => {
    const bs = byName(b).cpuSamples;
    const xs = byName(a).cpuSamples.map((x, i) => x / bs[i]!);
    return { ratio: median(xs), lo: Math.min(...xs), hi: Math.max(...xs) };
  };
  /** a's least CPU time per call over the rounds / b's: what each costs with the least interference */
  const minCpu = (a: string, b: string) => Math.min(...byName(a).cpuSamples) / Math.min(...byName(b).cpuSamples);
  /** 10th percentile of each case's wall µs per call, a over b */
  const lowWall = (a: string, b: string) => {
    const p10 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 10)]!;
    return p10(byName(a).samples) / p10(byName(b).samples);
  };
  /** median over rounds of CPU µs per call */
  const cpuUs = (name: string) => median(byName(name).cpuSamples);
  return { byName, us, gcUs, paired, pairedDiff, pairedNoGc, pairedDiffNoGc, pairedCpu, cpuUs, minCpu, lowWall };
}

export function table(rows: Case[]): void {
  console.log(
    `${pad('case', 92)} ${lpad('iters/round', 11)} ${lpad('µs/op', 8)} ${lpad('ops/s', 9)} ${lpad('min–max µs/op', 14)} ${lpad('GC µs/op', 9)}`,
  );
  for (const c of rows) {
    const m = median(c.samples);
    const d = m < 1 ? 2 : 1;
    const range = `${fmt(Math.min(...c.samples), d)}–${fmt(Math.max(...c.samples), d)}`;
    console.log(
      `${pad(c.label, 92)} ${lpad(String(c.iterations), 11)} ${lpad(fmt(m, d), 8)} ${lpad(fmt(1e6 / m, 0), 9)} ${lpad(range, 14)} ${lpad(fmt(median(c.gcSamples), d), 9)}`,
    );
  }
}
