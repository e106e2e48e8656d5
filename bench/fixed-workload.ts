// A fixed CPU workload, the yardstick the suite's time is measured against (issue 31 item 4): what a machine does in
// it depends only on the machine, so "the suite took N times this workload" travels between machines and hours
// where seconds do not. A SHA-256 chain (node:crypto, native) and an integer loop (JIT-compiled JavaScript), about 2 s
// together on this 2-core machine; one thread.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';

const SHA_ROUNDS = 1_500_000;
const LOOP_ROUNDS = 400_000_000;

/** Runs the workload once; its wall seconds (and a digest that proves the work was done). */
export function fixedWorkload(): { seconds: number; proof: string } {
  const start = performance.now();
  let digest = Buffer.alloc(32);
  for (let i = 0; i < SHA_ROUNDS; i++) digest = createHash('sha256').update(digest).digest();
  let x = 0x9e3779b9;
  for (let i = 0; i < LOOP_ROUNDS; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  return { seconds: (performance.now() - start) / 1000, proof: `${digest.toString('hex').slice(0, 8)}-${(x >>> 0).toString(16)}` };
}
