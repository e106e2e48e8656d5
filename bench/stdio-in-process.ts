// The stdio servers of bench:e2e in one process, for what each spends on a conversation without the pipes:
// ours (the demo's definitions through runStdioServer) and the peer (bench/peers through the SDK's serveStdio
// on its StdioServerTransport), each on PassThrough streams, driven by raw JSON lines (the same two
// requests the official client sends: ask to confirm, then decline). Batches alternate between the sides,
// with a full GC before each (run with --expose-gc), and each batch's CPU (process.cpuUsage) is divided by
// its conversations: the 10th percentile and the median per side, and their ratios. The line client's
// own work is in both sides' figures. Run through bench/stdio-in-process.bench.ts, which bundles this file.
// Usage: node --expose-gc <bundle> <dir> [batches] [conversations per batch]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { createDemoDefinitions } from '../apps/demo/src/demo-definitions.ts';
import { openDemoStores } from '../apps/demo/src/demo-stores.ts';
import { generateKey } from '../packages/engine/src/index.ts';
import { runStdioServer } from '../packages/transport-stdio/src/index.ts';
import { openPeerOrders } from './peers/peer-orders.ts';
import { createRefundPeerFactory } from './peers/refund-peer-server.ts';

type Side = 'ours' | 'peer';
/** Sends one request line and resolves with the next line the server writes. */
type Send = (line: string) => Promise<string>;

const [dir, batchesArg, perArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: node --expose-gc <bundle> <dir> [batches] [conversations per batch]');
const BATCHES = Number(batchesArg ?? 30);
const PER = Number(perArg ?? 100);
const WARM_UP = 500;

/** A server's streams, and the line client on them. */
function streams() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough().resume();
  let waiting: ((line: string) => void) | undefined;
  let buffered = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const resolve = waiting;
      waiting = undefined;
      resolve?.(line);
    }
  });
  const send: Send = (line) =>
    new Promise((resolve) => {
      waiting = resolve;
      stdin.write(`${line}\n`);
    });
  return { stdin, stdout, stderr, send };
}

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
let nextId = 1;
const call = (params: Record<string, unknown>) =>
  JSON.stringify({
    method: 'tools/call',
    params: { name: 'refund_order', arguments: { order_id: 'ord_51' }, ...params, _meta: meta },
    jsonrpc: '2.0',
    id: nextId++,
  });

/** One conversation: the first round asks, the second declines and keeps the order. */
async function conversation(send: Send): Promise<void> {
  const asked = await send(call({}));
  const requestState = /"requestState":"([^"]+)"/.exec(asked)?.[1];
  if (!requestState) throw new Error(`expected the first round to ask: ${asked}`);
  const ended = await send(call({ requestState, inputResponses: { confirm: { action: 'decline' } } }));
  if (!ended.includes('"status":"kept"')) throw new Error(`expected 'kept': ${ended}`);
}

mkdirSync(dir, { recursive: true });
const db = join(dir, 'orders.db');
const stores = await openDemoStores(db);
const ours = streams();
await runStdioServer({
  name: 'roundtrip-demo',
  version: '0.3.0',
  ...createDemoDefinitions(stores),
  ledger: { path: db },
  env: { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada' },
  stdio: { stdin: ours.stdin, stdout: ours.stdout, stderr: ours.stderr },
});
const peer = streams();
serveStdio(createRefundPeerFactory({ orders: openPeerOrders(db), stateKey: generateKey(), principal: 'ada' }), {
  transport: new StdioServerTransport(peer.stdin, peer.stdout),
});
const sends: Record<Side, Send> = { ours: ours.send, peer: peer.send };

for (const side of ['ours', 'peer'] as const) for (let i = 0; i < WARM_UP; i++) await conversation(sends[side]);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc: each batch starts after a full GC');
const perConversation: Record<Side, number[]> = { ours: [], peer: [] };
for (let b = 0; b < BATCHES; b++) {
  for (const side of b % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const)) {
    gc();
    const before = process.cpuUsage();
    for (let i = 0; i < PER; i++) await conversation(sends[side]);
    const used = process.cpuUsage(before);
    perConversation[side].push((used.user + used.system) / PER);
  }
}
const at = (side: Side, p: number) => [...perConversation[side]].sort((x, y) => x - y)[Math.floor((p / 100) * (BATCHES - 1))]!;
const figures = (p: number) => `${at('ours', p).toFixed(0)} / ${at('peer', p).toFixed(0)} = ${(at('ours', p) / at('peer', p)).toFixed(2)}`;
console.log(`µs CPU per conversation, ours / peer: p10 ${figures(10)}, median ${figures(50)} (${BATCHES} batches of ${PER} each)`);
process.exit(0);
