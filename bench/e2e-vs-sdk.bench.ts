// End to end against the SDK alone: refund_order conversations (ask to confirm, then decline: two rounds,
// nothing refunded) on our demo server and on the peer in bench/peers (the same tool hand-written on the
// official SDK), over real stdio processes and over stateless Streamable HTTP (sequential, and 20 in
// flight), the official v2 client pinned to 2026-07-28; 20 in flight once more from a light client
// (light-client.ts) that leaves the cores to the servers. Both servers are bundled by the same esbuild and
// read the same SQLite orders file. Run from the repo root: `pnpm bench:e2e [stdio|http|light|accept|all]`
// (about two minutes for all; `light` is the light client's part alone, 20 in flight and sequential; `accept`, not part of all, times
// confirmed refunds instead, each of another order). With
// CPU_PROF=<dir> the servers run with --cpu-prof into that folder (CPU_PROF_INTERVAL=<µs> samples more
// often than every 1,000 µs), and the bundles are copied beside the profiles for bench/profile-summary.mjs to
// name each function's source module; OURS_NODE_ARGS and PEER_NODE_ARGS (space-separated) give one side's
// servers node flags of their own (e.g. PEER_NODE_ARGS=--interrupt-budget=16896 tunes the peer's tier-up as
// ours tunes itself: BENCHMARKS.md, "Tier-up"); BENCH_LEDGER=:memory: puts our effect
// ledger in memory, PEER_SYNCHRONOUS=FULL makes the peer's commits durable, PEER_EXACTLY_ONCE=1
// runs the peer's claim, refund and outcome in one durable transaction (what `accept` is about),
// PEER_PARSED_BODY=1 has the HTTP peer hand the SDK each body parsed, as our listener does.
//
// Sides run in alternating batches (the order flipped every batch); a figure is the median of the
// per-batch median ratios ours / peer, and the p99 of every conversation of each side, also less the
// bench process's own GC pauses during each conversation (bench/own-gc-pauses.ts).
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, prepareFiles, refundableOrder, type Side, startHttp, startStdio } from './e2e-servers.ts';
import { alternate, conversation, report } from './e2e-stats.ts';
import { type LightClient, lightClient } from './light-client.ts';
import type { Timed } from './own-gc-pauses.ts';

const which = process.argv[2] ?? 'all';
if (!['stdio', 'http', 'light', 'accept', 'all'].includes(which))
  throw new Error(`unknown part '${which}': give stdio, http, light, accept or all.`);
const BATCHES = 20;
const SEQUENTIAL_PER_BATCH = 50;
const IN_FLIGHT = 20;
const PER_CLIENT_PER_BATCH = 10;
// Sequential parts are timed twice: just started (after WARM_UP conversations a side), then warm. Both
// servers' CPU per conversation keeps falling for about 2,500 conversations while V8 compiles their hot code
// (TurboFan, on a thread of its own that /proc counts): ours has about twice the peer's code to compile
// (bench/warm-up.bench.ts: 961 against 451 ms of TurboFan over 3,000 conversations), and CPU, wall-time
// ratios and tails differ between the two phases; a desktop host's server rarely leaves the first.
const WARM_UP = 200;
const WARM_AFTER = 3_000;
// 20 in flight: each client's conversations before timing (1,000 a side), and the batches timed. With 5 a
// client, both sides' batch medians still fell for eight batches (43 → 20 ms); the pooled p99 of 2,000 a side
// is the second-worst stall of ~20 conversations at once, so it moved by 0.4 from run to run.
const IN_FLIGHT_WARM_UP = 50;
const IN_FLIGHT_BATCHES = 40;

const profileDir = process.env.CPU_PROF;
const nodeArgs = profileDir
  ? [
      '--cpu-prof',
      `--cpu-prof-dir=${profileDir}`,
      ...(process.env.CPU_PROF_INTERVAL ? [`--cpu-prof-interval=${process.env.CPU_PROF_INTERVAL}`] : []),
    ]
  : [];
const sideArgs = (side: Side) => [
  ...nodeArgs,
  ...(process.env[side === 'ours' ? 'OURS_NODE_ARGS' : 'PEER_NODE_ARGS'] ?? '').split(' ').filter(Boolean),
];
const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-e2e-'));
// the settings of the header: our ledger's place, the peer's durability and its one-transaction ledger
const files = await prepareFiles(dir, {
  ...(process.env.BENCH_LEDGER && { ROUNDTRIP_LEDGER: process.env.BENCH_LEDGER }),
  ...(process.env.PEER_SYNCHRONOUS && { PEER_SYNCHRONOUS: process.env.PEER_SYNCHRONOUS }),
  ...(process.env.PEER_EXACTLY_ONCE && { PEER_EXACTLY_ONCE: process.env.PEER_EXACTLY_ONCE }),
  ...(process.env.PEER_PARSED_BODY && { PEER_PARSED_BODY: process.env.PEER_PARSED_BODY }),
});

const pidsOf = (servers: Record<Side, { pid: number }>) => ({ ours: servers.ours.pid, peer: servers.peer.pid });
const httpPids = (servers: Record<Side, { child: { pid?: number | undefined } }>) => ({
  ours: servers.ours.child.pid!,
  peer: servers.peer.child.pid!,
});

async function sequential(client: Client, count: number): Promise<Timed[]> {
  const times: Timed[] = [];
  for (let i = 0; i < count; i++) times.push(await conversation(client));
  return times;
}

async function concurrent(clients: Client[], perClient: number): Promise<Timed[]> {
  const lists = await Promise.all(clients.map((client) => sequential(client, perClient)));
  return lists.flat();
}

/** Warms both sides up with `run`, times alternating batches of it (just started), warms them on to WARM_AFTER and times them again (warm). */
async function twoPhases(title: string, run: (side: Side, count: number) => Promise<Timed[]>, pids: Record<Side, number>): Promise<void> {
  for (const side of ['ours', 'peer'] as const) await run(side, WARM_UP);
  report(`${title}, just started (after ${WARM_UP} a side)`, await alternate(BATCHES, (side) => run(side, SEQUENTIAL_PER_BATCH), pids));
  const more = WARM_AFTER - WARM_UP - BATCHES * SEQUENTIAL_PER_BATCH;
  for (const side of ['ours', 'peer'] as const) await run(side, more);
  report(`${title}, warm (after ${WARM_AFTER} a side)`, await alternate(BATCHES, (side) => run(side, SEQUENTIAL_PER_BATCH), pids));
}

/** Both sides over stdio: each warmed up with `run`, then timed in alternating batches of it, reported under `title`. */
async function overStdio(title: string, run: (client: Client, count: number) => Promise<Timed[]>): Promise<void> {
  const servers = { ours: await startStdio(files, 'ours', sideArgs('ours')), peer: await startStdio(files, 'peer', sideArgs('peer')) };
  try {
    await twoPhases(title, (side, count) => run(servers[side].client, count), pidsOf(servers));
  } finally {
    await Promise.all([servers.ours.close(), servers.peer.close()]);
  }
}

/**
 * The light client's part (light-client.ts), which leaves the cores to the servers: 20 in flight, then one client
 * sequentially (both servers warm by then).
 */
async function lightParts(servers: Record<Side, { url: URL; child: { pid?: number | undefined } }>): Promise<void> {
  const light: Record<Side, LightClient[]> = {
    ours: Array.from({ length: IN_FLIGHT }, () => lightClient(servers.ours.url)),
    peer: Array.from({ length: IN_FLIGHT }, () => lightClient(servers.peer.url)),
  };
  const batch = (side: Side, clients: number, perClient: number) =>
    Promise.all(
      light[side].slice(0, clients).map(async (client) => {
        const times: Timed[] = [];
        for (let i = 0; i < perClient; i++) times.push(await client.conversation());
        return times;
      }),
    ).then((lists) => lists.flat());
  try {
    for (const side of ['ours', 'peer'] as const) await batch(side, IN_FLIGHT, IN_FLIGHT_WARM_UP);
    report(
      `HTTP, ${IN_FLIGHT} in flight, light client (${IN_FLIGHT} keep-alive connections, raw JSON: bench/light-client.ts)`,
      await alternate(IN_FLIGHT_BATCHES, (side) => batch(side, IN_FLIGHT, PER_CLIENT_PER_BATCH), httpPids(servers)),
      true,
    );
    report(
      'HTTP, sequential, light client (one keep-alive connection, warm)',
      await alternate(BATCHES, (side) => batch(side, 1, SEQUENTIAL_PER_BATCH), httpPids(servers)),
    );
  } finally {
    for (const client of [...light.ours, ...light.peer]) client.close();
  }
}

console.log(
  `refund_order conversations (ask, then decline), ours (the demo) / peer (SDK alone); ${availableParallelism()} cores, Node ${process.version}`,
);
try {
  if (which === 'accept') {
    // a confirmed refund, each of another order: ours runs it once through the effect ledger (claim, the
    // store's transaction, outcome), the peer in the store's one transaction
    let next = 0;
    const refunds = async (client: Client, count: number) => {
      const times: Timed[] = [];
      for (let i = 0; i < count; i++) times.push(await conversation(client, refundableOrder(next++), 'accept'));
      return times;
    };
    await overStdio('stdio, sequential, confirmed refunds (accept)', refunds);
  }
  if (which === 'stdio' || which === 'all') await overStdio('stdio, sequential', sequential);
  if (which === 'light') {
    const servers = { ours: await startHttp(files, 'ours', sideArgs('ours')), peer: await startHttp(files, 'peer', sideArgs('peer')) };
    try {
      await lightParts(servers);
    } finally {
      await Promise.all([servers.ours.stop(), servers.peer.stop()]);
    }
  }
  if (which === 'http' || which === 'all') {
    const servers = { ours: await startHttp(files, 'ours', sideArgs('ours')), peer: await startHttp(files, 'peer', sideArgs('peer')) };
    const clients: Record<Side, Client[]> = { ours: [], peer: [] };
    try {
      for (const side of ['ours', 'peer'] as const)
        clients[side] = await Promise.all(Array.from({ length: IN_FLIGHT }, () => connectHttp(servers[side].url)));
      await twoPhases('HTTP, sequential (one client)', (side, count) => sequential(clients[side][0]!, count), httpPids(servers));
      for (const side of ['ours', 'peer'] as const) await concurrent(clients[side], IN_FLIGHT_WARM_UP);
      report(
        `HTTP, ${IN_FLIGHT} in flight (${IN_FLIGHT} clients, conversations back to back)`,
        await alternate(IN_FLIGHT_BATCHES, (side) => concurrent(clients[side], PER_CLIENT_PER_BATCH), httpPids(servers)),
        true,
      );
      await lightParts(servers);
    } finally {
      await Promise.all([...clients.ours, ...clients.peer].map((client) => client.close()));
      await Promise.all([servers.ours.stop(), servers.peer.stop()]);
    }
  }
} finally {
  // the profiles name the bundles' paths, which go with dir: a copy of each is kept beside them
  if (profileDir) for (const name of readdirSync(dir)) if (name.endsWith('.mjs')) copyFileSync(join(dir, name), join(profileDir, name));
  rmSync(dir, { recursive: true, force: true });
}
