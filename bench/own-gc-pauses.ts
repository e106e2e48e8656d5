// The bench process's own garbage-collection pauses, to tell a conversation's time apart from the time
// the bench's client stood still. On Node 20 the client's scavenges take 5 – 8 ms, land on about 2 % of
// the conversations, and so on most of either side's slowest 1 %, whichever side was in flight then.
// (Node 20's V8 keeps every object with a hidden class of its own, and all it refers to, through the
// scavenges until a full collection; each AbortSignal is one, and the SDK's client and fetch make several
// a request.) Both sides are timed with the same client, so what is left after taking the client's
// pauses out is what the server and the network took.
import { PerformanceObserver } from 'node:perf_hooks';

/** A conversation's wall time and when it began (performance.now()). */
export interface Timed {
  start: number;
  ms: number;
}

/** Pauses as [start, end] in performance.now() ms, in the order they came. */
const pauses: Array<[number, number]> = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.startTime + entry.duration]);
}).observe({ entryTypes: ['gc'] });

/** Node hands GC entries to observers two turns of the event loop after the collection: wait for them. */
export async function ownGcPausesSettled(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** The bench process's GC pauses, ms, that began from `from` to `to` (performance.now()). */
export const ownGcPausesBetween = (from: number, to: number): number[] =>
  pauses.filter(([start]) => start >= from && start < to).map(([start, end]) => end - start);

/** How long the bench process was paused in GC between `start` and `start + ms`. */
export function ownGcPauseWithin({ start, ms }: Timed): number {
  const end = start + ms;
  let paused = 0;
  // the pauses are in time order: walk back from the newest to the first that ended before `start`
  for (let i = pauses.length - 1; i >= 0; i--) {
    const [from, to] = pauses[i]!;
    if (to <= start) break;
    if (from < end) paused += Math.min(to, end) - Math.max(from, start);
  }
  return paused;
}
