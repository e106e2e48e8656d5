// Profiles one round kind of the engine: `node --cpu-prof --import tsx bench/profile-round.ts reask|decline [iterations]`
// (from the repo root), then `node bench/profile-summary.mjs <the .cpuprofile>` for where the time goes.
// The same tool, engine and states as `pnpm bench` (bench/refund-step.bench.ts).
import { type ClientCapabilities, createEngine, createKeyring, generateKey } from '../packages/engine/src/index.ts';
import { createRefundOrderTool, memoryOrdersStore } from './refund-tool.ts';

const kind = process.argv[2] ?? 'reask';
const iterations = Number(process.argv[3] ?? 40_000);
const capabilities: ClientCapabilities = { elicitation: {} };
const engine = createEngine({
  tools: [createRefundOrderTool(memoryOrdersStore())],
  keyring: createKeyring([generateKey()]),
  audience: 'bench',
});
const call = (extra: object) =>
  engine.callTool({ name: 'refund_order', arguments: { order_id: 'ord_51' }, principal: 'bench-principal', capabilities, ...extra });
const first = await call({});
if (first.type !== 'input_required') throw new Error('round 1 did not ask');
const answers = {
  reask: { confirm: { action: 'accept', content: { confirm: 'maybe' } } },
  decline: { confirm: { action: 'decline' } },
} as const;
const inputResponses = answers[kind as keyof typeof answers];
if (!inputResponses) throw new Error(`unknown kind '${kind}': reask or decline`);
const expected = kind === 'reask' ? 'input_required' : 'complete';
const started = performance.now();
for (let i = 0; i < iterations; i++) {
  const outcome = await call({ inputResponses, requestState: first.requestState });
  if (outcome.type !== expected) throw new Error(`expected ${expected}, got ${outcome.type}`);
}
const us = ((performance.now() - started) * 1000) / iterations;
console.log(`${kind}: ${iterations} rounds, ${us.toFixed(1)} µs per round`);
