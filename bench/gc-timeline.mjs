// Loaded into each server of the GC bench (`node --import ./gc-timeline.mjs <server>`): it keeps the
// server's garbage collections as they come and, on SIGUSR2, writes them to stderr in one line and forgets
// them: `[gc-timeline] [[kind, start, ms], …]`, kind `minor` (a scavenge) or `major` (a full collection, or
// a step of one), start in ms since the epoch (performance.timeOrigin + the entry's start), so that the bench
// can set them beside its own clock. The same for every side.
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';

const kept = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR ? 'minor' : 'major';
    kept.push([kind, performance.timeOrigin + entry.startTime, entry.duration]);
  }
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => {
  process.stderr.write(`[gc-timeline] ${JSON.stringify(kept)}\n`);
  kept.length = 0;
});
