// Memory of a server with many refund_order conversations, RSS of the server process (/proc, VmRSS):
// - in flight: 10,000 conversations asked and not answered (the first round only, its requestState kept
//   by the client), RSS sampled every 1,000;
// - sequential: 10,000 whole conversations (ask, then decline) one after another, RSS every 1,000.
// Ours is the demo (its state travels sealed in requestState: nothing is kept between rounds); the stateful
// peer keeps one live XState actor per conversation until it is answered (bench/peers/stateful-peer-stdio.ts);
// the SDK peer (bench/peers/peer-stdio.ts, signed requestState) keeps nothing either. Every server over
// stdio, bundled, one fresh process per server and scenario. Run from the repo root: `pnpm bench:memory`.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { prepareFiles, type StdioServer, type StdioSide, startStdio } from './e2e-servers.ts';
import { conversation, load } from './e2e-stats.ts';

const TOTAL = 10_000;
const EVERY = 1_000;
/** Requests kept in flight at once while asking (the client's side; the server keeps nothing of them unless stateful). */
const PARALLEL = 8;
const SIDES: StdioSide[] = ['ours', 'stateful', 'peer'];
const WARM_UP = 200;

const PROBE = ['--expose-gc', '--import', fileURLToPath(new URL('./memory-probe.mjs', import.meta.url))];

/** The server's RSS and live heap, MiB, right after a full GC (memory-probe.mjs answers SIGUSR2). */
async function measure(server: StdioServer): Promise<{ rss: number; heap: number }> {
  const line = server.nextStderrLine(/^\[memory-probe\] /);
  process.kill(server.pid, 'SIGUSR2');
  const match = /rss (\d+) heapUsed (\d+)/.exec(await line);
  if (!match) throw new Error(`the memory probe wrote an unexpected line: ${await line}`);
  return { rss: Number(match[1]) / 2 ** 20, heap: Number(match[2]) / 2 ** 20 };
}

type Round = { requestState?: string };
const manual = { allowInputRequired: true } as const;

/** Asks `count` first rounds, PARALLEL at a time; returns their requestStates. */
async function ask(client: Client, count: number): Promise<string[]> {
  const states: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < count) {
        next++;
        const round = (await client.callTool({ name: 'refund_order', arguments: { order_id: 'ord_51' } }, manual)) as Round;
        if (typeof round.requestState !== 'string') throw new Error(`expected the first round to ask: ${JSON.stringify(round)}`);
        states.push(round.requestState);
      }
    }),
  );
  return states;
}

type Scenario = 'in flight' | 'sequential';
type Sample = { rss: number; heap: number };
const samples: Record<Scenario, Partial<Record<StdioSide, Sample[]>>> = { 'in flight': {}, sequential: {} };

const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-memory-'));
const files = await prepareFiles(dir);
const loadBefore = load();
const started = performance.now();
try {
  for (const scenario of ['in flight', 'sequential'] as const) {
    for (const side of SIDES) {
      const server = await startStdio(files, side, PROBE);
      const kept: string[] = [];
      try {
        for (let i = 0; i < WARM_UP; i++) await conversation(server.client);
        const taken = [await measure(server)];
        for (let done = 0; done < TOTAL; done += EVERY) {
          if (scenario === 'in flight') kept.push(...(await ask(server.client, EVERY)));
          else for (let i = 0; i < EVERY; i++) await conversation(server.client);
          taken.push(await measure(server));
        }
        samples[scenario][side] = taken;
      } finally {
        await server.close();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `Server memory after a full GC, MiB, refund_order over stdio; ${availableParallelism()} cores, Node ${process.version}, load average ${loadBefore} → ${load()}, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`Each server warmed up with ${WARM_UP} whole conversations first; RSS (resident set) | live heap (heapUsed).`);
const cell = (x: Sample) => `${x.rss.toFixed(1).padStart(11)} ${x.heap.toFixed(1).padStart(7)}`;
for (const scenario of ['in flight', 'sequential'] as const) {
  const title =
    scenario === 'in flight' ? 'conversations in flight (asked, not answered)' : 'conversations done one after another (ask, decline)';
  console.log(`\n${title}`);
  console.log(`${'conversations'.padEnd(14)}${SIDES.map((side) => `${side} rss | heap`.padStart(21)).join('')}`);
  for (let i = 0; i <= TOTAL / EVERY; i++)
    console.log(`${String(i * EVERY).padEnd(14)}${SIDES.map((side) => `  ${cell(samples[scenario][side]![i]!)}`).join('')}`);
  const growth = (side: StdioSide, of: keyof Sample) => {
    const taken = samples[scenario][side]!;
    return ((taken[taken.length - 1]![of] - taken[1]![of]) * 1024) / (TOTAL - EVERY);
  };
  console.log(
    `${'KiB per conv.'.padEnd(14)}${SIDES.map((side) => `  ${growth(side, 'rss').toFixed(2).padStart(11)} ${growth(side, 'heap').toFixed(2).padStart(7)}`).join('')}  (${EVERY} → ${TOTAL})`,
  );
}
