// How a stdio server's CPU per conversation falls from its start while V8 compiles its hot code. By
// default each side of bench:e2e runs alone in a fresh process on PassThrough streams (bench/warm-up.ts),
// pipes aside, with --trace-opt for the time TurboFan spent compiling (on threads of its own, which the
// process's CPU and /proc count). With `pipes`, the bundled servers of bench:e2e (the demo's server.ts, the
// peer's peer-stdio.ts) run as child processes over real pipes, driven by raw JSON lines, their CPU read from
// /proc (10 ms ticks), split at the end into the main thread's and the other threads'.
// Run from the repo root: `npx tsx bench/warm-up.bench.ts [pipes] [batches] [per batch]` (30 of 100 by
// default, about 10 s).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleForNode } from '../apps/demo/test/support/bundle.ts';
import { prepareFiles } from './e2e-servers.ts';
import { conversation, lineClient } from './stdio-line-servers.ts';

type Side = 'ours' | 'peer';
interface SideRun {
  /** µs of CPU per conversation, by batch. */
  cpu: number[];
  summary: string;
}

const args = process.argv.slice(2);
const pipes = args[0] === 'pipes';
const [batches = '30', perBatch = '100'] = pipes ? args.slice(1) : args;
const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-warm-up-'));

/** Each side alone in a process of its own on PassThrough streams, with --trace-opt. */
async function inProcess(): Promise<(side: Side) => Promise<SideRun>> {
  const bundle = await bundleForNode(new URL('./warm-up.ts', import.meta.url), join(dir, 'warm-up.mjs'));
  return async (side) => {
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
    return { cpu: cpu.split(' ').map(Number), summary: `TurboFan compiling (--trace-opt) ${compileMs.toFixed(0)} ms` };
  };
}

/** CPU ms of each thread of a process so far, from /proc (10 ms ticks), the main thread first. */
function threadCpuMs(pid: number): number[] {
  const ms = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const tids = readdirSync(`/proc/${pid}/task`)
    .map(Number)
    .sort((a, b) => a - b);
  return tids.map((tid) => ms(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The bundled servers of bench:e2e as child processes over real pipes. */
async function overPipes(): Promise<(side: Side) => Promise<SideRun>> {
  const files = await prepareFiles(dir);
  return async (side) => {
    const child = spawn(process.execPath, [await files.bundle(side, 'stdio')], {
      env: { ...process.env, ...files.env },
      cwd: dir,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const pid = child.pid;
    if (pid === undefined) throw new Error(`the ${side} server did not start`);
    const send = lineClient(child.stdin, child.stdout);
    const cpu: number[] = [];
    let threads: number[] = [];
    for (let b = 0; b < Number(batches); b++) {
      const before = sum(threadCpuMs(pid));
      for (let i = 0; i < Number(perBatch); i++) await conversation(send);
      threads = threadCpuMs(pid);
      cpu.push(Math.round(((sum(threads) - before) * 1000) / Number(perBatch)));
    }
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
    return { cpu, summary: `CPU from its start: main thread ${threads[0]} ms, other threads ${sum(threads.slice(1))} ms` };
  };
}

try {
  const run = await (pipes ? overPipes() : inProcess());
  const ours = await run('ours');
  const peer = await run('peer');
  const per = Number(perBatch);
  console.log(
    `CPU µs per conversation, by batch of ${per}, from a fresh server (${pipes ? 'over real pipes, /proc' : 'one side per process, pipes aside'}):`,
  );
  console.log('conversations      ours    peer   ours / peer');
  ours.cpu.forEach((o, i) => {
    const p = peer.cpu[i]!;
    console.log(
      `${`${i * per + 1} – ${(i + 1) * per}`.padEnd(16)} ${String(o).padStart(6)}  ${String(p).padStart(6)}   ${(o / p).toFixed(2)}`,
    );
  });
  const mean = (xs: number[]) => (sum(xs) / xs.length).toFixed(0);
  console.log(`whole run: ours ${mean(ours.cpu)}, peer ${mean(peer.cpu)} µs per conversation`);
  console.log(`ours: ${ours.summary}; peer: ${peer.summary}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
