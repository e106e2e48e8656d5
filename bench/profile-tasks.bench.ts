// Profiles what bench/tasks.bench.ts times on the engine: `node --cpu-prof --import tsx bench/profile-tasks.bench.ts
// round|create [batches] [per batch]` (from the repo root), then `node bench/profile-summary.mjs <the .cpuprofile>`.
// Each batch runs on a fresh engine that is closed after it (its held work stopped), as the bench does; prints the
// CPU µs per call. The same tools and engine options as the bench (bench/task-tool.ts). `npx node …` runs it on the
// workspace's Node 22, as `pnpm bench:tasks` runs.
import {
  type ClientCapabilities,
  createEngine,
  createKeyring,
  type Engine,
  generateKey,
  TASKS_EXTENSION,
} from '../packages/engine/src/index.ts';
import { taskBenchTools } from './task-tool.ts';

const kind = process.argv[2] ?? 'create';
const batches = Number(process.argv[3] ?? 40);
const per = Number(process.argv[4] ?? 1500);
const KEY = generateKey();
const capabilities: ClientCapabilities = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const calls: Record<string, { tool: string; label: string; expected: string }> = {
  round: { tool: 'ask_first', label: 'r1', expected: 'input_required' },
  create: { tool: 'long_compute', label: 'held', expected: 'task' },
};
const call = calls[kind];
if (!call) throw new Error(`unknown kind '${kind}': round or create`);

const freshEngine = (): Engine =>
  createEngine({ tools: taskBenchTools(), prompts: [], resources: [], keyring: createKeyring([KEY]), audience: 'bench', log: () => {} });

let cpuTotal = 0;
for (let b = 0; b < batches; b++) {
  const engine = freshEngine();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < per; i++) {
    const outcome = await engine.callTool({
      name: call.tool,
      arguments: { label: call.label },
      principal: 'bench-principal',
      capabilities,
    });
    if (outcome.type !== call.expected) throw new Error(`expected ${call.expected}, got ${JSON.stringify(outcome)}`);
  }
  const cpu = process.cpuUsage(cpuStart);
  if (b > 0) cpuTotal += cpu.user + cpu.system;
  await engine.close();
}
console.log(`${kind}: ${batches - 1} batches of ${per}, ${(cpuTotal / ((batches - 1) * per)).toFixed(1)} CPU µs per call`);
