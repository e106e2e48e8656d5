import nacl from 'tweetnacl';
import type { AnyActorRef, AnyMachineSnapshot, InspectionEvent } from 'xstate';
import { type ActiveQuestion, activeQuestions } from './active-questions.ts';
import { fallbackLog, gateRound, inputRequestsOf, missingCapability } from './answer-round.ts';
import { encodeBase64url } from './base64url.ts';
import { clientEvent } from './client-event.ts';
import type { DefinitionInternals } from './definition-internals.ts';
import { canonicalJson, digestBytes } from './digest.ts';
import type { EffectLedger } from './effect-ledger.ts';
import { setEffectScope } from './effect-scope.ts';
import { errorText } from './error-text.ts';
import type { ModelFallback } from './fallback-arguments.ts';
import { continuationRefusedText, fallbackText } from './fallback-text.ts';
import { feedAnswers } from './feed-answers.ts';
import { firstNonJson, type NonJson } from './json-value.ts';
import type { Keyring } from './keyring.ts';
import { openRoundState } from './open-round-state.ts';
import type { CompiledQuestion } from './questions.ts';
import { newTrace, type RoundReport, type RoundTrace, reportRound } from './round-report.ts';
import { sealState } from './sealed-state.ts';
import { settleActor } from './settle-actor.ts';
import { actorFor, compactSnapshot } from './snapshot-codec.ts';
import {
  type CompactSnapshot,
  type EnvelopeRejection,
  encodeEnvelope,
  type StateBinding,
  type StateEnvelope,
  TAG_BYTES,
} from './state-envelope.ts';
import { type EngineLogEntry, ErrorCode, INVALID_STATE_MESSAGE, invalidStateHint, type StepOutcome } from './step-outcome.ts';
import type { ClientCapabilities } from './wire-shapes.ts';

/** What one round of any MRTR method carries besides its own arguments. */
export interface RoundRequest {
  inputResponses?: unknown;
  /** Exactly as the client sent it (absent when the client sent none). */
  requestState?: unknown;
  /** Who is calling; states are bound to it. */
  principal: string;
  /** The client capabilities this request declared (per request on 2026-07-28, from initialize before). */
  capabilities: ClientCapabilities | undefined;
  signal?: AbortSignal;
  /**
   * True when the requestState never left the server: a 2025-era round, which the server holds open
   * while the host asks the user (the SDK's legacy shim). Its lifetime is then not checked, since the
   * user may take longer to answer than a state lives; every other check still applies.
   */
  stateHeldByServer?: boolean;
  /** Called as invoked actors start within this round; a transport turns it into progress notifications. */
  onProgress?: (update: ProgressUpdate) => void;
}

/** Work the machine started while serving a request: `progress` grows by one with each update. */
export interface ProgressUpdate {
  progress: number;
  message: string;
}

/** What the engine holds for every round: keys, limits, the ledger, the log. */
export interface StepContext {
  readonly keyring: Keyring;
  readonly audienceTag: Uint8Array;
  readonly ttlSeconds: number;
  readonly maxStateBytes: number;
  readonly settleTimeoutMs: number;
  readonly maxRounds: number;
  readonly now: () => number;
  readonly log: (entry: EngineLogEntry) => void;
  readonly ledger: EffectLedger;
  readonly inflight: Map<string, Promise<unknown>>;
  readonly principalTag: (principal: string) => Uint8Array;
  /** Receives a report of every round; see EngineOptions.inspect. */
  readonly inspect?: (report: RoundReport) => void;
  /** Show answer values to `inspect` (field names only otherwise). */
  readonly inspectAnswers?: 'masked' | 'shown';
  /** XState's inspection events of every round's actors; see EngineOptions.inspectActors. */
  readonly inspectActors?: (event: InspectionEvent) => void;
}

/** What a method contributes to the step: its definition, validated arguments, binding, and how failure looks. */
export interface StepTarget<TResult> {
  /** `tool refund_order`, for log lines. */
  readonly label: string;
  readonly definition: DefinitionInternals;
  /** Digest of method and target (tool name, prompt name, resource URI template). */
  readonly targetTag: Uint8Array;
  /** `tools/call\0refund_order`: what the arguments digest is prefixed with. */
  readonly argsScope: string;
  readonly args: Record<string, unknown>;
  /** Passed to the definition's finish (the URI actually read). */
  readonly finishWith: { uri?: string };
  /** The client-facing outcome of a failure: a tool error result for tools, a JSON-RPC error otherwise. */
  readonly fail: (text: string) => StepOutcome<TResult>;
  /** How to ask through the model: only tools/call of a tool with fallback questions (prompts and resources have no model in the loop). */
  readonly modelFallback?: ModelFallback<TResult>;
}

/** One argument of a machine's log() action as text. */
const logText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

const invalidState = <T>(reason: EnvelopeRejection['code']): StepOutcome<T> => ({
  type: 'error',
  error: { code: ErrorCode.InvalidParams, message: INVALID_STATE_MESSAGE, data: { reason, hint: invalidStateHint(reason) } },
});

/**
 * One round of any MRTR method: size cap, open, check, rehydrate, feed answers, settle, answer.
 * Methods differ only in what `target` holds.
 */
export async function runStep<TResult>(
  ctx: StepContext,
  target: StepTarget<TResult>,
  request: RoundRequest,
): Promise<StepOutcome<TResult>> {
  if (!ctx.inspect) return step(ctx, target, request, undefined);
  const trace = newTrace();
  const outcome = await step(ctx, target, request, trace);
  reportRound(
    ctx.inspect,
    {
      target: target.label,
      machine: target.definition.machine.id,
      trace,
      request,
      outcome,
      show: ctx.inspectAnswers === 'shown',
      at: ctx.now(),
    },
    (message) => ctx.log({ target: target.label, level: 'warn', event: 'inspect_failed', message, run: trace.run }),
  );
  return outcome;
}

async function step<TResult>(
  ctx: StepContext,
  target: StepTarget<TResult>,
  request: RoundRequest,
  trace: RoundTrace | undefined,
): Promise<StepOutcome<TResult>> {
  const { definition } = target;
  const machine = definition.machine;
  const logFor = (entry: Omit<EngineLogEntry, 'target'>) => ctx.log({ target: target.label, ...entry });
  const binding: StateBinding = {
    aud: ctx.audienceTag,
    sub: ctx.principalTag(request.principal),
    target: target.targetTag,
    args: digestBytes(`${target.argsScope}\0${canonicalJson(target.args)}`, TAG_BYTES.args),
  };

  // a continuation token is bound to its own target tag, so it never passes as a requestState, nor the reverse
  const fallback = target.modelFallback;
  const continued = fallback?.continued === true;
  const stateName = continued ? 'continuation token' : 'requestState';
  // refused like any invalid state; a token that came through the model gets words the model can act on
  const refuse = (code: EnvelopeRejection['code']): StepOutcome<TResult> =>
    continued ? target.fail(continuationRefusedText(fallback!.tool, code)) : invalidState(code);

  // open and check the state before anything runs
  let envelope: StateEnvelope | undefined;
  if (request.requestState !== undefined) {
    const opened = openRoundState(ctx, request, continued ? { ...binding, target: fallback!.continuationTag } : binding, machine);
    if (!opened.ok) {
      logFor({
        level: 'warn',
        event: 'state_rejected',
        message: `${stateName} refused (${opened.rejection.code}): ${opened.rejection.detail}`,
      });
      return refuse(opened.rejection.code);
    }
    envelope = opened.envelope;
    if (opened.migratedThrough) {
      const path = opened.migratedThrough.map((v) => `'${v}'`).join(' → ');
      const message = `state of machine '${machine.id}' migrated from version ${path}`;
      logFor({ level: 'info', event: 'state_migrated', message, run: encodeBase64url(envelope.run) });
    }
  }

  const rendered = new Map<CompiledQuestion, ActiveQuestion>();
  const runId = envelope?.run ?? nacl.randomBytes(TAG_BYTES.run);
  const run = encodeBase64url(runId);
  const round = envelope ? envelope.round + 1 : 1;
  if (trace) Object.assign(trace, { run, round, from: envelope?.snapshot.v });
  const actor = actorFor(machine.machine, target.args, envelope?.snapshot, {
    inspect: ctx.inspectActors,
    // a machine's log() actions go to the engine's log (never to stdout, which a stdio server keeps for the protocol)
    logger: (...args) => logFor({ level: 'info', event: 'machine_log', message: args.map(logText).join(' '), run }),
  });
  const releaseScope = setEffectScope(actor.system, {
    run,
    ledger: ctx.ledger,
    inflight: ctx.inflight,
    now: ctx.now,
    orphanAfterMs: ctx.settleTimeoutMs * 2,
    log: (entry) => logFor(entry),
  });
  let machineError: unknown;
  actor.subscribe({ error: (error) => (machineError = error) });
  if (request.onProgress) {
    const report = request.onProgress;
    const seen = new Set<string>();
    let progress = 0;
    actor.subscribe({
      next: (snapshot) => {
        for (const [id, child] of Object.entries(snapshot.children as Record<string, AnyActorRef | undefined>)) {
          if (seen.has(id) || child?.getSnapshot().status !== 'active') continue;
          seen.add(id);
          try {
            report({ progress: ++progress, message: `${definition.owner}: running '${id}'` });
          } catch (error) {
            logFor({ level: 'warn', event: 'progress_failed', message: `progress report for '${id}' threw`, run, error });
          }
        }
      },
      // XState rethrows (from a timer) any error an observer leaves unhandled; the error observer above records it
      error: () => {},
    });
  }
  const fail = (event: string, message: string, error?: unknown, clientText?: string): StepOutcome<TResult> => {
    actor.stop();
    logFor({ level: 'error', event, message, run, error });
    return target.fail(
      clientText ?? `${definition.owner} failed on the server before it could finish; the details are in the server's log.`,
    );
  };

  /** The client cancelled the request: not a failure of the server; nothing more reaches the client anyway. */
  const cancelled = (): StepOutcome<TResult> => {
    actor.stop();
    const message = `the request was cancelled while machine '${machine.id}' was running; invoked work still running was stopped (an at-most-once effect runs on, and its outcome is recorded)`;
    logFor({ level: 'info', event: 'request_cancelled', message, run });
    return target.fail(`${definition.owner} was cancelled before it finished.`);
  };

  try {
    actor.start();
    if (envelope && actor.getSnapshot().status === 'error') {
      actor.stop();
      logFor({
        level: 'warn',
        event: 'state_rejected',
        message: `${stateName} refused (outdated): the snapshot does not fit machine '${machine.id}'`,
        run,
        error: machineError,
      });
      return refuse('outdated');
    }
    if (machine.handlesClientEvent) actor.send(clientEvent(request.capabilities));
    const firstSettle = await settleActor(actor as AnyActorRef, ctx.settleTimeoutMs, request.signal);
    if (firstSettle === 'aborted') return cancelled();
    if (firstSettle !== 'settled')
      return fail(`settle_${firstSettle}`, `machine '${machine.id}' did not settle (${firstSettle}) before answers were fed`);

    // pin: answers count only for questions the opened state proves were asked
    let pinned = envelope?.questions ?? new Map<string, Uint8Array>();
    if (!envelope && definition.acceptAnswersWithoutState && actor.getSnapshot().status === 'active') {
      pinned = new Map(activeQuestions(machine, actor.getSnapshot(), rendered).map((a) => [a.question.key, a.hash]));
    }

    const { notes } = feedAnswers({
      actor: actor as AnyActorRef,
      machine,
      rendered,
      pinned,
      continuing: envelope !== undefined,
      inputResponses: request.inputResponses,
      maxStateBytes: ctx.maxStateBytes,
      log: logFor,
      run,
      trace,
    });

    const settled = await settleActor(actor as AnyActorRef, ctx.settleTimeoutMs, request.signal);
    if (settled === 'aborted') return cancelled();
    if (settled !== 'settled') {
      return fail(
        `settle_${settled}`,
        `machine '${machine.id}' did not settle within ${ctx.settleTimeoutMs} ms; invoked work still running was stopped (an at-most-once effect runs on, and its outcome is recorded)`,
      );
    }
    const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
    if (trace) trace.settled = snapshot.value;

    if (snapshot.status === 'error') {
      const cause = snapshot.error ?? machineError;
      return fail('machine_error', `machine '${machine.id}' failed in round ${round}: ${errorText(cause)}`, cause);
    }
    if (snapshot.status === 'done') {
      actor.stop();
      let result: TResult;
      try {
        // a tool's result may be async (it reads a store whose reads are)
        result = (await definition.finish(snapshot.output, target.finishWith)) as TResult;
      } catch (error) {
        return fail(
          'result_error',
          `${definition.owner}: turning the machine's output into the result failed: ${(error as Error).message}`,
          error,
        );
      }
      logFor({ level: 'info', event: 'run_complete', message: `finished in round ${round}`, run });
      return { type: 'complete', result };
    }

    const asks = activeQuestions(machine, snapshot, rendered);
    if (trace) trace.asked = asks.map((a) => a.question.key);
    if (asks.length > 255)
      return fail('too_many_questions', `machine '${machine.id}' asks ${asks.length} questions at once; one round holds at most 255`);
    if (asks.length === 0) {
      return fail(
        'machine_stuck',
        `machine '${machine.id}' settled in state ${JSON.stringify(snapshot.value)}, which neither asks for input nor is final. Add meta.ask to the state or a transition out of it.`,
      );
    }
    const gate = gateRound(asks, request.capabilities, fallback !== undefined);
    if (gate.kind === 'missing') {
      actor.stop();
      const { log, error } = missingCapability(definition.owner, asks, gate.missing);
      logFor({ level: 'info', event: 'capability_missing', message: log, run });
      return { type: 'error', error };
    }

    const notJson = (found: NonJson) =>
      fail(
        'context_not_json',
        `${found.path} is ${found.what}: ${found.fix}. Only plain JSON survives between rounds, so round ${round} stops here.`,
      );
    let compact: CompactSnapshot;
    try {
      compact = compactSnapshot(actor);
    } catch (error) {
      // XState's persistence walks context, and overflows the stack on a cycle: say where it is
      const found = firstNonJson(snapshot.context, 'context');
      if (found) return notJson(found);
      throw error;
    }
    actor.stop();
    const found =
      firstNonJson(compact.c, 'context') ?? (compact.ch ? firstNonJson(compact.ch, 'children', { undefinedMembers: 'absent' }) : undefined);
    if (found) return notJson(found);
    const nowMs = ctx.now();
    const issuedAt = Math.floor(nowMs / 1000);
    const next: StateEnvelope = {
      iat: issuedAt,
      // rounded up, so that a state never expires before its full lifetime (at most a second after)
      exp: Math.ceil(nowMs / 1000) + ctx.ttlSeconds,
      ...binding,
      ...(gate.kind === 'fallback' && { target: fallback!.continuationTag }),
      machine: machine.hash,
      round,
      run: runId,
      questions: new Map(asks.map((a) => [a.question.key, a.hash])),
      snapshot: compact,
    };
    const sealed = sealState(ctx.keyring, encodeEnvelope(next));
    // a state larger than the server accepts back would be refused next round, after the user answered
    if (sealed.length > ctx.maxStateBytes)
      return fail(
        'state_too_large',
        `round ${round} of machine '${machine.id}' would seal a state of ${sealed.length} bytes, over the ${ctx.maxStateBytes}-byte limit (maxStateBytes, ROUNDTRIP_MAX_STATE_BYTES); keep less in context, or raise the limit`,
        undefined,
        `${definition.owner} cannot go on: what this conversation holds grew past what the server keeps between rounds. Start again with shorter answers.`,
      );
    if (gate.kind === 'fallback') {
      logFor({ level: 'info', event: 'fallback_used', message: fallbackLog(asks, gate.missing), run });
      return fallback!.answer(fallbackText({ tool: fallback!.tool, args: target.args, asks, notes, continuation: sealed }));
    }
    return { type: 'input_required', inputRequests: inputRequestsOf(asks, notes), requestState: sealed };
  } catch (error) {
    return fail('engine_error', `round ${round} of ${target.label} threw: ${(error as Error)?.message ?? String(error)}`, error);
  } finally {
    // every effect has read its scope when it started, and the actor is stopped on every path out
    releaseScope();
  }
}
