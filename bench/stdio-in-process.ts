// The stdio servers of bench:e2e in one process (stdio-line-servers.ts: each on PassThrough streams, driven
// by raw JSON lines), for what each spends on a conversation without the pipes. Batches alternate between the sides,
// with a full GC before each (run with --expose-gc), and each batch's CPU (process.cpuUsage) is divided by
// its conversations: the 10th percentile and the median per side, and their ratios. The line client's
// own work is in both sides' figures. Run through bench/stdio-in-process.bench.ts, which bundles this file.
// Usage: node --expose-gc <bundle> <dir> [batches] [conversations per batch]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDemoStores } from '../apps/demo/src/demo-stores.ts';
import { conversation, type Send, type Side, startLineServer } from './stdio-line-servers.ts';

const [dir, batchesArg, perArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: node --expose-gc <bundle> <dir> [batches] [conversations per batch]');
const BATCHES = Number(batchesArg ?? 30);
const PER = Number(perArg ?? 100);
const WARM_UP = 500;

mkdirSync(dir, { recursive: true });
const db = join(dir, 'orders.db');
const stores = await openDemoStores(db);
const sends: Record<Side, Send> = { ours: await startLineServer('ours', stores, db), peer: await startLineServer('peer', stores, db) };

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
