// Benchmark of MCP tasks (SEP-2663, issue 31 item 3 / issue 28 item 8): what creating a task and a tasks/get
// cost beside a plain MRTR round over the same layer. `pnpm bench:tasks` (`npx tsx bench/tasks.bench.ts`;
// NODE_OPTIONS=--expose-gc collects before every batch; `--guard` exits 1 when a ratio's median is over 2; .ci/run
// runs it so with BENCH_TASKS_BATCHES=9, and once more before it fails).
// Two layers, in one process: the engine (engine.callTool / engine.getTask), and the protocol server in
// process (serveStdio over the SDK's InMemoryTransport, driven by raw 2026-07-28 JSON-RPC through
// packages/mcp/test/fixtures/connect-raw.ts, since the official client sends no task methods).
// Operations (bench/task-tool.ts), every answer checked so a broken call cannot pass as a fast one:
//   round       — the first call of `ask_first`: asks a question before its long step (input_required, sealed)
//   create      — a call of `long_compute`: its long work held open, so the answer is a task handle
//   get-working — tasks/get of a task whose work is running
//   get-parked  — tasks/get of a task parked on a question (input_required: questions, sealed snapshot)
// Method: BATCHES batches, each operation PER times per batch, the order flipped every batch; every batch of
// every operation starts from a fresh engine (and connection) built outside the timing, and that engine is
// closed after it (its held work stopped, its tasks cancelled), so the task store holds only the batch's
// own tasks. Per batch: wall µs and CPU µs (process.cpuUsage) per operation; a ratio is the median over
// the batches of the per-batch ratio (each operation over the round of the same batch and layer).
// Absolute µs depend on the machine and are printed only to make the ratios checkable.

import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  type ClientCapabilities,
  createEngine,
  createKeyring,
  type Engine,
  generateKey,
  TASKS_EXTENSION,
} from '../packages/engine/src/index.ts';
import { connectRaw, type RawConnection, type RawReply } from '../packages/mcp/test/fixtures/connect-raw.ts';
import { fmt, gc, lpad, pad } from './harness.ts';
import { taskBenchTools } from './task-tool.ts';

const GUARD = process.argv.includes('--guard');
const GOAL = 2;
const BATCHES = Number(process.env.BENCH_TASKS_BATCHES ?? 15);
const WARM_UP_BATCHES = 2;
/** Calls per batch; BENCH_TASKS_SCALE multiplies them (a create batch leaves that many tasks in its engine's store). */
const SCALE = Number(process.env.BENCH_TASKS_SCALE ?? 1);
const PER: Record<Layer, number> = { engine: Math.round(1500 * SCALE), protocol: Math.round(800 * SCALE) };
const PRINCIPAL = 'bench-principal';
const KEY = generateKey();
/** A client that can be asked forms and consents to tasks: the engine's and the wire's spelling. */
const ENGINE_CAPS: ClientCapabilities = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const WIRE_CAPS: ClientCapabilities = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };

type Layer = 'engine' | 'protocol';
type OpName = 'round' | 'create' | 'get-working' | 'get-parked';
const OPS: readonly OpName[] = ['round', 'create', 'get-working', 'get-parked'];

/** One way to reach the server: call a tool, read a task. Each answer is reduced to its kind to check it. */
interface Side {
  call(name: string, label: string): Promise<{ kind: string; taskId?: string }>;
  get(taskId: string): Promise<string>;
  close(): Promise<void>;
}

const freshEngine = (): Engine =>
  createEngine({ tools: taskBenchTools(), prompts: [], resources: [], keyring: createKeyring([KEY]), audience: 'bench', log: () => {} });

function engineSide(): Side {
  const engine = freshEngine();
  return {
    async call(name, label) {
      const o = await engine.callTool({ name, arguments: { label }, principal: PRINCIPAL, capabilities: ENGINE_CAPS });
      return o.type === 'task' ? { kind: 'task', taskId: o.task.taskId } : { kind: o.type };
    },
    async get(taskId) {
      const got = await engine.getTask({ taskId, principal: PRINCIPAL, capabilities: ENGINE_CAPS });
      return got.type === 'complete' ? got.task.status : `error ${JSON.stringify(got.error)}`;
    },
    close: () => engine.close(),
  };
}

async function protocolSide(): Promise<Side> {
  const engine = freshEngine();
  const connection: RawConnection = await connectRaw(engine, PRINCIPAL);
  const kindOf = ({ result, error }: RawReply) => (error ? `error ${JSON.stringify(error)}` : String(result?.resultType));
  return {
    async call(name, label) {
      const reply = await connection.request('tools/call', { name, arguments: { label } }, WIRE_CAPS);
      return { kind: kindOf(reply), taskId: reply.result?.taskId as string | undefined };
    },
    async get(taskId) {
      const reply = await connection.request('tasks/get', { taskId }, WIRE_CAPS);
      return reply.error ? kindOf(reply) : String(reply.result?.status);
    },
    async close() {
      await connection.close();
      await engine.close();
      if (connection.protocolErrors.length > 0) throw new Error(`protocol errors: ${connection.protocolErrors.join('; ')}`);
    },
  };
}

const expectKind = (what: string, got: string, want: string) => {
  if (got !== want) throw new Error(`${what}: expected ${want}, got ${got}`);
};

async function newTask(side: Side, label: string): Promise<string> {
  const created = await side.call('long_compute', label);
  expectKind('tools/call of long_compute', created.kind, 'task');
  return created.taskId!;
}

/** Builds the operation on a fresh side (untimed) and returns the call to time. */
async function prepare(layer: Layer, op: OpName): Promise<{ side: Side; run: () => Promise<void> }> {
  const side = layer === 'engine' ? engineSide() : await protocolSide();
  switch (op) {
    case 'round':
      return { side, run: async () => expectKind('first call of ask_first', (await side.call('ask_first', 'r1')).kind, 'input_required') };
    case 'create':
      return { side, run: async () => void (await newTask(side, 'held')) };
    case 'get-working': {
      const taskId = await newTask(side, 'held');
      return { side, run: async () => expectKind('tasks/get of a working task', await side.get(taskId), 'working') };
    }
    case 'get-parked': {
      const taskId = await newTask(side, 'quick');
      // the work ends one event-loop turn after it starts; the task parks on its question soon after
      for (let turn = 0; (await side.get(taskId)) !== 'input_required'; turn++) {
        if (turn > 1000) throw new Error('the quick task never parked on its question');
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return { side, run: async () => expectKind('tasks/get of a parked task', await side.get(taskId), 'input_required') };
    }
  }
}

interface Samples {
  wall: number[];
  cpu: number[];
}
const samples = new Map<string, Samples>();
const keyOf = (layer: Layer, op: OpName) => `${layer}/${op}`;
for (const layer of ['engine', 'protocol'] as const) for (const op of OPS) samples.set(keyOf(layer, op), { wall: [], cpu: [] });

async function batch(layer: Layer, op: OpName, record: boolean): Promise<void> {
  const { side, run } = await prepare(layer, op);
  gc?.();
  const n = PER[layer];
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) await run();
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  await side.close();
  if (!record) return;
  const s = samples.get(keyOf(layer, op))!;
  s.wall.push((wallMs * 1000) / n);
  s.cpu.push((cpu.user + cpu.system) / n);
}

const started = performance.now();
const order: Array<[Layer, OpName]> = (['engine', 'protocol'] as const).flatMap((layer) => OPS.map((op): [Layer, OpName] => [layer, op]));
for (let b = 0; b < WARM_UP_BATCHES + BATCHES; b++) {
  for (const [layer, op] of b % 2 === 0 ? order : [...order].reverse()) await batch(layer, op, b >= WARM_UP_BATCHES);
}
const seconds = (performance.now() - started) / 1000;

// ─── report ─────────────────────────────────────────────────────────────────────────────────────────

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const LABELS: Record<OpName, string> = {
  round: 'plain MRTR round (ask_first, first call: input_required, sealed)',
  create: 'tools/call that creates a task (long_compute, work held open)',
  'get-working': 'tasks/get of a working task',
  'get-parked': 'tasks/get of a parked task (input_required)',
};
console.log('Roundtrip benchmark: task creation and tasks/get beside a plain MRTR round, same layer, same run');
console.log(
  `node ${process.version}, ${availableParallelism()} logical cores; global.gc ${gc ? 'called before every batch' : 'not available'}`,
);
console.log(
  `method: ${WARM_UP_BATCHES} warm-up + ${BATCHES} batches in alternating order, ${PER.engine} (engine) / ${PER.protocol} (protocol) calls per batch, a fresh engine per batch; total ${fmt(seconds)} s`,
);
for (const layer of ['engine', 'protocol'] as const) {
  console.log(
    `\n== ${layer === 'engine' ? 'Engine (engine.callTool / engine.getTask)' : 'Protocol in process (serveStdio over InMemoryTransport, raw 2026-07-28 JSON-RPC)'}`,
  );
  console.log(`${pad('operation', 66)} ${lpad('wall µs/op', 10)} ${lpad('CPU µs/op', 10)} ${lpad('CPU min–max', 14)}`);
  for (const op of OPS) {
    const s = samples.get(keyOf(layer, op))!;
    const range = `${fmt(Math.min(...s.cpu))}–${fmt(Math.max(...s.cpu))}`;
    console.log(`${pad(LABELS[op], 66)} ${lpad(fmt(median(s.wall)), 10)} ${lpad(fmt(median(s.cpu)), 10)} ${lpad(range, 14)}`);
  }
}

console.log(`\n== Ratio to the plain round of the same batch and layer: median over batches (goal ≤ ${GOAL})`);
const misses: string[] = [];
for (const layer of ['engine', 'protocol'] as const) {
  const round = samples.get(keyOf(layer, 'round'))!;
  for (const op of ['create', 'get-working', 'get-parked'] as const) {
    const s = samples.get(keyOf(layer, op))!;
    const cpu = s.cpu.map((x, i) => x / round.cpu[i]!);
    const wall = s.wall.map((x, i) => x / round.wall[i]!);
    const ratio = median(cpu);
    if (ratio > GOAL) misses.push(`${layer} ${op}/round ${fmt(ratio, 2)}`);
    console.log(
      `${pad(`${layer} ${op}/round`, 28)} CPU ${lpad(fmt(ratio, 2), 5)} (per batch ${fmt(Math.min(...cpu), 2)}–${fmt(Math.max(...cpu), 2)}), wall ${fmt(median(wall), 2)} (${fmt(Math.min(...wall), 2)}–${fmt(Math.max(...wall), 2)}): ${ratio <= GOAL ? 'MET' : 'MISSED'}`,
    );
  }
}
if (GUARD && misses.length > 0) {
  console.error(`tasks bench guard: over ${GOAL} × a plain round: ${misses.join(', ')}`);
  process.exit(1);
}
process.exit(0);
