// Conversations per second with 1, 2 and 3 instances of the demo over HTTP behind nginx (round-robin, on
// loopback), all on this machine: the instances share one key file and one PostgreSQL database (the demo's
// stores and the effect ledger), as in apps/demo/test/scale-out.test.ts, whose support modules start them.
// A conversation is refund_order's two rounds by the official v2 client pinned to 2026-07-28: the first asks
// to confirm, the retry declines (it opens the sealed state, feeds the answer, settles and answers; nothing
// is refunded, so it repeats). CLIENTS clients run conversations back to back through the proxy.
// Run from the repo root, after `eval "$(bash scripts/services.sh)"`: `pnpm bench:scale-out`.
//
// Each setting is warmed up, then timed for CONVERSATIONS conversations or SECONDS seconds, whichever comes
// first; the figure is conversations per second, and the ratio is over 1 instance. The load generator,
// nginx, the instances and PostgreSQL all share the machine's cores, so this shows how the work spreads,
// not what N machines would serve.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { bundleForNode } from '../apps/demo/test/support/bundle.ts';
import { type DemoInstance, startInstances } from '../apps/demo/test/support/demo-instances.ts';
import { startNginx } from '../apps/demo/test/support/nginx-proxy.ts';
import { main as roundtrip } from '../packages/cli/src/index.ts';
import { createTestDatabase } from '../packages/engine/test/postgres-test-database.ts';

const CLIENTS = 12;
const WARM_UP = 60;
const CONVERSATIONS = 1500;
const SECONDS = 20;

type Round = { requestState?: string; structuredContent?: { status?: string } };
const manual = { allowInputRequired: true } as const;
const args = { order_id: 'ord_51' };

async function conversation(client: Client): Promise<void> {
  const ask = (await client.callTool({ name: 'refund_order', arguments: args }, manual)) as Round;
  const retry = { requestState: ask.requestState, inputResponses: { confirm: { action: 'decline' } } };
  const kept = (await client.callTool({ name: 'refund_order', arguments: args, ...retry } as never, manual)) as Round;
  if (kept.structuredContent?.status !== 'kept') throw new Error(`expected the declined refund to be kept: ${JSON.stringify(kept)}`);
}

/** Runs conversations on every client until `count` are done or `seconds` have passed; returns done / elapsed s. */
async function measure(clients: Client[], count: number, seconds: number): Promise<{ done: number; perSecond: number }> {
  let started = 0;
  let done = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (started < count && performance.now() < deadline) {
        started++;
        await conversation(client);
        done++;
      }
    }),
  );
  return { done, perSecond: done / ((performance.now() - start) / 1000) };
}

/** CPU seconds (user + system) used so far by the processes `match` picks (by pid or command name), from /proc (Linux). */
function cpuOf(match: (pid: number, comm: string) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!match(Number(entry), comm)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-scale-out-'));
const db = await createTestDatabase();
type Cpu = { client: number; instances: number; nginx: number; postgres: number };
const results: { instances: number; done: number; perSecond: number; cpu: Cpu }[] = [];
const instances: DemoInstance[] = [];
try {
  const [stores, ledger, launcher] = await Promise.all([
    db.freshSchema(),
    db.freshSchema(),
    bundleForNode(new URL('../apps/demo/src/http-server.ts', import.meta.url), join(dir, 'http-server.mjs')),
  ]);
  const keyFile = join(dir, 'keys');
  const silent = { write: () => true };
  await roundtrip(['keys', 'new', keyFile], { out: silent, err: process.stderr, cwd: process.cwd() });
  instances.push(...(await startInstances({ launcher, keyFile, db: stores.url, ledger: ledger.url, home: dir }, 3)));
  for (const count of [1, 2, 3]) {
    const proxy = await startNginx(instances.slice(0, count).map((instance) => instance.port));
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const client = new Client(
          { name: 'bench', version: '0' },
          {
            capabilities: { elicitation: { form: {} } },
            versionNegotiation: { mode: { pin: '2026-07-28' } },
            inputRequired: { autoFulfill: false },
          },
        );
        await client.connect(new StreamableHTTPClientTransport(proxy.url));
        return client;
      }),
    );
    try {
      await measure(clients, WARM_UP, SECONDS);
      const cpuNow = (): Cpu => {
        const pids = new Set(instances.map((instance) => instance.pid()));
        return {
          client: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
          instances: cpuOf((pid) => pids.has(pid)),
          nginx: cpuOf((_, comm) => comm === 'nginx'),
          postgres: cpuOf((_, comm) => comm === 'postgres'),
        };
      };
      const before = cpuNow();
      const measured = await measure(clients, CONVERSATIONS, SECONDS);
      const after = cpuNow();
      const cpu = Object.fromEntries(
        Object.entries(after).map(([part, seconds]) => [part, (seconds - before[part as keyof Cpu]) / measured.done]),
      ) as Cpu;
      results.push({ instances: count, ...measured, cpu });
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await proxy.stop();
    }
  }
} finally {
  await Promise.all(instances.map((instance) => instance.stop()));
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
}

const one = results[0]!.perSecond;
console.log(
  `Conversations per second (refund_order: ask, then decline; ${CLIENTS} clients through nginx; ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(1)}):`,
);
for (const { instances: count, done, perSecond } of results)
  console.log(
    `  ${count} instance${count > 1 ? 's' : ' '}  ${perSecond.toFixed(1).padStart(6)} /s  (${done} conversations)  × ${(perSecond / one).toFixed(2)}`,
  );
console.log('CPU ms per conversation (user + system; postgres counts every postgres process on the machine):');
const ms = (seconds: number) => (seconds * 1000).toFixed(2);
for (const { instances: count, cpu } of results) {
  const total = cpu.client + cpu.instances + cpu.nginx + cpu.postgres;
  console.log(
    `  ${count} instance${count > 1 ? 's' : ' '}  instances ${ms(cpu.instances)}, client ${ms(cpu.client)}, nginx ${ms(cpu.nginx)}, postgres ${ms(cpu.postgres)}; total ${ms(total)}`,
  );
}
