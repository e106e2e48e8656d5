// The servers of bench/legacy-http.bench.ts and what they cost: the entry (legacy-server.ts) bundled once
// (the same esbuild bundling as the other benches' servers, so no tsx loader in the servers), each instance a
// child process of it started on a free loopback port, and the CPU time of a process read from /proc: the
// run time of every thread (`/proc/<pid>/task/*/schedstat`, nanoseconds), not the 10 ms ticks of
// `/proc/<pid>/stat`, so that one batch's few hundred milliseconds are measured to well under 1 %.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleForNode } from '../apps/demo/test/support/bundle.ts';

/** Bundles the bench's server entry into `dir`; resolves with the file to run. */
export const bundleLegacyServer = (dir: string): Promise<string> =>
  bundleForNode(new URL('./legacy-server.ts', import.meta.url), join(dir, 'legacy-server.mjs'));

export interface BenchServer {
  name: string;
  url: URL;
  pid: number;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts the bundled server `script` as instance `name` with `env` over this process's; resolves once it serves. */
export async function startBenchServer(script: string, name: string, env: Record<string, string>): Promise<BenchServer> {
  const child: ChildProcess = spawn(process.execPath, [script], {
    env: { ...process.env, ...env, ROUNDTRIP_INSTANCE: name },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      const match = / over HTTP at (http:\/\/\S+) /.exec(log);
      if (match) resolve(new URL(match[1]!));
    });
    void exited.then(() => reject(new Error(`the bench server ${name} exited before it served:\n${log}`)));
  });
  return {
    name,
    url,
    pid: child.pid!,
    stderr: () => log,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Nanoseconds of CPU the threads of process `pid` have run so far (0 for a process that is gone). */
export function processCpuNs(pid: number): number {
  let ns = 0;
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const thread of threads) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns;
}

/**
 * The PostgreSQL server processes serving connections to `database` (`postgres: <role> <database> …` in their
 * command line), each with its CPU nanoseconds so far. The instances' pools open and close connections, so a
 * difference is taken per process (cpuNsSince): the CPU of a connection that closed between two readings is lost.
 */
export function postgresBackends(database: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `postgres: 15/main: roundtrip <database> 127.0.0.1(51330) idle` (the cluster's name only on some systems)
      const command = /^postgres: (?:\S+: )?\S+ (\S+) /.exec(readFileSync(`/proc/${entry}/cmdline`, 'utf8'));
      if (command?.[1] !== database) continue;
      found.set(Number(entry), processCpuNs(Number(entry)));
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

/** CPU nanoseconds the processes of `now` used since `before` (a process new in `now` counts from 0). */
export function cpuNsSince(before: Map<number, number>, now: Map<number, number>): number {
  let ns = 0;
  for (const [pid, cpu] of now) ns += cpu - (before.get(pid) ?? 0);
  return ns;
}
