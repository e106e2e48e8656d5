// How a stdio server's CPU per conversation falls from its start while V8 compiles its hot code: each side
// of bench:e2e alone in a fresh process (bench/warm-up.ts), batches of 100 conversations, with --trace-opt
// for the time TurboFan spent compiling (on its own thread, which the process's CPU and /proc count).
// Run from the repo root: `npx tsx bench/warm-up.bench.ts [batches] [per batch]` (30 of 100 by default,
// about 10 s).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleForNode } from '../apps/demo/test/support/bundle.ts';

const [batches = '30', perBatch = '100'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-warm-up-'));
try {
  const bundle = await bundleForNode(new URL('./warm-up.ts', import.meta.url), join(dir, 'warm-up.mjs'));
  const run = (side: 'ours' | 'peer') => {
    const child = spawnSync(process.execPath, ['--trace-opt', bundle, side, join(dir, side), batches, perBatch], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
    const cpu = /^cpu-per-batch (.+)$/m.exec(child.stdout)?.[1];
    if (child.status !== 0 || !cpu) throw new Error(`the ${side} run failed (status ${child.status})`);
    // "[completed compiling 0x… <JSFunction name …> (target TURBOFAN) - took 0.012, 1.706, 0.006 ms]"
    let compileMs = 0;
    for (const [, a, b, c] of child.stdout.matchAll(/completed compiling .*took ([0-9.]+), ([0-9.]+), ([0-9.]+) ms/g))
      compileMs += Number(a) + Number(b) + Number(c);
    return { cpu: cpu.split(' ').map(Number), compileMs };
  };
  const ours = run('ours');
  const peer = run('peer');
  const per = Number(perBatch);
  console.log(`CPU µs per conversation, by batch of ${per}, from a fresh server (one side per process, pipes aside):`);
  console.log('conversations      ours    peer   ours / peer');
  ours.cpu.forEach((o, i) => {
    const p = peer.cpu[i]!;
    const span = `${i * per + 1} – ${(i + 1) * per}`;
    console.log(`${span.padEnd(16)} ${String(o).padStart(6)}  ${String(p).padStart(6)}   ${(o / p).toFixed(2)}`);
  });
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(
    `whole run: ours ${(sum(ours.cpu) / ours.cpu.length).toFixed(0)}, peer ${(sum(peer.cpu) / peer.cpu.length).toFixed(0)} µs per conversation; ` +
      `TurboFan compiling (--trace-opt): ours ${ours.compileMs.toFixed(0)} ms, peer ${peer.compileMs.toFixed(0)} ms`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
