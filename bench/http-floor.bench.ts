// Server CPU of an HTTP conversation against its floor, in one run: refund_order conversations (ask, then
// decline) on ours (the demo's HTTP server as shipped, apps/demo/src/http-server.ts), the SDK-only peer
// (bench/peers/peer-http.ts) and a bare node:http floor answering the bytes ours answered for the same
// conversation (http-floor-server.ts, recorded once: http-floor-answers.ts), all three driven by the same raw
// light client (light-client.ts) and bundled by the same esbuild. Sides run in batches, the order of the three
// changed every batch; each side's server CPU comes from the /proc schedstat of each of its threads
// (nanoseconds: V8's compiler and GC threads count). Printed: server CPU ms per conversation of each side,
// ours/peer and ours/floor, and the latency ratio ours/peer (median of the per-batch median ratios), at 20 in
// flight and sequentially.
// `pnpm bench:http` (about 45 s; CPU_PROF=<dir> profiles ours); `pnpm bench:http --guard` (about 20 s: 20 in flight only) ends with the line
// `ours/floor <ratio>` that bench/check-http-guard.mjs compares with BENCHMARKS.md's baseline.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleForNode } from '../apps/demo/test/support/bundle.ts';
import { prepareFiles, startHttp } from './e2e-servers.ts';
import { load, median } from './e2e-stats.ts';
import { recordAnswers } from './http-floor-answers.ts';
import { type LightClient, lightClient } from './light-client.ts';

const guard = process.argv.includes('--guard');
// CPU_PROF=<dir>: ours runs with --cpu-prof into that folder (its bundle copied beside, for bench/profile-summary.mjs)
const profileDir = process.env.CPU_PROF;
const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const IN_FLIGHT = 20;
/** 20 in flight: each client's conversations before timing, per batch, and the batches timed. */
const WARM_UP_PER_CLIENT = guard ? 40 : 60;
const PER_CLIENT_PER_BATCH = 5;
const IN_FLIGHT_BATCHES = guard ? 30 : 72;
const SEQUENTIAL_PER_BATCH = 30;
const SEQUENTIAL_BATCHES = 48;

type Side = 'ours' | 'peer' | 'floor';
const SIDES: readonly Side[] = ['ours', 'peer', 'floor'];
/** The six orders of the three sides, one a batch in turn: each side runs first, second and third equally often. */
const ORDERS: readonly (readonly Side[])[] = [
  ['ours', 'peer', 'floor'],
  ['floor', 'peer', 'ours'],
  ['peer', 'floor', 'ours'],
  ['ours', 'floor', 'peer'],
  ['floor', 'ours', 'peer'],
  ['peer', 'ours', 'floor'],
];

/** CPU ns a process's threads have run so far (/proc/<pid>/task/<tid>/schedstat, Linux). */
function cpuNsOf(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns;
}

interface Running {
  url: URL;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the floor server from its bundle, answering the answers recorded in `answersFile`. */
async function startFloor(dir: string, answersFile: string): Promise<Running> {
  const bundle = await bundleForNode(new URL('./http-floor-server.ts', import.meta.url), join(dir, 'floor-http.mjs'));
  const child: ChildProcess = spawn(process.execPath, [bundle], {
    env: { ...process.env, HTTP_FLOOR_ANSWERS: answersFile, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      const match = / listening at (http:\/\/\S+)/.exec(log);
      if (match) resolve(new URL(match[1]!));
    });
    child.on('exit', () => reject(new Error(`the floor server exited before it was ready:\n${log}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Samples {
  /** Every conversation's wall ms. */
  all: number[];
  /** Each batch's median ms. */
  batchMedians: number[];
  /** Server CPU ns during the side's batches. */
  cpuNs: number;
}

interface Phase {
  samples: Record<Side, Samples>;
  loadBefore: string;
  loadAfter: string;
}

/** Runs `batches` batches of every side (`clients` clients, `perClient` conversations each), the order changed every batch. */
async function timed(clients: Record<Side, LightClient[]>, pids: Record<Side, number>, batches: number, count: number, perClient: number) {
  const phase: Phase = {
    samples: {
      ours: { all: [], batchMedians: [], cpuNs: 0 },
      peer: { all: [], batchMedians: [], cpuNs: 0 },
      floor: { all: [], batchMedians: [], cpuNs: 0 },
    },
    loadBefore: load(),
    loadAfter: '',
  };
  for (let batch = 0; batch < batches; batch++) {
    for (const side of ORDERS[batch % ORDERS.length]!) {
      const before = cpuNsOf(pids[side]);
      const times = await run(clients[side].slice(0, count), perClient);
      phase.samples[side].cpuNs += cpuNsOf(pids[side]) - before;
      phase.samples[side].all.push(...times);
      phase.samples[side].batchMedians.push(median(times));
    }
  }
  phase.loadAfter = load();
  return phase;
}

/** Each client's `perClient` conversations back to back, the clients at once; their wall ms. */
async function run(clients: LightClient[], perClient: number): Promise<number[]> {
  const lists = await Promise.all(
    clients.map(async (client) => {
      const times: number[] = [];
      for (let i = 0; i < perClient; i++) times.push((await client.conversation()).ms);
      return times;
    }),
  );
  return lists.flat();
}

const f = (x: number) => x.toFixed(2);
const cpuMs = (s: Samples) => s.cpuNs / 1e6 / s.all.length;

/**
 * Prints a phase's figures and returns its CPU ratio ours/floor: the CPU of all of ours' batches over all of the
 * floor's (a ratio of sums: a median of per-batch ratios reads higher, each floor batch being a few ms of CPU).
 */
function report(title: string, { samples, loadBefore, loadAfter }: Phase): number {
  const { ours, peer, floor } = samples;
  const ratios = ours.batchMedians.map((m, i) => m / peer.batchMedians[i]!);
  console.log(
    `\n${title} (load average ${loadBefore} → ${loadAfter}; ${ours.all.length} conversations a side, ${ours.batchMedians.length} batches)`,
  );
  console.log(`  server CPU ms per conversation   ours ${f(cpuMs(ours))}   peer ${f(cpuMs(peer))}   floor ${f(cpuMs(floor))}`);
  console.log(`  server CPU ratios                ours/peer ${f(cpuMs(ours) / cpuMs(peer))}   ours/floor ${f(cpuMs(ours) / cpuMs(floor))}`);
  console.log(
    `  median ms                        ours ${f(median(ours.all))}   peer ${f(median(peer.all))}   floor ${f(median(floor.all))}`,
  );
  console.log(
    `  latency ours/peer, median of per-batch median ratios: ${f(median(ratios))} (batches ${f(Math.min(...ratios))} – ${f(Math.max(...ratios))})`,
  );
  return cpuMs(ours) / cpuMs(floor);
}

const started = performance.now();
const files = await prepareFiles(mkdtempSync(join(tmpdir(), 'roundtrip-bench-http-floor-')));
const servers: Partial<Record<Side, Running>> = {};
const clients: Record<Side, LightClient[]> = { ours: [], peer: [], floor: [] };
try {
  const [ours, peer] = await Promise.all([startHttp(files, 'ours', profile), startHttp(files, 'peer')]);
  servers.ours = { url: ours.url, pid: ours.child.pid!, stop: ours.stop };
  servers.peer = { url: peer.url, pid: peer.child.pid!, stop: peer.stop };
  const answersFile = join(files.dir, 'floor-answers.json');
  writeFileSync(answersFile, JSON.stringify(await recordAnswers(ours.url)));
  servers.floor = await startFloor(files.dir, answersFile);
  const pids = { ours: servers.ours.pid, peer: servers.peer.pid, floor: servers.floor.pid };
  for (const side of SIDES) clients[side] = Array.from({ length: IN_FLIGHT }, () => lightClient(servers[side]!.url));
  console.log(
    `refund_order conversations (ask, then decline) over HTTP, one light client for all: ours (the demo), peer (SDK alone), floor (bare node:http, the same bytes); ${availableParallelism()} cores, Node ${process.version}${guard ? ', guard' : ''}`,
  );
  for (const side of SIDES) await run(clients[side], WARM_UP_PER_CLIENT);
  const ratio = report(
    `${IN_FLIGHT} in flight (${IN_FLIGHT} keep-alive connections)`,
    await timed(clients, pids, IN_FLIGHT_BATCHES, IN_FLIGHT, PER_CLIENT_PER_BATCH),
  );
  if (!guard) report('sequential (one keep-alive connection)', await timed(clients, pids, SEQUENTIAL_BATCHES, 1, SEQUENTIAL_PER_BATCH));
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
  console.log(`ours/floor ${f(ratio)}`);
} finally {
  for (const side of SIDES) for (const client of clients[side]) client.close();
  await Promise.all(SIDES.map((side) => servers[side]?.stop()));
  if (profileDir) copyFileSync(join(files.dir, 'ours-http.mjs'), join(profileDir, 'ours-http.mjs'));
  rmSync(files.dir, { recursive: true, force: true });
}
