// What optimizing hot code sooner (tuneV8ForServing in @roundtrip/mcp/node) costs and gains from a server's
// start: the bundled demo server of bench:e2e as a fresh child process over real pipes, driven by raw JSON
// lines (stdio-line-servers.ts), as it ships ("tuned") and with V8's own threshold given on its command line
// ("V8 default", which the server then keeps). The two alternate, a fresh process each time. Prints the wall
// time per conversation by range from the start (median over the processes of each), and the CPU each process
// used by the end, on its main thread and on its other threads (TurboFan compiles there).
// Run from the repo root: `npx tsx bench/first-conversations.bench.ts [processes] [conversations]` (6 of 400
// by default, about 30 s).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareFiles } from './e2e-servers.ts';
import { conversation, lineClient } from './stdio-line-servers.ts';

const [processesArg = '6', conversationsArg = '400'] = process.argv.slice(2);
const BATCH = 10;
const batches = Math.ceil(Number(conversationsArg) / BATCH);
// a flag of the tuning at V8's own setting, on the command line: the server then leaves V8 as it is (Node 20,
// V8 11: the interrupt budget; Node 22, V8 12: TurboFan's threads, unbounded)
const V8_DEFAULT = Number(process.versions.v8.split('.')[0]) === 11 ? '--interrupt-budget=67584' : '--concurrent-turbofan-max-threads=0';
const modes = { 'V8 default': [V8_DEFAULT], tuned: [] } as const;
type Mode = keyof typeof modes;

/** CPU ms of a process's main thread and of its other threads, from /proc (10 ms ticks). */
function threadCpuMs(pid: number): { main: number; other: number } {
  const ms = (tid: number) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const tids = readdirSync(`/proc/${pid}/task`).map(Number);
  const other = tids.filter((tid) => tid !== pid).reduce((sum, tid) => sum + ms(tid), 0);
  return { main: ms(pid), other };
}

const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-first-'));
const files = await prepareFiles(dir);
const bundle = await files.bundle('ours', 'stdio');
const runs: Record<Mode, { perConversation: number[]; cpu: { main: number; other: number } }[]> = { 'V8 default': [], tuned: [] };
for (let p = 0; p < Number(processesArg); p++) {
  for (const mode of (p % 2 === 0 ? ['V8 default', 'tuned'] : ['tuned', 'V8 default']) as Mode[]) {
    const child = spawn(process.execPath, [...modes[mode], bundle], {
      env: { ...process.env, ...files.env },
      cwd: dir,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const send = lineClient(child.stdin, child.stdout);
    const perConversation: number[] = [];
    for (let b = 0; b < batches; b++) {
      const start = performance.now();
      for (let i = 0; i < BATCH; i++) await conversation(send);
      perConversation.push((performance.now() - start) / BATCH);
    }
    runs[mode].push({ perConversation, cpu: threadCpuMs(child.pid!) });
    child.kill();
  }
}
rmSync(dir, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ranges = [
  [0, 1],
  [1, 5],
  [5, 10],
  [10, 20],
  [20, 30],
  [30, batches],
].filter(([from]) => from! < batches);
const msIn = (mode: Mode, [from, to]: number[]) =>
  median(runs[mode].map((r) => r.perConversation.slice(from, to).reduce((a, x) => a + x, 0) / (Math.min(to!, batches) - from!)));
console.log(`the demo server over pipes from its start, ${processesArg} fresh processes a mode, Node ${process.version}`);
console.log('conversations   V8 default ms   tuned ms   tuned / default');
for (const range of ranges) {
  const [from, to] = [range[0]! * BATCH + 1, Math.min(range[1]!, batches) * BATCH];
  const [d, t] = [msIn('V8 default', range), msIn('tuned', range)];
  console.log(
    `${`${from} – ${to}`.padEnd(15)} ${d.toFixed(2).padStart(13)} ${t.toFixed(2).padStart(10)} ${(t / d).toFixed(2).padStart(17)}`,
  );
}
for (const mode of Object.keys(modes) as Mode[])
  console.log(
    `${mode}: CPU by the end, main thread ${median(runs[mode].map((r) => r.cpu.main))} ms, other threads ${median(runs[mode].map((r) => r.cpu.other))} ms`,
  );
