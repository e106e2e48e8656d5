// One round of any MRTR method, as named phases: open the state (round-open.ts), create the actor
// (round-actor.ts), start and settle it, feed the answers (feed-answers.ts), settle again, and answer
// (round-outcome.ts). The actor is stopped and the effect scope released on every path, once the outcome is
// known (at once for a round that waited for nothing, or when its promise settles).
import type { Actor, AnyActorRef, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { type ActiveQuestion, activeQuestions } from './active-questions.ts';
import { encodeBase64url } from './base64url.ts';
import { clientEvent } from './client-event.ts';
import { type AwaitedEffect, awaitedEffect } from './effect-scope.ts';
import { feedAnswers } from './feed-answers.ts';
import { waitsOnLongWorkOnly } from './long-work.ts';
import type { CompiledQuestion } from './questions.ts';
import { randomBytes } from './random-bytes.ts';
import { createRoundActor, endRoundActor } from './round-actor.ts';
import { failRound, note, roundThrew } from './round-note.ts';
import { openPhase, refuseState } from './round-open.ts';
import { answerPhase } from './round-outcome.ts';
import { newTrace, reportRound } from './round-report.ts';
import type { Round, RoundRequest, StepContext, StepTarget } from './round-types.ts';
import { settleActor, settledNow } from './settle-actor.ts';
import { TAG_BYTES } from './state-envelope.ts';
import type { StepOutcome } from './step-outcome.ts';

/**
 * One round of any MRTR method: size cap, open, check, rehydrate, feed answers, settle, answer.
 * Methods differ only in what `target` holds. The outcome comes back as a value when nothing had to be
 * waited for (the caller's async function resolves with it: no promise of this round's own to adopt).
 */
export function runStep<TResult>(ctx: StepContext, target: StepTarget<TResult>, request: RoundRequest): Outcome<TResult> {
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
  const outcome = step(round);
  if (!inspect || !trace) return outcome;
  return Promise.resolve(outcome).then((ended) => {
    const facts = { target: target.label, machine: target.definition.machine.id, trace, request, outcome: ended };
    const report = { ...facts, show: ctx.inspectAnswers === 'shown', at: ctx.now() };
    reportRound(inspect, report, (error) => note(round, { level: 'warn', event: 'inspect_failed', code: 'inspect_threw', error }));
    return ended;
  });
}

function step<TResult>(round: Round<TResult>): Outcome<TResult> {
  const opened = openPhase(round);
  if (!opened.ok) return opened.outcome;
  const { envelope } = opened;
  const runId = envelope?.run ?? randomBytes(TAG_BYTES.run);
  if (!envelope) round.run = encodeBase64url(runId);
  if (round.trace) Object.assign(round.trace, { run: round.run, round: round.number, from: envelope?.snapshot.v });
  let actor: ReturnType<typeof createRoundActor> | undefined;
  let outcome: Outcome<TResult>;
  try {
    actor = createRoundActor(round, envelope?.snapshot);
    // a promise only when the round waits for something (invoked work, an async result)
    outcome = runActor(round, actor as AnyActorRef, {
      continuing: envelope !== undefined,
      pinnedByState: envelope?.questions,
      runId,
    });
  } catch (error) {
    const failed = roundThrew(round, error);
    if (actor) endRoundActor(actor);
    return failed;
  }
  if (!(outcome instanceof Promise)) {
    // every effect has read its scope when it started; nothing of the round runs on after this
    endRoundActor(actor);
    return asFinishedTask(round, outcome);
  }
  const started = actor;
  return outcome.then(
    (ended) => {
      // an actor that went on as a task is the task runner's
      if (!round.detached) endRoundActor(started);
      return asFinishedTask(round, ended);
    },
    (error: unknown) => {
      const failed = roundThrew(round, error);
      if (!round.detached) endRoundActor(started);
      return failed;
    },
  );
}

/** A tool that must answer a task, to a client that consents, answers its result as a finished task. */
function asFinishedTask<TResult>(round: Round<TResult>, outcome: StepOutcome<TResult>): Outcome<TResult> {
  const task = round.target.task;
  if (outcome.type !== 'complete' || task?.mode !== 'required' || round.request.tasks !== true) return outcome;
  return task.finished(round, outcome.result);
}

type Outcome<TResult> = StepOutcome<TResult> | Promise<StepOutcome<TResult>>;

/** What the opened state, if any, gives the actor: whether it goes on from one, the questions it proves asked, the run id. */
interface Resumed {
  continuing: boolean;
  pinnedByState: Map<string, Uint8Array> | undefined;
  runId: Uint8Array;
}

/** Start and settle; then feed the answers (a promise only when the machine had to be waited for). */
function runActor<TResult>(round: Round<TResult>, actor: AnyActorRef, resumed: Resumed): Outcome<TResult> {
  const { request, target } = round;
  const machine = target.definition.machine;
  actor.start();
  if (resumed.continuing && actor.getSnapshot().status === 'error') {
    const detail = `the snapshot does not fit machine '${machine.id}'`;
    return refuseState(round, { code: 'outdated', why: 'snapshot_misfit', detail }, actor.getSnapshot().error);
  }
  if (machine.handlesClientEvent) actor.send(clientEvent(request.capabilities));
  if (settledNow(actor)) return feed(round, actor, resumed);
  if (becomesTask(round, actor)) return startTask(round, actor);
  return whenSettled(round, actor, 'before_answers', () => feed(round, actor, resumed));
}

/** Feed the answers and settle; then answer. */
function feed<TResult>(round: Round<TResult>, actor: AnyActorRef, { continuing, pinnedByState, runId }: Resumed): Outcome<TResult> {
  const { target } = round;
  const machine = target.definition.machine;
  // pin: answers count only for questions the opened state proves were asked
  const rendered = new Map<CompiledQuestion, ActiveQuestion>();
  let pinned = pinnedByState ?? NOTHING_PINNED;
  if (!continuing && target.definition.acceptAnswersWithoutState && actor.getSnapshot().status === 'active') {
    pinned = new Map(activeQuestions(machine, actor.getSnapshot(), rendered).map((a) => [a.question.key, a.hash]));
  }
  const { notes } = feedAnswers({ round, actor, machine, rendered, pinned, continuing });
  const fed = { runId, rendered, notes };
  if (settledNow(actor)) return answerPhase(round, actor as Actor<AnyStateMachine>, fed);
  if (becomesTask(round, actor)) return startTask(round, actor);
  return whenSettled(round, actor, 'after_answers', () => answerPhase(round, actor as Actor<AnyStateMachine>, fed));
}

/** `next` once the actor, still running invoked work, has settled; a round whose actor did not settle ends `unsettled`. */
function whenSettled<TResult>(
  round: Round<TResult>,
  actor: AnyActorRef,
  when: 'before_answers' | 'after_answers',
  next: () => Outcome<TResult>,
): Promise<StepOutcome<TResult>> {
  return settleActor(actor, round.ctx.settleTimeoutMs, round.request.signal).then((settled) =>
    settled === 'settled' ? next() : unsettled(round, settled, when, actor.system),
  );
}

/** The round goes on as a task: the tool answers tasks, the client consents, and the machine waits on long work only. */
function becomesTask(round: Round<unknown>, actor: AnyActorRef): boolean {
  if (round.target.task === undefined || round.request.tasks !== true) return false;
  return waitsOnLongWorkOnly(round.target.definition.machine.machine, actor.getSnapshot() as AnyMachineSnapshot);
}

/** Hands the actor to the task runner, which answers with the task once it is recorded. */
function startTask<TResult>(round: Round<TResult>, actor: AnyActorRef): Promise<StepOutcome<TResult>> {
  round.detached = true;
  // the inspector's report of this round: where it stopped, as a round that asks does
  if (round.trace) round.trace.settled = actor.getSnapshot().value;
  return round.target.task!.start(round, actor as Actor<AnyStateMachine>);
}

const NOTHING_PINNED: Map<string, Uint8Array> = new Map();

/**
 * A round whose machine did not settle: cancelled by the client, or out of time. Out of time while an
 * effect it waits for runs for another request (a live claim), it says so and when to try again.
 */
function unsettled<TResult>(
  round: Round<TResult>,
  result: 'timeout' | 'aborted',
  when: 'before_answers' | 'after_answers',
  system: object,
): StepOutcome<TResult> {
  const { machine, owner } = round.target.definition;
  if (result === 'aborted') {
    // not a failure of the server; nothing more reaches the client anyway
    note(round, { level: 'info', event: 'request_cancelled', code: 'cancelled', machine: machine.id });
    return round.target.fail(`${owner} was cancelled before it finished.`);
  }
  const timeoutMs = round.ctx.settleTimeoutMs;
  const awaited = awaitedEffect(system);
  if (awaited) {
    note(round, { level: 'warn', event: 'effect_still_running', code: 'started_elsewhere', ...awaited, timeoutMs });
    return round.target.fail(stillRunningText(owner, awaited, timeoutMs));
  }
  return failRound(round, { level: 'error', event: 'settle_timeout', code: when, machine: machine.id, timeoutMs });
}

/** What the client is told when an effect another request started is still running: what, since when, when to try again. */
function stillRunningText(owner: string, { effect, since }: AwaitedEffect, timeoutMs: number): string {
  const started = since === undefined ? '' : ` at ${new Date(since).toISOString()}`;
  const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
  return `${owner} could not finish yet: its step '${effect}' is in progress, started${started} by another request of this conversation, and has not recorded its outcome. Try again in ${seconds} second${seconds === 1 ? '' : 's'} to get it.`;
}
