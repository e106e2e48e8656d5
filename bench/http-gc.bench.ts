// Garbage collection behind the HTTP tail: each side's HTTP server (as bench:e2e starts them) runs
// refund_order conversations from one client, one at a time, with V8's GC trace on; the bench reports, per
// side, the scavenges and full collections per 1,000 conversations, a scavenge's mean pause, what the
// scavenges promote (moved to the old generation, where only a full collection frees it) per conversation,
// and then, of the side's slowest 1 % of conversations, how many a collection of the server's or one of the
// bench's own (its client's) fell within, and how often and how long the bench's own were. Run from the repo root: `npx tsx bench/http-gc.bench.ts [N]`
// (N conversations a side after as many to warm up; 3,000 by default, about a minute).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectHttp, prepareFiles, type Side, startHttp } from './e2e-servers.ts';
import { conversation } from './e2e-stats.ts';
import { ownGcPausesBetween, ownGcPausesSettled, ownGcPauseWithin, type Timed } from './own-gc-pauses.ts';

const COUNT = Number(process.argv[2] ?? 3_000);
if (!Number.isInteger(COUNT) || COUNT < 100)
  throw new Error(`give the conversations a side as a whole number from 100 up, not '${process.argv[2]}'`);
const TIMELINE = ['--import', fileURLToPath(new URL('./gc-timeline.mjs', import.meta.url))];

/** One `--trace-gc-nvp` line's fields. */
type Traced = { kind: string; pause: number; promoted: number };
/** A server collection as gc-timeline.mjs gives it: kind, start (ms since the epoch), ms. */
type Collection = ['minor' | 'major', number, number];

function traced(log: string): Traced[] {
  return log
    .split('\n')
    .filter((line) => line.includes(' gc='))
    .map((line) => ({
      kind: /gc=(\w+)/.exec(line)![1]!,
      pause: Number(/ pause=([0-9.]+)/.exec(line)?.[1] ?? 0),
      promoted: Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0),
    }));
}

const within = (t: Timed, from: number, ms: number) => from < t.start + t.ms && from + ms > t.start;

async function measure(dir: string, files: Awaited<ReturnType<typeof prepareFiles>>, side: Side): Promise<void> {
  const logPath = join(dir, `${side}-gc.log`);
  const fd = openSync(logPath, 'w');
  const server = await startHttp(files, side, ['--trace-gc-nvp', ...TIMELINE], fd);
  const client = await connectHttp(server.url);
  try {
    for (let i = 0; i < COUNT; i++) await conversation(client);
    server.child.kill('SIGUSR2');
    await server.nextStderrLine(/^\[gc-timeline\] /);
    const traceStart = readFileSync(logPath, 'utf8').length;
    const times: Timed[] = [];
    for (let i = 0; i < COUNT; i++) times.push(await conversation(client));
    server.child.kill('SIGUSR2');
    const line = await server.nextStderrLine(/^\[gc-timeline\] /);
    await ownGcPausesSettled();
    // the server's collections on the bench's clock (performance.now()): both count from their time origin
    const origin = performance.timeOrigin;
    const collections = (JSON.parse(line.slice('[gc-timeline] '.length)) as Collection[]).map(([kind, start, ms]) => ({
      kind,
      start: start - origin,
      ms,
    }));
    const gcs = traced(readFileSync(logPath, 'utf8').slice(traceStart));
    const scavenges = gcs.filter((gc) => gc.kind === 's');
    const full = gcs.filter((gc) => gc.kind !== 's');
    const per1000 = (n: number) => ((1000 * n) / COUNT).toFixed(1);
    const promotedKib = scavenges.reduce((sum, gc) => sum + gc.promoted, 0) / 1024 / COUNT;
    const meanPause = scavenges.reduce((sum, gc) => sum + gc.pause, 0) / Math.max(1, scavenges.length);
    const sorted = [...times].sort((a, b) => a.ms - b.ms);
    const slowest = sorted.slice(-Math.ceil(COUNT / 100));
    const byServer = slowest.filter((t) => collections.some((c) => within(t, c.start, c.ms))).length;
    const byBench = slowest.filter((t) => ownGcPauseWithin(t) > 0).length;
    const at = (p: number) => sorted[Math.ceil((p / 100) * COUNT) - 1]!.ms.toFixed(2);
    const own = ownGcPausesBetween(times[0]!.start, times.at(-1)!.start + times.at(-1)!.ms);
    const ownMean = own.reduce((sum, ms) => sum + ms, 0) / Math.max(1, own.length);
    console.log(`\n${side}: median ${at(50)} ms, p99 ${at(99)} ms`);
    console.log(
      `  scavenges ${per1000(scavenges.length)} per 1,000 conversations, mean pause ${meanPause.toFixed(2)} ms, ` +
        `promoting ${promotedKib.toFixed(1)} KiB a conversation; other collections (full, or steps of one) ${per1000(full.length)} per 1,000`,
    );
    console.log(
      `  of the slowest ${slowest.length}: ${byServer} took place while the server collected, ${byBench} while the bench (its client) did`,
    );
    console.log(
      `  the bench's own collections meanwhile: ${per1000(own.length)} per 1,000 conversations, mean pause ${ownMean.toFixed(2)} ms`,
    );
  } finally {
    await client.close();
    await server.stop();
    closeSync(fd);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-gc-'));
try {
  const files = await prepareFiles(dir);
  console.log(
    `refund_order conversations over HTTP, one client, ${COUNT} a side after ${COUNT} to warm up; ${availableParallelism()} cores, Node ${process.version}`,
  );
  for (const side of ['ours', 'peer'] as const) await measure(dir, files, side);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
