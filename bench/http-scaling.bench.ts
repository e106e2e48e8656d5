// HTTP scaling with a light load generator: conversations per second with 1 and 2 instances of the demo
// behind nginx (round-robin, loopback), driven by autocannon (in this process) instead of the MCP client,
// so that more of the two cores go to the instances. A conversation is refund_order's two requests on one
// connection: the first asks to confirm (its requestState read from the answer), the retry declines and
// must come back `kept`. The instances share one key file and one PostgreSQL database (stores and ledger),
// as in bench/scale-out.bench.ts (demo-cluster.ts starts them).
// Run from the repo root, after `eval "$(bash scripts/services.sh)"`: `pnpm bench:http-scaling` (about 90 s).
//
// Settings run in alternating order (1, 2, 2, 1, 1, 2, …), each RUN_SECONDS after a warm-up; the ratio is
// the median over pairs of 2 instances' rate / 1 instance's. All of it (autocannon, nginx, the instances,
// PostgreSQL) shares the machine's cores: the ratio shows how the work spreads, not what 2 machines serve.
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { startNginx } from '../apps/demo/test/support/nginx-proxy.ts';
import { startDemoCluster } from './demo-cluster.ts';
import { load, median } from './e2e-stats.ts';
import { MODERN_META, REFUND_CALL_HEADERS } from './light-client.ts';
import { cpuSecondsOf } from './proc-cpu.ts';

const CONNECTIONS = 20;
const RUN_SECONDS = 8;
const PAIRS = 4;
const WARM_UP_SECONDS = 3;

const params = { name: 'refund_order', arguments: { order_id: 'ord_51' }, _meta: MODERN_META };
const headers = REFUND_CALL_HEADERS;

type Tally = { kept: number; failed: number; lastFailure: string };

/** One autocannon run of `seconds` against `url`; returns conversations per second (only those that ended `kept`). */
async function run(url: URL, seconds: number): Promise<{ perSecond: number; tally: Tally; p99: number }> {
  const tally: Tally = { kept: 0, failed: 0, lastFailure: '' };
  const fail = (why: string) => {
    tally.failed++;
    tally.lastFailure = why;
  };
  const result = await autocannon({
    url: url.href,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
        onResponse: (status, body, context) => {
          const state = status === 200 ? (JSON.parse(body) as { result?: { requestState?: string } }).result?.requestState : undefined;
          if (state === undefined) fail(`ask: ${status} ${body.slice(0, 200)}`);
          (context as { requestState?: string }).requestState = state;
        },
      },
      {
        method: 'POST',
        headers,
        setupRequest: (request, context) => ({
          ...request,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: {
              ...params,
              requestState: (context as { requestState?: string }).requestState,
              inputResponses: { confirm: { action: 'decline' } },
            },
          }),
        }),
        onResponse: (status, body) => {
          if (status === 200 && body.includes('"status":"kept"')) tally.kept++;
          else fail(`retry: ${status} ${body.slice(0, 200)}`);
        },
      },
    ],
  });
  return { perSecond: tally.kept / (result.duration || seconds), tally, p99: result.latency.p99 };
}

type Cpu = { instances: number; nginx: number; postgres: number; generator: number };
const rows: { instances: number; perSecond: number; p99: number; load: string; cpuMsPerConversation: Cpu }[] = [];
const cluster = await startDemoCluster('http-scaling', 2);
const { instances } = cluster;
try {
  const ports = instances.map((instance) => instance.port);
  const proxy = await startNginx(ports);
  try {
    const cpuNow = (): Cpu => {
      const pids = new Set(instances.map((instance) => instance.pid()));
      const self = process.cpuUsage();
      return {
        instances: cpuSecondsOf((pid) => pids.has(pid)),
        nginx: cpuSecondsOf((_, comm) => comm === 'nginx'),
        postgres: cpuSecondsOf((_, comm) => comm === 'postgres'),
        generator: (self.user + self.system) / 1e6,
      };
    };
    for (const count of [1, 2]) {
      await proxy.route(ports.slice(0, count));
      await run(proxy.url, WARM_UP_SECONDS);
    }
    for (let pair = 0; pair < PAIRS; pair++) {
      for (const count of pair % 2 === 0 ? [1, 2] : [2, 1]) {
        await proxy.route(ports.slice(0, count));
        const before = cpuNow();
        const measured = await run(proxy.url, RUN_SECONDS);
        const after = cpuNow();
        if (measured.tally.failed > 0)
          throw new Error(`${measured.tally.failed} conversations failed; the last: ${measured.tally.lastFailure}`);
        const done = measured.perSecond * RUN_SECONDS;
        const cpuMsPerConversation = Object.fromEntries(
          Object.entries(after).map(([part, seconds]) => [part, ((seconds - before[part as keyof Cpu]) * 1000) / done]),
        ) as Cpu;
        rows.push({ instances: count, perSecond: measured.perSecond, p99: measured.p99, load: load(), cpuMsPerConversation });
      }
    }
  } finally {
    await proxy.stop();
  }
} finally {
  await cluster.stop();
}

console.log(
  `Conversations per second through nginx (refund_order: ask, then decline), autocannon with ${CONNECTIONS} connections, ${RUN_SECONDS} s runs; ${availableParallelism()} cores, Node ${process.version}`,
);
console.log('run  instances  conv/s   p99 ms (per request)  load   CPU ms per conversation: instances, nginx, postgres, autocannon');
const f = (x: number) => x.toFixed(2);
rows.forEach((row, i) => {
  const cpu = row.cpuMsPerConversation;
  console.log(
    `${String(i + 1).padEnd(5)}${String(row.instances).padEnd(11)}${row.perSecond.toFixed(1).padStart(6)}   ${String(row.p99).padStart(6)}                ${row.load.padStart(5)}  ${f(cpu.instances)}, ${f(cpu.nginx)}, ${f(cpu.postgres)}, ${f(cpu.generator)}`,
  );
});
const ones = rows.filter((row) => row.instances === 1).map((row) => row.perSecond);
const twos = rows.filter((row) => row.instances === 2).map((row) => row.perSecond);
const ratios = twos.map((two, i) => two / ones[i]!);
console.log(
  `median conv/s: 1 instance ${median(ones).toFixed(1)}, 2 instances ${median(twos).toFixed(1)}; 2 / 1 per pair: median ${f(median(ratios))} (${ratios.map(f).join(', ')})`,
);
