// Conversations per second with 1, 2 and 3 instances of the demo over HTTP behind nginx (round-robin, on
// loopback), all on this machine: the instances share one key file and one PostgreSQL database (the demo's
// stores and the effect ledger), as in apps/demo/test/scale-out.test.ts (demo-cluster.ts starts them).
// A conversation is refund_order's two rounds by the official v2 client pinned to 2026-07-28: the first asks
// to confirm, the retry declines (it opens the sealed state, feeds the answer, settles and answers; nothing
// is refunded, so it repeats). CLIENTS clients run conversations back to back through the proxy.
// Run from the repo root, after `eval "$(bash scripts/services.sh)"`: `pnpm bench:scale-out`.
//
// Each setting is warmed up, then timed for CONVERSATIONS conversations or SECONDS seconds, whichever comes
// first; the figure is conversations per second, and the ratio is over 1 instance. The load generator,
// nginx, the instances and PostgreSQL all share the machine's cores, so this shows how the work spreads,
// not what N machines would serve.

import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/client';
import { startNginx } from '../apps/demo/test/support/nginx-proxy.ts';
import { startDemoCluster } from './demo-cluster.ts';
import { connectHttp } from './e2e-servers.ts';
import { conversation } from './e2e-stats.ts';
import { cpuSecondsOf } from './proc-cpu.ts';

const CLIENTS = 12;
const WARM_UP = 60;
const CONVERSATIONS = 1500;
const SECONDS = 20;

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

type Cpu = { client: number; instances: number; nginx: number; postgres: number };
const results: { instances: number; done: number; perSecond: number; cpu: Cpu }[] = [];
const cluster = await startDemoCluster('scale-out', 3);
const { instances } = cluster;
try {
  for (const count of [1, 2, 3]) {
    const proxy = await startNginx(instances.slice(0, count).map((instance) => instance.port));
    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connectHttp(proxy.url)));
    try {
      await measure(clients, WARM_UP, SECONDS);
      const cpuNow = (): Cpu => {
        const pids = new Set(instances.map((instance) => instance.pid()));
        return {
          client: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
          instances: cpuSecondsOf((pid) => pids.has(pid)),
          nginx: cpuSecondsOf((_, comm) => comm === 'nginx'),
          postgres: cpuSecondsOf((_, comm) => comm === 'postgres'),
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
  await cluster.stop();
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
