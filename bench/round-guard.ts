// The round/floor guard of the bench: each round kind timed through engine.callTool next to its floor,
// the least any engine that seals its state must do for that round: the bare XState cycle of the same
// machine from the same snapshot (parse, restore, start, the round's event, persist, stringify, stop),
// plus opening the request's state (openState) and, for a round that asks again, sealing the next one
// (encodeEnvelope + sealState). Each kind's figure is round / floor of one run (see guardLines), so the
// machine's speed cancels; `pnpm bench` ends with one line per kind, `round/floor <kind> <ratio>`, which
// bench/check-round-guard.mjs compares with BENCHMARKS.md.
import { type AnyStateMachine, createActor } from '../packages/engine/node_modules/xstate/dist/xstate.cjs.mjs';
import type { ClientCapabilities, Engine, Keyring, StepOutcome } from '../packages/engine/src/index.ts';
import { decodeEnvelope, encodeEnvelope, internalsOf, openState, sealState } from '../packages/engine/src/internal.ts';
import { createSurveyTool, FLOW_ANSWERED, FLOW_QUESTIONS, flowAnswer, surveyArgs, surveyKey } from './flow-tool.ts';
import { type Case, mk } from './harness.ts';

const GUARD_KINDS = ['reask', 'decline', 'flow10'] as const;
/**
 * Rounds of `pnpm bench --guard`: many short samples (20 ms each, weight 0.1) rather than the full
 * bench's 11 of 200 ms, so the guarded percentile has enough samples that a busy machine left alone.
 */
export const GUARD_ROUNDS = 101;
const W = 0.1;

type AnyMachine = AnyStateMachine;

let sink = 0;

/** The raw persisted snapshot a sealed state holds, as XState takes it back (what the engine restores). */
function persistedOf(keyring: Keyring, state: string): { json: string; plaintext: Uint8Array } {
  const opened = openState(keyring, state);
  if (!opened.ok) throw new Error(`the bench's state did not open: ${opened.reason}`);
  const decoded = decodeEnvelope(opened.plaintext);
  if (!decoded || !('snapshot' in decoded)) throw new Error('the bench state holds no envelope');
  const s = decoded.snapshot;
  const persisted = { status: 'active', value: s.v, context: s.c, historyValue: s.h ?? {}, children: s.ch ?? {} };
  return { json: JSON.stringify(persisted), plaintext: opened.plaintext };
}

/** The floor of one round: XState cycle + open, and a seal for a round that asks again. */
function floorOf(
  machine: AnyMachine,
  input: unknown,
  keyring: Keyring,
  state: string,
  event: { type: string } | undefined,
  seals: boolean,
) {
  const { json, plaintext } = persistedOf(keyring, state);
  // the payload sealed is the opened one: same size as the engine's next state, no check needed for the floor
  const decoded = decodeEnvelope(plaintext);
  if (!decoded || !('snapshot' in decoded)) throw new Error('no envelope');
  const check = createActor(machine, { snapshot: JSON.parse(json), input });
  check.start();
  if (check.getSnapshot().status !== 'active') throw new Error(`the floor's machine did not restore: ${check.getSnapshot().status}`);
  check.stop();
  return () => {
    const opened = openState(keyring, state);
    if (!opened.ok) throw new Error('open failed');
    const actor = createActor(machine, { snapshot: JSON.parse(json), input });
    actor.start();
    if (event) actor.send(event as never);
    sink += JSON.stringify(actor.getPersistedSnapshot()).length;
    actor.stop();
    if (seals) sink += sealState(keyring, encodeEnvelope(decoded)).length;
  };
}

const expectType = (type: StepOutcome['type'], call: () => Promise<StepOutcome>) => async () => {
  const o = await call();
  if (o.type !== type) throw new Error(`expected ${type}, got ${JSON.stringify(o)}`);
};

export interface GuardInput {
  /** Builds an engine as the bench's main engine is built, for other tools. */
  engineFor: (tools: readonly object[]) => Engine;
  keyring: Keyring;
  capabilities: ClientCapabilities;
  principal: string;
  refund: {
    machine: AnyMachine;
    args: Record<string, unknown>;
    round1State: string;
    retryInvalid: () => Promise<StepOutcome>;
    retryDecline: () => Promise<StepOutcome>;
    declineEvent: { type: string };
  };
}

/** The six guard cases (round and floor of each kind, each pair next to each other) and their names. */
export async function buildGuard(input: GuardInput) {
  const { keyring, refund } = input;
  // the flow: answered up to question FLOW_ANSWERED, whose state the timed round answers again and again
  const survey = createSurveyTool();
  const engine = input.engineFor([survey]);
  const call = (extra: object) =>
    engine.callTool({ name: 'survey', arguments: surveyArgs, principal: input.principal, capabilities: input.capabilities, ...extra });
  let asked = await call({});
  for (let n = 1; n < FLOW_ANSWERED; n++) {
    if (asked.type !== 'input_required') throw new Error(`the survey did not ask question ${n}`);
    asked = await call({
      requestState: asked.requestState,
      inputResponses: { [surveyKey(n)]: { action: 'accept', content: flowAnswer(n) } },
    });
  }
  if (asked.type !== 'input_required' || !asked.inputRequests[surveyKey(FLOW_ANSWERED)])
    throw new Error(`the survey did not ask question ${FLOW_ANSWERED}: ${JSON.stringify(asked)}`);
  const flowState = asked.requestState;
  const flowResponses = { [surveyKey(FLOW_ANSWERED)]: { action: 'accept', content: flowAnswer(FLOW_ANSWERED) } };
  const flowRound = () => call({ requestState: flowState, inputResponses: flowResponses });
  const next = await flowRound();
  if (next.type !== 'input_required' || !next.inputRequests[surveyKey(FLOW_ANSWERED + 1)])
    throw new Error(`answering question ${FLOW_ANSWERED} did not ask question ${FLOW_ANSWERED + 1}: ${JSON.stringify(next)}`);
  const flowMachine = internalsOf(survey).machine.machine as AnyMachine;
  const flowEvent = { type: `${surveyKey(FLOW_ANSWERED)}.accept`, key: surveyKey(FLOW_ANSWERED), content: flowAnswer(FLOW_ANSWERED) };
  {
    // the floor's event takes the machine where the engine's round takes it
    const { json } = persistedOf(keyring, flowState);
    const actor = createActor(flowMachine, { snapshot: JSON.parse(json), input: surveyArgs });
    actor.start();
    actor.send(flowEvent as never);
    const meta = Object.values(actor.getSnapshot().getMeta()) as Array<{ ask?: string[] }>;
    actor.stop();
    if (!meta.some((m) => m.ask?.includes(surveyKey(FLOW_ANSWERED + 1))))
      throw new Error(`the floor's event did not move the flow to question ${FLOW_ANSWERED + 1}`);
  }
  if (FLOW_QUESTIONS !== 10) throw new Error('flow10 is a 10-question flow');

  const cases: Case[] = [
    mk(
      'g-reask',
      'round: re-ask (refund_order, an invalid answer; open, answer, settle, seal)',
      expectType('input_required', refund.retryInvalid),
      W,
      true,
    ),
    mk(
      'f-reask',
      'floor: XState cycle, no event + openState + encodeEnvelope/sealState',
      floorOf(refund.machine, refund.args, keyring, refund.round1State, undefined, true),
      W,
    ),
    mk('g-decline', 'round: decline (refund_order; open, answer, settle, result)', expectType('complete', refund.retryDecline), W, true),
    mk(
      'f-decline',
      'floor: XState cycle, decline event + openState',
      floorOf(refund.machine, refund.args, keyring, refund.round1State, input.refund.declineEvent, false),
      W,
    ),
    mk(
      'g-flow10',
      `round: flow10 (a 10-question declared flow; answer ${FLOW_ANSWERED}, ask ${FLOW_ANSWERED + 1}, seal)`,
      expectType('input_required', flowRound),
      W,
      true,
    ),
    mk(
      'f-flow10',
      'floor: XState cycle of the flow, answer event + openState + encodeEnvelope/sealState',
      floorOf(flowMachine, surveyArgs, keyring, flowState, flowEvent, true),
      W,
    ),
  ];
  return { cases, sinkOf: () => sink };
}

type Paired = (a: string, b: string) => { ratio: number; lo: number; hi: number };

/**
 * The guard's report: per kind the CPU µs per call of round and floor and four ratios, then one
 * machine-readable line per kind (the last lines of the output). The guarded ratio is of each case's
 * 10th-percentile wall time per call over the rounds: what else runs on the machine only ever adds to a
 * sample (a wait for a core, a cache emptied), so a case's fastest samples are the ones closest to its own
 * cost, and the 10th percentile is not one lucky sample. Beside it: the ratio of the least CPU times
 * (process.cpuUsage, all threads) and the medians of per-round paired ratios.
 */
export function guardLines(r: {
  pairedCpu: Paired;
  paired: Paired;
  cpuUs: (name: string) => number;
  minCpu: (a: string, b: string) => number;
  lowWall: (a: string, b: string) => number;
}): string[] {
  const range = (p: ReturnType<Paired>) => `${p.ratio.toFixed(2)} (per-round ${p.lo.toFixed(2)}–${p.hi.toFixed(2)})`;
  const info = GUARD_KINDS.map((kind) => {
    const [round, floor] = [`g-${kind}`, `f-${kind}`];
    return `${kind.padEnd(8)} CPU µs per call, median: round ${r.cpuUs(round).toFixed(1)}, floor ${r.cpuUs(floor).toFixed(1)}; 10th-percentile wall times ${r.lowWall(round, floor).toFixed(2)}; least CPU times ${r.minCpu(round, floor).toFixed(2)}; median paired ratio of CPU time ${range(r.pairedCpu(round, floor))}, of wall time ${range(r.paired(round, floor))}`;
  });
  return [...info, ...GUARD_KINDS.map((kind) => `round/floor ${kind} ${r.lowWall(`g-${kind}`, `f-${kind}`).toFixed(2)}`)];
}
