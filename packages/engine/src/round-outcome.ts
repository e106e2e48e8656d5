// Phase 5 of a round (answerPhase): the settled machine's answer. Done: the definition's result. Failed: the failure.
// Still asking: the questions gated by what the client can do, then the next state sealed, or asked
// through the model, or -32021 naming the capability that is missing.
import type { Actor, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { type ActiveQuestion, activeQuestions } from './active-questions.ts';
import { gateRound, inputRequestsOf, missingCapability, modesText, questionKeysText } from './answer-round.ts';
import { fallbackText } from './fallback-text.ts';
import { firstNonJson } from './json-value.ts';
import type { CompiledQuestion } from './questions.ts';
import { failRound, note } from './round-note.ts';
import type { Round } from './round-types.ts';
import { sealState } from './sealed-state.ts';
import { compactSnapshot } from './snapshot-codec.ts';
import { type CompactSnapshot, encodeEnvelope, type StateEnvelope } from './state-envelope.ts';
import type { StepOutcome } from './step-outcome.ts';

/** What a round brings to its answer: its run id, the questions rendered while feeding, and the notes on answers. */
interface Fed {
  runId: Uint8Array;
  rendered: Map<CompiledQuestion, ActiveQuestion>;
  notes: ReadonlyMap<string, string>;
}

/** The settled machine's answer: its failure, its result, or its next questions. */
export function answerPhase<TResult>(
  round: Round<TResult>,
  actor: Actor<AnyStateMachine>,
  fed: Fed,
): StepOutcome<TResult> | Promise<StepOutcome<TResult>> {
  const machine = round.target.definition.machine;
  const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
  if (round.trace) round.trace.settled = snapshot.value;
  if (snapshot.status === 'error') {
    const event = { level: 'error', event: 'machine_error', code: 'machine_failed', machine: machine.id, round: round.number } as const;
    return failRound(round, { ...event, error: snapshot.error });
  }
  if (snapshot.status === 'done') return finishPhase(round, snapshot);
  return askPhase(round, actor, snapshot, fed);
}

/** A machine that reached its final state: the definition's result from its output. */
async function finishPhase<TResult>(round: Round<TResult>, snapshot: AnyMachineSnapshot): Promise<StepOutcome<TResult>> {
  const { definition } = round.target;
  let result: TResult;
  try {
    // a tool's result may be async (it reads a store whose reads are)
    result = (await definition.finish(snapshot.output, round.target.finishWith)) as TResult;
  } catch (error) {
    return failRound(round, { level: 'error', event: 'result_error', code: 'finish_threw', owner: definition.owner, error });
  }
  note(round, { level: 'info', event: 'run_complete', code: 'finished', round: round.number });
  return { type: 'complete', result };
}

/** A machine still asking: the round's questions, asked as the client can be asked, with the next state. */
function askPhase<TResult>(
  round: Round<TResult>,
  actor: Actor<AnyStateMachine>,
  snapshot: AnyMachineSnapshot,
  { runId, rendered, notes }: Fed,
): StepOutcome<TResult> {
  const { target, trace } = round;
  const machine = target.definition.machine;
  const asks = activeQuestions(machine, snapshot, rendered);
  if (trace) trace.asked = asks.map((a) => a.question.key);
  if (asks.length > 255)
    return failRound(round, { level: 'error', event: 'too_many_questions', code: 'over_255', machine: machine.id, count: asks.length });
  if (asks.length === 0)
    return failRound(round, { level: 'error', event: 'machine_stuck', code: 'asks_nothing', machine: machine.id, value: snapshot.value });
  const fallback = target.modelFallback;
  const gate = gateRound(asks, round.request.capabilities, fallback !== undefined);
  if (gate.kind === 'missing') {
    const { error } = missingCapability(target.definition.owner, asks, gate.missing);
    note(round, {
      level: 'info',
      event: 'capability_missing',
      code: 'cannot_ask',
      keys: questionKeysText(asks),
      supports: modesText(gate.missing),
    });
    return { type: 'error', error };
  }
  const sealed = sealNext(round, actor, snapshot, runId, asks, gate.kind === 'fallback');
  if (typeof sealed !== 'string') return sealed;
  if (gate.kind === 'fallback') {
    note(round, {
      level: 'info',
      event: 'fallback_used',
      code: 'asked_model',
      keys: questionKeysText(asks),
      supports: modesText(gate.missing),
    });
    return fallback!.answer(fallbackText({ tool: fallback!.tool, args: target.args, asks, notes, continuation: sealed }));
  }
  return { type: 'input_required', inputRequests: inputRequestsOf(asks, notes), requestState: sealed };
}

/** The next state sealed, or why the round cannot carry one: context that is not JSON, or a state over the size limit. */
function sealNext<TResult>(
  round: Round<TResult>,
  actor: Actor<AnyStateMachine>,
  snapshot: AnyMachineSnapshot,
  runId: Uint8Array,
  asks: readonly ActiveQuestion[],
  throughModel: boolean,
): string | StepOutcome<TResult> {
  const { ctx, target } = round;
  const machine = target.definition.machine;
  let compact: CompactSnapshot;
  try {
    compact = compactSnapshot(actor);
  } catch (error) {
    // XState's persistence walks context, and overflows the stack on a cycle: say where it is
    const found = firstNonJson(snapshot.context, 'context');
    if (found) return failRound(round, { level: 'error', event: 'context_not_json', code: 'not_json', found, round: round.number });
    throw error;
  }
  const found =
    firstNonJson(compact.c, 'context') ?? (compact.ch ? firstNonJson(compact.ch, 'children', { undefinedMembers: 'absent' }) : undefined);
  if (found) return failRound(round, { level: 'error', event: 'context_not_json', code: 'not_json', found, round: round.number });
  const nowMs = ctx.now();
  const questions = new Map<string, Uint8Array>();
  for (const a of asks) questions.set(a.question.key, a.hash);
  const next: StateEnvelope = {
    iat: Math.floor(nowMs / 1000),
    // rounded up, so that a state never expires before its full lifetime (at most a second after)
    exp: Math.ceil(nowMs / 1000) + ctx.ttlSeconds,
    aud: round.binding.aud,
    sub: round.binding.sub,
    target: throughModel ? target.modelFallback!.continuationTag : round.binding.target,
    args: round.binding.args,
    machine: machine.hash,
    round: round.number,
    run: runId,
    questions,
    snapshot: compact,
  };
  const sealed = sealState(ctx.keyring, encodeEnvelope(next));
  // a state larger than the server accepts back would be refused next round, after the user answered
  if (sealed.length > ctx.maxStateBytes)
    return failRound(
      round,
      {
        level: 'error',
        event: 'state_too_large',
        code: 'over_limit',
        machine: machine.id,
        round: round.number,
        bytes: sealed.length,
        limit: ctx.maxStateBytes,
      },
      `${target.definition.owner} cannot go on: what this conversation holds grew past what the server keeps between rounds. Start again with shorter answers.`,
    );
  return sealed;
}
