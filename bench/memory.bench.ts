// Memory of a server with many refund_order conversations, RSS of the server process (/proc, VmRSS):
// - in flight: 10,000 conversations asked and not answered (the first round only, its requestState kept
//   by the client), RSS sampled every 1,000;
// - sequential: 10,000 whole conversations (ask, then decline) one after another, RSS every 1,000.
// Ours is the demo (its state travels sealed in requestState: nothing is kept between rounds); the stateful
// peer keeps one live XState actor per conversation until it is answered (bench/peers/stateful-peer-stdio.ts);
// the SDK peer (bench/peers/peer-stdio.ts, signed requestState) keeps nothing either. Every server over
// stdio, bundled, one fresh process per server and scenario. Run from the repo root: `pnpm bench:memory`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { prepareFiles, type StdioSide, startStdio } from './e2e-servers.ts';
import { conversation, load } from './e2e-stats.ts';

const TOTAL = 10_000;
const EVERY = 1_000;
/** Requests kept in flight at once while asking (the client's side; the server keeps nothing of them unless stateful). */
const PARALLEL = 8;
const SIDES: StdioSide[] = ['ours', 'stateful', 'peer'];

const rssMiB = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
};

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
const samples: Record<Scenario, Record<string, number[]>> = { 'in flight': {}, sequential: {} };

const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-memory-'));
const files = await prepareFiles(dir);
const loadBefore = load();
const started = performance.now();
try {
  for (const scenario of ['in flight', 'sequential'] as const) {
    for (const side of SIDES) {
      const server = await startStdio(files, side);
      const rss = [rssMiB(server.pid)];
      const kept: string[] = [];
      try {
        for (let done = 0; done < TOTAL; done += EVERY) {
          if (scenario === 'in flight') kept.push(...(await ask(server.client, EVERY)));
          else for (let i = 0; i < EVERY; i++) await conversation(server.client);
          rss.push(rssMiB(server.pid));
        }
      } finally {
        await server.close();
      }
      samples[scenario][side] = rss;
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const mib = (x: number) => x.toFixed(1).padStart(9);
console.log(
  `Server RSS, MiB (VmRSS), refund_order over stdio; ${availableParallelism()} cores, Node ${process.version}, load average ${loadBefore} → ${load()}, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
for (const scenario of ['in flight', 'sequential'] as const) {
  console.log(
    `\n${scenario === 'in flight' ? 'conversations in flight (asked, not answered)' : 'conversations done one after another (ask, decline)'}`,
  );
  console.log(`${'conversations'.padEnd(14)}${SIDES.map((side) => side.padStart(9)).join('')}`);
  for (let i = 0; i <= TOTAL / EVERY; i++)
    console.log(`${String(i * EVERY).padEnd(14)}${SIDES.map((side) => mib(samples[scenario][side]![i]!)).join('')}`);
  const growth = (side: StdioSide) => {
    const rss = samples[scenario][side]!;
    return ((rss[rss.length - 1]! - rss[1]!) * 1024) / (TOTAL - EVERY);
  };
  console.log(
    `${'KiB per conv.'.padEnd(14)}${SIDES.map((side) => growth(side).toFixed(2).padStart(9)).join('')}  (from ${EVERY} to ${TOTAL})`,
  );
}
