// Profiles one round kind of the engine: `node --cpu-prof --import tsx bench/profile-round.bench.ts reask|decline|flow10 [iterations]`
// (from the repo root), then `node bench/profile-summary.mjs <the .cpuprofile>` for where the time goes.
// The same tools, engine options and states as `pnpm bench` (refund-step.bench.ts, round-guard.ts).
import { type ClientCapabilities, createEngine, createKeyring, generateKey, type StepOutcome } from '../packages/engine/src/index.ts';
import { createSurveyTool, FLOW_ANSWERED, flowAnswer, surveyArgs, surveyKey } from './flow-tool.ts';
import { createRefundOrderTool, memoryOrdersStore } from './refund-tool.ts';

const kind = process.argv[2] ?? 'reask';
const iterations = Number(process.argv[3] ?? 30_000);
const capabilities: ClientCapabilities = { elicitation: {} };
const engine = createEngine({
  tools: [createRefundOrderTool(memoryOrdersStore()), createSurveyTool()],
  keyring: createKeyring([generateKey()]),
  audience: 'bench',
});
const call = (name: string, args: object, extra: object) =>
  engine.callTool({ name, arguments: args, principal: 'bench-principal', capabilities, ...extra });
const stateOf = (outcome: StepOutcome) => {
  if (outcome.type !== 'input_required') throw new Error(`expected a question, got ${JSON.stringify(outcome)}`);
  return outcome.requestState;
};

let round: () => Promise<StepOutcome>;
if (kind === 'flow10') {
  let state = stateOf(await call('survey', surveyArgs, {}));
  const answer = (n: number) => ({ [surveyKey(n)]: { action: 'accept', content: flowAnswer(n) } });
  for (let n = 1; n < FLOW_ANSWERED; n++)
    state = stateOf(await call('survey', surveyArgs, { requestState: state, inputResponses: answer(n) }));
  const requestState = state;
  round = () => call('survey', surveyArgs, { requestState, inputResponses: answer(FLOW_ANSWERED) });
} else {
  const answers = {
    reask: { confirm: { action: 'accept', content: { confirm: 'maybe' } } },
    decline: { confirm: { action: 'decline' } },
  } as const;
  const inputResponses = answers[kind as keyof typeof answers];
  if (!inputResponses) throw new Error(`unknown kind '${kind}': reask, decline or flow10`);
  const requestState = stateOf(await call('refund_order', { order_id: 'ord_51' }, {}));
  round = () => call('refund_order', { order_id: 'ord_51' }, { inputResponses, requestState });
}
const expected = kind === 'decline' ? 'complete' : 'input_required';
const started = performance.now();
for (let i = 0; i < iterations; i++) {
  const outcome = await round();
  if (outcome.type !== expected) throw new Error(`expected ${expected}, got ${JSON.stringify(outcome)}`);
}
const us = ((performance.now() - started) * 1000) / iterations;
console.log(`${kind}: ${iterations} rounds, ${us.toFixed(1)} µs per round`);
