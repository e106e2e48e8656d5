// One round of any MRTR method, as named phases: open the state (round-open.ts), create the actor
// (round-actor.ts), start and settle it, feed the answers (feed-answers.ts), settle again, and answer
// (round-outcome.ts). The actor is stopped and the effect scope released in one `finally`, on every path.
import nacl from 'tweetnacl';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { type ActiveQuestion, activeQuestions } from './active-questions.ts';
import { encodeBase64url } from './base64url.ts';
import { clientEvent } from './client-event.ts';
import { feedAnswers } from './feed-answers.ts';
import type { CompiledQuestion } from './questions.ts';
import { createRoundActor, type RoundActor } from './round-actor.ts';
import { failRound, note } from './round-note.ts';
import { openPhase, refuseState } from './round-open.ts';
import { askPhase, finishPhase } from './round-outcome.ts';
import { newTrace, reportRound } from './round-report.ts';
import type { Round, RoundRequest, StepContext, StepTarget } from './round-types.ts';
import { settleActor, settledNow } from './settle-actor.ts';
import { TAG_BYTES } from './state-envelope.ts';
import type { StepOutcome } from './step-outcome.ts';

/**
 * One round of any MRTR method: size cap, open, check, rehydrate, feed answers, settle, answer.
 * Methods differ only in what `target` holds.
 */
export async function runStep<TResult>(
  ctx: StepContext,
  target: StepTarget<TResult>,
  request: RoundRequest,
): Promise<StepOutcome<TResult>> {
  const inspect = ctx.inspect;
  const trace = inspect ? newTrace() : undefined;
  const round: Round<TResult> = {
    ctx,
    target,
    request,
    trace,
    binding: {
      aud: ctx.audienceTag,
      sub: ctx.principalTag(request.principal),
      target: target.targetTag,
      args: ctx.argsTag(target.argsScope, target.args),
    },
    run: '',
    number: 1,
  };
  const outcome = await step(round);
  if (inspect && trace) {
    const at = ctx.now();
    const show = ctx.inspectAnswers === 'shown';
    const facts = { target: target.label, machine: target.definition.machine.id, trace, request, outcome, show, at };
    reportRound(inspect, facts, (error) => note(round, { level: 'warn', event: 'inspect_failed', code: 'inspect_threw', error }));
  }
  return outcome;
}

async function step<TResult>(round: Round<TResult>): Promise<StepOutcome<TResult>> {
  const opened = openPhase(round);
  if (!opened.ok) return opened.outcome;
  const { envelope } = opened;
  const runId = envelope?.run ?? nacl.randomBytes(TAG_BYTES.run);
  if (!envelope) round.run = encodeBase64url(runId);
  if (round.trace) Object.assign(round.trace, { run: round.run, round: round.number, from: envelope?.snapshot.v });
  let running: RoundActor | undefined;
  try {
    running = createRoundActor(round, envelope?.snapshot);
    return await runActor(round, running.actor as AnyActorRef, envelope !== undefined, envelope?.questions, runId);
  } catch (error) {
    const label = round.target.label;
    return failRound(round, { level: 'error', event: 'engine_error', code: 'threw', round: round.number, label, error });
  } finally {
    // every effect has read its scope when it started; nothing of the round runs on after this
    running?.release();
  }
}

/** Start, settle, feed, settle, answer. */
async function runActor<TResult>(
  round: Round<TResult>,
  actor: AnyActorRef,
  continuing: boolean,
  pinnedByState: Map<string, Uint8Array> | undefined,
  runId: Uint8Array,
): Promise<StepOutcome<TResult>> {
  const { ctx, request, target } = round;
  const machine = target.definition.machine;
  actor.start();
  if (continuing && actor.getSnapshot().status === 'error') {
    const detail = `the snapshot does not fit machine '${machine.id}'`;
    return refuseState(round, { code: 'outdated', why: 'snapshot_misfit', detail }, actor.getSnapshot().error);
  }
  if (machine.handlesClientEvent) actor.send(clientEvent(request.capabilities));
  const first = settledNow(actor) ? 'settled' : await settleActor(actor, ctx.settleTimeoutMs, request.signal);
  if (first !== 'settled') return unsettled(round, first, 'before_answers');

  // pin: answers count only for questions the opened state proves were asked
  const rendered = new Map<CompiledQuestion, ActiveQuestion>();
  let pinned = pinnedByState ?? NOTHING_PINNED;
  if (!continuing && target.definition.acceptAnswersWithoutState && actor.getSnapshot().status === 'active') {
    pinned = new Map(activeQuestions(machine, actor.getSnapshot(), rendered).map((a) => [a.question.key, a.hash]));
  }
  const { notes } = feedAnswers({ round, actor, machine, rendered, pinned, continuing });

  const settled = settledNow(actor) ? 'settled' : await settleActor(actor, ctx.settleTimeoutMs, request.signal);
  if (settled !== 'settled') return unsettled(round, settled, 'after_answers');
  const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
  if (round.trace) round.trace.settled = snapshot.value;
  if (snapshot.status === 'error') {
    const event = { level: 'error', event: 'machine_error', code: 'machine_failed', machine: machine.id, round: round.number } as const;
    return failRound(round, { ...event, error: snapshot.error });
  }
  if (snapshot.status === 'done') return finishPhase(round, snapshot);
  return askPhase(round, actor as Parameters<typeof askPhase>[1], snapshot, runId, rendered, notes);
}

const NOTHING_PINNED: Map<string, Uint8Array> = new Map();

/** A round whose machine did not settle: cancelled by the client, or out of time. */
function unsettled<TResult>(
  round: Round<TResult>,
  result: 'timeout' | 'aborted',
  when: 'before_answers' | 'after_answers',
): StepOutcome<TResult> {
  const { machine, owner } = round.target.definition;
  if (result === 'aborted') {
    // not a failure of the server; nothing more reaches the client anyway
    note(round, { level: 'info', event: 'request_cancelled', code: 'cancelled', machine: machine.id });
    return round.target.fail(`${owner} was cancelled before it finished.`);
  }
  const timeoutMs = round.ctx.settleTimeoutMs;
  return failRound(round, { level: 'error', event: 'settle_timeout', code: when, machine: machine.id, timeoutMs });
}
