// One stdio server of bench:e2e alone in this process, from its start (stdio-line-servers.ts: PassThrough
// streams, raw JSON lines): the CPU per conversation of each batch, as V8 compiles the server's hot code.
// Ours tunes V8 first (pretenuring off, tier-up sooner), as the server does when it owns its process. Run through
// bench/warm-up.bench.ts. Usage: node <bundle> <ours|peer> <dir> [batches] [conversations per batch]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDemoStores } from '../apps/demo/src/demo-stores.ts';
import { tuneV8ForServing } from '../packages/mcp/src/node/index.ts';
import { conversation, type Side, startLineServer } from './stdio-line-servers.ts';

const [side, dir, batchesArg, perArg] = process.argv.slice(2) as [Side, string, string?, string?];
if ((side !== 'ours' && side !== 'peer') || !dir) throw new Error('usage: node <bundle> <ours|peer> <dir> [batches] [per batch]');
if (side === 'ours') tuneV8ForServing();
mkdirSync(dir, { recursive: true });
const db = join(dir, 'orders.db');
const send = await startLineServer(side, await openDemoStores(db), db);
const perBatch: number[] = [];
for (let b = 0; b < Number(batchesArg ?? 30); b++) {
  const before = process.cpuUsage();
  for (let i = 0; i < Number(perArg ?? 100); i++) await conversation(send);
  const used = process.cpuUsage(before);
  perBatch.push(Math.round((used.user + used.system) / Number(perArg ?? 100)));
}
// the last line of stdout, after V8's --trace-opt lines
console.log(`cpu-per-batch ${perBatch.join(' ')}`);
process.exit(0);
