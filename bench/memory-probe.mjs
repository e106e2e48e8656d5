// Loaded into each server of the memory bench (`node --expose-gc --import ./memory-probe.mjs <server>`):
// on SIGUSR2 it runs a full garbage collection and writes one line to stderr, so that the bench reads
// what the server retains, not what its heap happens to hold between collections. The same for every side.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.stderr.write(`[memory-probe] rss ${rss} heapUsed ${heapUsed}\n`);
});
