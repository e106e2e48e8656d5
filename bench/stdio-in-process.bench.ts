// Runs bench/stdio-in-process.ts (both stdio servers in one process, alternating batches: what each spends
// on a conversation without the pipes) bundled like the end-to-end servers, a fresh process and orders
// file each run. Run from the repo root: `npx tsx bench/stdio-in-process.bench.ts [runs] [batches] [per batch]`
// (3 runs of 30 batches of 100 conversations a side by default, about 40 s each on 2 cores).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleForNode } from '../apps/demo/test/support/bundle.ts';

const [runs = '3', batches = '30', perBatch = '100'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-in-process-'));
const load = () => loadavg()[0]!.toFixed(2);
try {
  const bundle = await bundleForNode(new URL('./stdio-in-process.ts', import.meta.url), join(dir, 'stdio-in-process.mjs'));
  for (let run = 1; run <= Number(runs); run++) {
    const before = load();
    const child = spawnSync(process.execPath, ['--expose-gc', bundle, join(dir, `run-${run}`), batches, perBatch], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (child.status !== 0) throw new Error(`run ${run} failed (status ${child.status}): ${child.stdout}`);
    console.log(`run ${run} (load ${before} → ${load()}): ${child.stdout.trim()}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
