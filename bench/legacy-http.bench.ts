// Benchmark of a 2025-era conversation over HTTP against a 2026-07-28 one, and of the answer relay between
// instances (issue 29). `pnpm bench:legacy-http` (`npx tsx bench/legacy-http.bench.ts`, about 1 minute on 2
// cores); C, D and A-pg need PostgreSQL (ROUNDTRIP_TEST_PG, as the tests: `eval "$(bash scripts/services.sh)"`)
// and are left out, saying so, without it. BENCH_LEGACY_BATCHES, BENCH_LEGACY_PER_BATCH and BENCH_LEGACY_WARM_UP
// change the batches, the conversations per batch and per case before timing.
//
// One conversation = one call of a tool that asks one question and ends (bench/legacy-tool.ts: no timer, no
// effect), the answer checked, through raw JSON-RPC over node:http keep-alive connections from this process
// (bench/legacy-clients.ts: one client for both eras, so what differs is the servers' side), one at a time:
//   A      2026-07-28 on one instance: the call → input_required + requestState; the call with inputResponses →
//          the result (two POSTs; nothing held on the server).
//   B      2025-11-25 on the same instance: the call's POST answered with an SSE stream carrying
//          elicitation/create; the answer POSTed (202) to the same instance (relayed in process); the result on
//          the stream. The client initialized once, before the timing (initialize + notifications/initialized:
//          the session id it got is sent with every call).
//   B+init the same with the client's initialize and notifications/initialized timed too (a client that starts
//          afresh for each call: four POSTs).
//   A-pg   A on the two instances below (calls alternating between them): the baseline of the same setup.
//   C      2025-11-25 on two instances sharing PostgreSQL (ROUNDTRIP_LEDGER = a fresh schema of the test
//          database; the bench makes and drops it): each answer POSTed to the other instance than the call's,
//          which relays it to the holder through LISTEN/NOTIFY and answers 202 once the holder acknowledged
//          (two NOTIFYs). Calls alternate between the two instances.
//   D      the same two instances, the answer POSTed to the call's own instance: C / D is the relay's own cost.
// The servers are child processes (bench/legacy-server.ts bundled by esbuild, as the other benches' servers:
// runHttpServer with SIGTERM handling, so V8 tuned as a deployed server; the one instance's ledger in memory).
//
// Measured per conversation: wall latency as the client sees it (until the result is read and, in 2025, the
// answer's POST is answered), median and p95 over every conversation of a case; server CPU: the run time of
// every thread of the case's server processes over its batches (/proc/<pid>/task/*/schedstat, ns), divided by
// the conversations, so the client's CPU (this process, also printed) is not in it. On PostgreSQL the server
// processes of the bench database's connections are read the same way (postgres CPU): the relay's NOTIFYs and
// the task queue's polling (pg-boss, which servers with a PostgreSQL ledger run), whose idle rate is printed
// first; a connection closed between two readings loses its CPU. Both A-pg and C/D run on the same two instances,
// so that idle work is in both sides of their ratios.
// Method: warm-up (each case WARM_UP conversations, so V8 has compiled the hot paths), then BATCHES batches,
// each case PER_BATCH conversations a batch, the order of the cases flipped every batch. A ratio is the median
// over batches of the per-batch ratio (each case's median wall ms, or its CPU per conversation, over the other's
// of the same batch), with the range over batches. Absolute ms depend on the machine (and on what else runs on
// it) and are printed only to make the ratios checkable.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateKey } from '../packages/engine/src/index.ts';
import { createTestDatabase, type TestDatabase } from '../packages/engine/test/postgres-test-database.ts';
import { fmt, lpad, pad } from './harness.ts';
import {
  legacyConversation,
  legacyInitialize,
  legacyInitializeAndConversation,
  modernConversation,
  type Target,
  targetOf,
} from './legacy-clients.ts';
import { type BenchServer, bundleLegacyServer, cpuNsSince, postgresBackends, processCpuNs, startBenchServer } from './legacy-servers.ts';

const BATCHES = Number(process.env.BENCH_LEGACY_BATCHES ?? 21);
const PER_BATCH = Number(process.env.BENCH_LEGACY_PER_BATCH ?? 150);
const WARM_UP = Number(process.env.BENCH_LEGACY_WARM_UP ?? 1500);
/** How long the idle servers' CPU is read before the warm-up. */
const IDLE_MS = 3000;
const withPostgres = process.env.ROUNDTRIP_TEST_PG?.trim() !== undefined && process.env.ROUNDTRIP_TEST_PG.trim() !== '';

interface Case {
  name: string;
  label: string;
  servers: BenchServer[];
  /** The database whose connections' CPU is charged to the case (the instances on PostgreSQL). */
  database?: string;
  /** The i-th conversation of a batch; resolves with its wall ms. */
  run: (i: number) => Promise<number>;
  ms: number[];
  batchMedians: number[];
  /** Per batch: server, postgres and client CPU ms per conversation. */
  serverCpu: number[];
  postgresCpu: number[];
  clientCpu: number[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)]!;
const serversCpuNs = (servers: BenchServer[]) => servers.reduce((ns, server) => ns + processCpuNs(server.pid), 0);

async function batch(c: Case, count: number, record: boolean): Promise<void> {
  const times: number[] = [];
  const postgresBefore = c.database === undefined ? undefined : postgresBackends(c.database);
  const serverBefore = serversCpuNs(c.servers);
  const clientBefore = process.cpuUsage();
  for (let i = 0; i < count; i++) times.push(await c.run(i));
  const server = serversCpuNs(c.servers) - serverBefore;
  const client = process.cpuUsage(clientBefore);
  const postgres = postgresBefore === undefined ? 0 : cpuNsSince(postgresBefore, postgresBackends(c.database!));
  if (!record) return;
  c.ms.push(...times);
  c.batchMedians.push(median(times));
  c.serverCpu.push(server / 1e6 / count);
  c.postgresCpu.push(postgres / 1e6 / count);
  c.clientCpu.push((client.user + client.system) / 1000 / count);
}

const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-legacy-'));
const servers: BenchServer[] = [];
let db: TestDatabase | undefined;
const load = () => loadavg()[0]!.toFixed(2);
const loadBefore = load();
const started = performance.now();
const cases: Case[] = [];
const idle: string[] = [];
try {
  const script = await bundleLegacyServer(dir);
  const env = { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada' };
  const one = await startBenchServer(script, 'one', { ...env, ROUNDTRIP_LEDGER: ':memory:' });
  servers.push(one);
  const single = targetOf(one.url);
  const singleSession = await legacyInitialize(single);
  const make = (name: string, label: string, on: BenchServer[], run: Case['run'], database?: string): Case => ({
    name,
    label,
    servers: on,
    ...(database !== undefined && { database }),
    run,
    ms: [],
    batchMedians: [],
    serverCpu: [],
    postgresCpu: [],
    clientCpu: [],
  });
  cases.push(
    make('A', '2026-07-28, one instance (two POSTs)', [one], () => modernConversation(single)),
    make('B', '2025-11-25, one instance (SSE + answer POST; initialized before)', [one], () =>
      legacyConversation(single, single, singleSession),
    ),
    make('B+init', '2025-11-25, one instance, initialize timed too', [one], () => legacyInitializeAndConversation(single)),
  );
  if (withPostgres) {
    db = await createTestDatabase();
    const ledger = await db.freshSchema();
    const database = new URL(ledger.url).pathname.slice(1);
    const pair = [
      await startBenchServer(script, 'pg1', { ...env, ROUNDTRIP_LEDGER: ledger.url }),
      await startBenchServer(script, 'pg2', { ...env, ROUNDTRIP_LEDGER: ledger.url }),
    ];
    servers.push(...pair);
    const targets: Target[] = pair.map((server) => targetOf(server.url));
    const session = await legacyInitialize(targets[0]!);
    const at = (i: number) => targets[i % 2]!;
    cases.push(
      make('A-pg', '2026-07-28, two instances on PostgreSQL', pair, (i) => modernConversation(at(i)), database),
      make(
        'C',
        '2025-11-25, two instances, answer to the other (relayed)',
        pair,
        (i) => legacyConversation(at(i), at(i + 1), session),
        database,
      ),
      make('D', '2025-11-25, two instances, answer to the call’s own', pair, (i) => legacyConversation(at(i), at(i), session), database),
    );
    // what the servers and their connections use doing nothing (the task queue polls the database)
    const postgresBefore = postgresBackends(database);
    const before = servers.map((server) => processCpuNs(server.pid));
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const rate = (ns: number) => `${fmt(ns / 1e6 / (IDLE_MS / 1000), 2)} ms/s`;
    servers.forEach((server, i) => void idle.push(`${server.name} ${rate(processCpuNs(server.pid) - before[i]!)}`));
    idle.push(`postgres (the bench database's connections) ${rate(cpuNsSince(postgresBefore, postgresBackends(database)))}`);
  }
  for (const c of cases) await batch(c, WARM_UP, false);
  for (let b = 0; b < BATCHES; b++) for (const c of b % 2 === 0 ? cases : [...cases].reverse()) await batch(c, PER_BATCH, true);
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
}
const seconds = (performance.now() - started) / 1000;

// ─── report ─────────────────────────────────────────────────────────────────────────────────────────

const byName = (name: string) => cases.find((c) => c.name === name);
console.log('Roundtrip benchmark: a one-question conversation over HTTP, 2025-11-25 (SSE + elicitation/create) against 2026-07-28');
console.log(
  `node ${process.version}, ${availableParallelism()} logical cores, load average ${loadBefore} → ${load()}; total ${fmt(seconds)} s`,
);
console.log(
  `method: ${WARM_UP} conversations a case to warm up, then ${BATCHES} batches of ${PER_BATCH} a case in alternating order, one at a time`,
);
if (!withPostgres)
  console.log('A-pg, C and D left out: ROUNDTRIP_TEST_PG is not set (eval "$(bash scripts/services.sh)", or name a server)');
if (idle.length > 0) console.log(`idle CPU before the warm-up: ${idle.join(', ')}`);
console.log(
  `\n${pad('case', 66)} ${lpad('median ms', 9)} ${lpad('p95 ms', 7)} ${lpad('server CPU ms', 13)} ${lpad('postgres CPU ms', 15)} ${lpad('client CPU ms', 13)}`,
);
for (const c of cases)
  console.log(
    `${pad(`${c.name}  ${c.label}`, 66)} ${lpad(fmt(median(c.ms), 3), 9)} ${lpad(fmt(p95(c.ms), 3), 7)} ${lpad(fmt(median(c.serverCpu), 3), 13)} ` +
      `${lpad(c.database === undefined ? '–' : fmt(median(c.postgresCpu), 3), 15)} ${lpad(fmt(median(c.clientCpu), 3), 13)}`,
  );
console.log(
  '(per conversation; CPU: median over batches; server CPU sums the case’s server processes, postgres the bench database’s connections)',
);

const ratio = (xs: number[], ys: number[]) => {
  const rs = xs.map((x, i) => x / ys[i]!);
  return `${lpad(fmt(median(rs), 2), 5)} (${fmt(Math.min(...rs), 2)}–${fmt(Math.max(...rs), 2)})`;
};
const plus = (c: Case) => c.serverCpu.map((x, i) => x + c.postgresCpu[i]!);
console.log('\nratios: median over batches of the per-batch ratio (range over batches)');
console.log(`${pad('', 12)} ${pad('wall (median ms)', 22)} ${pad('server CPU', 22)} server + postgres CPU`);
for (const [a, b] of [
  ['B', 'A'],
  ['B+init', 'A'],
  ['C', 'A'],
  ['D', 'A'],
  ['C', 'D'],
  ['D', 'A-pg'],
  ['C', 'A-pg'],
] as const) {
  const x = byName(a);
  const y = byName(b);
  if (!x || !y) continue;
  const withDb = x.database !== undefined && y.database !== undefined ? ratio(plus(x), plus(y)) : '–';
  console.log(
    `${pad(`${a}/${b}`, 12)} ${pad(ratio(x.batchMedians, y.batchMedians), 22)} ${pad(ratio(x.serverCpu, y.serverCpu), 22)} ${withDb}`,
  );
}
process.exit(0);
