// Figures of the end-to-end benches: a conversation timed, percentiles, and alternating batches of two sides.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/client';
import { ownGcPausesSettled, ownGcPauseWithin, type Timed } from './own-gc-pauses.ts';

type Round = { requestState?: string; structuredContent?: { status?: string } };
const manual = { allowInputRequired: true } as const;

/**
 * One refund_order conversation: the first round asks to confirm, the retry carries `answer`. Checks the
 * status it ends in (`kept` for a decline, `refunded` for an accept) and returns when it began and its wall time, ms.
 */
export async function conversation(client: Client, orderId = 'ord_51', answer: 'decline' | 'accept' = 'decline'): Promise<Timed> {
  const args = { order_id: orderId };
  const start = performance.now();
  const ask = (await client.callTool({ name: 'refund_order', arguments: args }, manual)) as Round;
  if (typeof ask.requestState !== 'string') throw new Error(`expected the first round to ask: ${JSON.stringify(ask)}`);
  const inputResponses = { confirm: answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' } };
  const done = (await client.callTool(
    { name: 'refund_order', arguments: args, requestState: ask.requestState, inputResponses } as never,
    manual,
  )) as Round;
  const ms = performance.now() - start;
  const expected = answer === 'accept' ? 'refunded' : 'kept';
  if (done.structuredContent?.status !== expected) throw new Error(`expected '${expected}': ${JSON.stringify(done)}`);
  return { start, ms };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (p === 50) {
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  }
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const median = (values: number[]) => percentile(values, 50);
export const load = () => loadavg()[0]!.toFixed(2);

interface SideSamples {
  /** Every conversation's ms. */
  all: number[];
  /** Every conversation's ms less the bench process's own GC pauses during it (own-gc-pauses.ts). */
  net: number[];
  /** How many conversations the bench's own GC paused. */
  touched: number;
  /** Each batch's median ms. */
  batchMedians: number[];
  /** Each batch's conversations per second (wall time of the batch). */
  batchRates: number[];
  /** CPU ms (user + system) the side's server process used during its batches. */
  cpuMs: number;
  /** CPU ms the bench process (the client) used during the side's batches, and their wall ms. */
  clientCpuMs: number;
  wallMs: number;
}

export interface Paired {
  ours: SideSamples;
  peer: SideSamples;
  loadBefore: string;
  loadAfter: string;
}

const empty = (): SideSamples => ({ all: [], net: [], touched: 0, batchMedians: [], batchRates: [], cpuMs: 0, clientCpuMs: 0, wallMs: 0 });

/** CPU ms (user + system) a process has used so far, from /proc (Linux; 10 ms ticks). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Runs `batches` batches of each side, the order flipped every batch (ours first in even batches).
 * `runBatch` runs one batch and returns its conversations' times.
 */
export async function alternate(
  batches: number,
  runBatch: (side: 'ours' | 'peer') => Promise<Timed[]>,
  pids: Record<'ours' | 'peer', number>,
): Promise<Paired> {
  const result = { ours: empty(), peer: empty(), loadBefore: load(), loadAfter: '' };
  for (let batch = 0; batch < batches; batch++) {
    for (const side of batch % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const)) {
      const start = performance.now();
      const cpuBefore = processCpuMs(pids[side]);
      const clientBefore = process.cpuUsage();
      const timed = await runBatch(side);
      result[side].cpuMs += processCpuMs(pids[side]) - cpuBefore;
      const client = process.cpuUsage(clientBefore);
      result[side].clientCpuMs += (client.user + client.system) / 1000;
      result[side].wallMs += performance.now() - start;
      const seconds = (performance.now() - start) / 1000;
      await ownGcPausesSettled();
      const times = timed.map((t) => t.ms);
      for (const t of timed) {
        const paused = ownGcPauseWithin(t);
        result[side].net.push(t.ms - paused);
        if (paused > 0) result[side].touched++;
      }
      result[side].all.push(...times);
      result[side].batchMedians.push(median(times));
      result[side].batchRates.push(times.length / seconds);
    }
  }
  result.loadAfter = load();
  return result;
}

/** Prints the paired figures: median of per-batch ratios (ours / peer) with their range, medians, p99s. */
export function report(title: string, { ours, peer, loadBefore, loadAfter }: Paired, withRate = false): void {
  const ratios = ours.batchMedians.map((m, i) => m / peer.batchMedians[i]!);
  const f = (x: number) => x.toFixed(2);
  console.log(`\n${title} (load average ${loadBefore} → ${loadAfter})`);
  console.log(`  conversations: ${ours.all.length} each, ${ours.batchMedians.length} alternating batches`);
  console.log(`  median ms      ours ${f(median(ours.all))}   peer ${f(median(peer.all))}`);
  console.log(
    `  p99 ms         ours ${f(percentile(ours.all, 99))}   peer ${f(percentile(peer.all, 99))}   ours / peer ${f(percentile(ours.all, 99) / percentile(peer.all, 99))}`,
  );
  console.log(
    `  p99 ms less the bench's own GC pauses   ours ${f(percentile(ours.net, 99))}   peer ${f(percentile(peer.net, 99))}   ours / peer ${f(percentile(ours.net, 99) / percentile(peer.net, 99))}` +
      ` (they paused ${ours.touched} and ${peer.touched} conversations)`,
  );
  // the same ratio over each half of the batches (conversations are kept in batch order): how far the
  // tail moves within one run, a yardstick for the ratio above
  const half = (s: SideSamples, second: boolean) => s.all.slice(second ? s.all.length / 2 : 0, second ? undefined : s.all.length / 2);
  const halfRatio = (second: boolean) => f(percentile(half(ours, second), 99) / percentile(half(peer, second), 99));
  console.log(`  p99 ratio over the first and the second half of the batches: ${halfRatio(false)}, ${halfRatio(true)}`);
  console.log(
    `  ours / peer, median of per-batch median ratios: ${f(median(ratios))} (batches ${f(Math.min(...ratios))} – ${f(Math.max(...ratios))})`,
  );
  const cpu = (s: SideSamples) => s.cpuMs / s.all.length;
  console.log(
    `  server CPU ms per conversation (/proc)  ours ${f(cpu(ours))}   peer ${f(cpu(peer))}   ours / peer ${f(cpu(ours) / cpu(peer))}`,
  );
  // the client runs on one thread (and V8's helpers): near one core, the client is what a side's conversations wait for
  const busy = (s: SideSamples) => (s.clientCpuMs / s.wallMs).toFixed(2);
  console.log(`  the bench process's CPU (the client), in cores, during each side's batches  ours ${busy(ours)}   peer ${busy(peer)}`);
  if (withRate) {
    const rateRatios = ours.batchRates.map((r, i) => r / peer.batchRates[i]!);
    console.log(
      `  conversations/s  ours ${median(ours.batchRates).toFixed(1)}   peer ${median(peer.batchRates).toFixed(1)}   ours / peer ${f(median(rateRatios))} (batches ${f(Math.min(...rateRatios))} – ${f(Math.max(...rateRatios))})`,
    );
  }
}
