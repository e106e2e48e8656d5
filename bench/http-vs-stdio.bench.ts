// Latency of one MRTR round of the demo's `refund_order` over Streamable HTTP against the same round over
// stdio: the demo server as hosts run it (its launchers, through tsx), one process per transport, the
// official v2 client pinned to 2026-07-28 on each. A round is the retry that carries a decline (it opens
// the sealed state, feeds the answer, settles and answers; no refund is made), after a first round that
// asked. Run from the repo root: `npx tsx bench/http-vs-stdio.bench.ts`.
//
// The two transports are timed in alternating blocks, and the figure is the median over every round of
// each; the ratio is HTTP's median over stdio's. Absolute milliseconds depend on the machine.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectDemoClient } from '../apps/demo/src/connect-demo-client.ts';
import { generateKey } from '../packages/engine/src/index.ts';

const BLOCKS = 10;
const ROUNDS_PER_BLOCK = 30;
const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-http-'));
const env = { ROUNDTRIP_DB: join(dir, 'orders.db'), ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada' };

type Round = { requestState?: string };
const manual = { allowInputRequired: true } as const;

/** Times `count` rounds: each a first round that asks (untimed), then the timed retry that declines. */
async function timeRounds(client: Client, count: number, into: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const ask = (await client.callTool({ name: 'refund_order', arguments: { order_id: 'ord_51' } }, manual)) as Round;
    const retry = { requestState: ask.requestState, inputResponses: { confirm: { action: 'decline' } } };
    const start = performance.now();
    await client.callTool({ name: 'refund_order', arguments: { order_id: 'ord_51' }, ...retry } as never, manual);
    into.push(performance.now() - start);
  }
}

async function startHttpDemo(): Promise<{ child: ChildProcess; url: URL }> {
  const launcher = fileURLToPath(new URL('../apps/demo/bin/roundtrip-demo-http.mjs', import.meta.url));
  const child = spawn(process.execPath, [launcher], { env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      const match = / over HTTP at (\S+) /.exec(log);
      if (match && log.includes('demo: database at')) resolve(new URL(match[1]!));
    });
    child.on('exit', () => reject(new Error(`the HTTP demo exited:\n${log}`)));
  });
  return { child, url };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const stdio = await connectDemoClient({ era: 'modern', env });
const http = await startHttpDemo();
const httpClient: Client = new Client(
  { name: 'bench', version: '0' },
  {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
    inputRequired: { autoFulfill: false },
  },
);
await httpClient.connect(new StreamableHTTPClientTransport(http.url));

const samples = { stdio: [] as number[], http: [] as number[] };
try {
  // warm-up: the JIT, the connection pool, SQLite's page cache
  await timeRounds(stdio.client, 20, []);
  await timeRounds(httpClient, 20, []);
  for (let block = 0; block < BLOCKS; block++) {
    const order = block % 2 === 0 ? (['stdio', 'http'] as const) : (['http', 'stdio'] as const);
    for (const transport of order)
      await timeRounds(transport === 'stdio' ? stdio.client : httpClient, ROUNDS_PER_BLOCK, samples[transport]);
  }
} finally {
  await httpClient.close();
  http.child.kill('SIGTERM');
  await stdio.close();
  rmSync(dir, { recursive: true, force: true });
}

const stdioMs = median(samples.stdio);
const httpMs = median(samples.http);
console.log(`One MRTR round of refund_order (a retry that declines), median of ${samples.stdio.length} rounds each:`);
console.log(`  stdio  ${stdioMs.toFixed(2)} ms`);
console.log(`  HTTP   ${httpMs.toFixed(2)} ms`);
console.log(`  HTTP / stdio = ${(httpMs / stdioMs).toFixed(2)}`);
