// Where a suite run's CPU goes, by kind of process (issue 31 item 4): the suite's floor on this machine is the
// CPU it needs over its cores, and which kind of process needs it says what a faster suite would have to give up.
// Linux only (/proc). Every process is sampled every 200 ms, and the run's figures are put together from what
// the kernel adds up exactly where it can:
// - the whole run (vitest and everything under it): the CPU of the children this process reaped (the command);
// - the test workers (vitest's children): their own CPU, sampled; what the tests started (servers, CLIs,
//   browsers: the workers' reaped children, exact), split by the share each kind had in the samples;
// - vitest's main process: the run less the workers and what they started;
// - PostgreSQL (processes named `postgres` outside the run): its postmaster's own and reaped CPU, and its live
//   processes' own;
// - the rest: the cores' busy time less all that (the kernel's threads, this sampler, anything else running).
import { readdirSync, readFileSync } from 'node:fs';

/** Seconds of CPU of a run, by kind of process. */
export interface CpuByKind {
  run: number;
  vitestMain: number;
  workers: number;
  /** What the tests started, by kind: `node`, `chromium`, `other` (shells, tmux, nginx). */
  started: { node: number; chromium: number; other: number };
  postgres: number;
}

const TICK = 100; // USER_HZ, as /proc reports CPU

interface Stat {
  comm: string;
  ppid: number;
  /** utime + stime, and cutime + cstime (reaped children), in seconds. */
  own: number;
  reaped: number;
}

function statOf(pid: number | 'self'): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone between the listing and the read
  }
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  const n = (i: number) => Number(fields[i]);
  return { comm: text.slice(text.indexOf('(') + 1, close), ppid: n(1), own: (n(11) + n(12)) / TICK, reaped: (n(13) + n(14)) / TICK };
}

interface Seen extends Stat {
  pid: number;
  kind: 'main' | 'worker' | 'node' | 'chromium' | 'other' | 'postgres' | 'outside';
  /** own and reaped when first seen (0 for what the run started). */
  own0: number;
  reaped0: number;
}

const STARTED_KINDS: readonly Seen['kind'][] = ['worker', 'node', 'chromium', 'other'];

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Starts sampling the processes under `commandPid` (the run's command, a child of this process) and
 * PostgreSQL's; `finish()`, called once the command has exited and been reaped, gives the figures.
 */
export function watchSuiteCpu(commandPid: number): { finish(): CpuByKind } {
  const seen = new Map<number, Seen>();
  const reapedBefore = statOf('self')?.reaped ?? 0;
  const kindOf = (pid: number, stat: Stat): Seen['kind'] => {
    if (pid === commandPid) return 'main';
    if (stat.comm === 'postgres') return 'postgres';
    const parent = seen.get(stat.ppid)?.kind;
    if (parent === undefined || !['main', ...STARTED_KINDS].includes(parent)) return 'outside';
    // the command (npx, or a shell) and vitest's main process are 'main'; the workers are its forks
    if (parent === 'main') return cmdlineOf(pid).includes('vitest/dist/workers/') ? 'worker' : 'main';
    if (stat.comm === 'node') return 'node';
    if (/^(chrom|Chrome)/.test(stat.comm)) return 'chromium';
    return parent === 'worker' ? 'other' : parent;
  };
  let first = true;
  const sample = () => {
    // in pid order, so that a parent is seen before the children it started since the last sample
    const pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    for (const pid of pids) {
      const stat = statOf(pid);
      if (stat === undefined) continue;
      const earlier = seen.get(pid);
      if (earlier && earlier.comm === stat.comm) Object.assign(earlier, { own: stat.own, reaped: stat.reaped, ppid: stat.ppid });
      else {
        const kind = kindOf(pid, stat);
        const before = first && kind !== 'main';
        seen.set(pid, { ...stat, pid, kind, own0: before ? stat.own : 0, reaped0: before ? stat.reaped : 0 });
      }
    }
    first = false;
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    finish() {
      clearInterval(timer);
      const all = [...seen.values()];
      const sum = (kind: Seen['kind'], of: (entry: Seen) => number) =>
        all.filter((entry) => entry.kind === kind).reduce((total, entry) => total + of(entry), 0);
      const run = (statOf('self')?.reaped ?? 0) - reapedBefore;
      const workers = sum('worker', (entry) => entry.own);
      // exact: the workers reap what the tests start (and a browser its own processes)
      const startedTotal = sum('worker', (entry) => entry.reaped);
      const sampled = { node: sum('node', (e) => e.own), chromium: sum('chromium', (e) => e.own), other: sum('other', (e) => e.own) };
      const sampledTotal = sampled.node + sampled.chromium + sampled.other || 1;
      const share = (part: number) => (startedTotal * part) / sampledTotal;
      const isPostmaster = (entry: Seen) => entry.kind === 'postgres' && seen.get(entry.ppid)?.kind !== 'postgres';
      // the postmaster's own and reaped (every backend that ended), and the own of its processes still there
      const postgres = all
        .filter((entry) => entry.kind === 'postgres')
        .reduce((total, entry) => {
          if (isPostmaster(entry)) return total + entry.own - entry.own0 + entry.reaped - entry.reaped0;
          return statOf(entry.pid)?.comm === 'postgres' ? total + entry.own - entry.own0 : total;
        }, 0);
      return {
        run,
        vitestMain: run - workers - startedTotal,
        workers,
        started: { node: share(sampled.node), chromium: share(sampled.chromium), other: share(sampled.other) },
        postgres,
      };
    },
  };
}
