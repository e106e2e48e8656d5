// What the engine tells the operator about a round, as typed data: one member per kind of entry
// (`event`), each with a stable reason `code` and the facts the entry's text is made of. The text is
// made from the data (engineEventText) only when the engine was given a log; without one no entry is
// built at all. Tests and log readers match `event` and `code`, not the wording.
import { errorText } from './error-text.ts';
import type { NonJson } from './json-value.ts';
import type { EnvelopeRejection, StateRefusal } from './state-envelope.ts';

/** What one question-asking mode is called in a log line: `form elicitation`, `sampling (sampling/createMessage)`. */
type ModeSupport = string;

/** One entry of the engine's log, as data. `target` and `run` are added when it is logged. */
export type EngineEvent =
  | {
      level: 'warn';
      event: 'state_rejected';
      /** Which check refused the state. */
      code: StateRefusal;
      /** What the client was told (`data.reason`). */
      reason: EnvelopeRejection['code'];
      /** `requestState`, or `continuation token` for a state that came back through the model. */
      state: 'requestState' | 'continuation token';
      detail: string;
      error?: unknown;
    }
  | { level: 'info'; event: 'state_migrated'; code: 'migrated'; machine: string; path: readonly string[] }
  | { level: 'info'; event: 'machine_log'; code: 'machine_log'; args: readonly unknown[] }
  | { level: 'warn'; event: 'progress_failed'; code: 'progress_threw'; child: string; error: unknown }
  | { level: 'info'; event: 'request_cancelled'; code: 'cancelled'; machine: string }
  | { level: 'error'; event: 'settle_timeout'; code: 'before_answers' | 'after_answers'; machine: string; timeoutMs: number }
  | { level: 'error'; event: 'machine_error'; code: 'machine_failed'; machine: string; round: number; error: unknown }
  | { level: 'error'; event: 'result_error'; code: 'finish_threw'; owner: string; error: unknown }
  | { level: 'info'; event: 'run_complete'; code: 'finished'; round: number }
  | { level: 'error'; event: 'too_many_questions'; code: 'over_255'; machine: string; count: number }
  | { level: 'error'; event: 'machine_stuck'; code: 'asks_nothing'; machine: string; value: unknown }
  | { level: 'info'; event: 'capability_missing'; code: 'cannot_ask'; keys: string; supports: ModeSupport }
  | { level: 'info'; event: 'fallback_used'; code: 'asked_model'; keys: string; supports: ModeSupport }
  | { level: 'error'; event: 'context_not_json'; code: 'not_json'; found: NonJson; round: number }
  | { level: 'error'; event: 'state_too_large'; code: 'over_limit'; machine: string; round: number; bytes: number; limit: number }
  | { level: 'error'; event: 'engine_error'; code: 'threw'; round: number; label: string; error: unknown }
  | { level: 'warn'; event: 'inspect_failed'; code: 'inspect_threw'; error: unknown }
  | { level: 'info'; event: 'answer_invalid'; code: 'not_an_object'; what: string }
  | {
      level: 'info';
      event: 'answer_invalid';
      /** `not_accepted`: the question's schema or the answer's form refused it; the others: it was too large. */
      code: 'not_accepted' | 'too_large' | 'too_large_to_keep';
      key: string;
      reason: string;
    }
  | { level: 'info'; event: 'answer_ignored'; code: 'question_changed'; key: string }
  | EffectEvent
  | { level: 'error'; event: 'completion_failed'; code: 'completer_threw'; name: string; owner: string; error: unknown };

/** What an at-most-once effect tells the operator (once-effect.ts). */
type EffectEvent =
  | {
      level: 'warn';
      event: 'effect_outcome_unknown';
      /** `process_stopped`: the process that claimed it stopped; `never_recorded`: its claim is older than the round's limit. */
      code: 'process_stopped' | 'never_recorded';
      effect: string;
      /** What the machine is told too (EffectOutcomeUnknownError). */
      detail: string;
    }
  | { level: 'info'; event: 'effect_waiting'; code: 'started_elsewhere'; effect: string; since: number }
  /** The round ran out of time (settleTimeoutMs) waiting for an effect another request runs; the client was told to try again. */
  | { level: 'warn'; event: 'effect_still_running'; code: 'started_elsewhere'; effect: string; since?: number; timeoutMs: number }
  | { level: 'warn'; event: 'task_state_refused'; code: 'tool_not_served' | 'state_not_opened'; tool: string; taskId: string }
  /** A task a process that is gone (killed, crashed) left working, taken over by this one and run on (resumeTasks). */
  | { level: 'info'; event: 'task_resumed'; code: 'owner_gone'; tool: string; taskId: string }
  /** A task's work taken from the job queue (tasks.queue): it runs in this process now. */
  | { level: 'info'; event: 'task_running'; code: 'job'; tool: string; taskId: string }
  /** A task's work stopped here without a cancel (this process stops, or lost its lease): back to the queue for another. */
  | { level: 'info'; event: 'task_handed_back'; code: 'job_stopped'; tool: string; taskId: string }
  | { level: 'info'; event: 'effect_duplicate'; code: 'running_here'; effect: string }
  /** `thrown`: what the effect threw (its text is in the line; no stack is printed under it). */
  | { level: 'warn'; event: 'effect_failed'; code: 'effect_threw'; effect: string; thrown: unknown }
  | { level: 'error'; event: 'effect_record_failed'; code: 'record_failed'; effect: string; ran: boolean; thrown: unknown }
  /** `committed`: in the ledger's transaction, with the effect's own writes (inLedgerTransaction). */
  | { level: 'info'; event: 'effect_recorded'; code: 'recorded' | 'committed'; effect: string; ok: boolean }
  /**
   * An effect declared inLedgerTransaction whose transaction did not commit: `not_started` before it ran
   * (the ledger was locked or unreachable), `not_committed` after (its writes were rolled back with it).
   */
  | { level: 'error'; event: 'effect_transaction_failed'; code: 'not_started' | 'not_committed'; effect: string; thrown: unknown }
  /** An effect declared inLedgerTransaction, with a ledger that offers no transactions: it runs at most once, as without. */
  | { level: 'info'; event: 'effect_transaction_unavailable'; code: 'ledger_cannot'; effect: string };

/** A round's entry as the log receives it: the data, where it happened, and its text. */
type LoggedEngineEvent = EngineEvent & { readonly message: string; readonly target: string; readonly run?: string };

/** One argument of a machine's log() action as text. */
const logText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

const STOPPED = 'invoked work still running was stopped (an at-most-once effect runs on, and its outcome is recorded)';

/** The text of an entry, as the operator reads it. */
function engineEventText(e: EngineEvent): string {
  switch (e.event) {
    case 'state_rejected':
      return `${e.state} refused (${e.reason}): ${e.detail}`;
    case 'state_migrated':
      return `state of machine '${e.machine}' migrated from version ${e.path.map((v) => `'${v}'`).join(' → ')}`;
    case 'machine_log':
      return e.args.map(logText).join(' ');
    case 'progress_failed':
      return `progress report for '${e.child}' threw`;
    case 'request_cancelled':
      return `the request was cancelled while machine '${e.machine}' was running; ${STOPPED}`;
    case 'settle_timeout':
      return e.code === 'before_answers'
        ? `machine '${e.machine}' did not settle (timeout) before answers were fed`
        : `machine '${e.machine}' did not settle within ${e.timeoutMs} ms; ${STOPPED}`;
    case 'machine_error':
      return `machine '${e.machine}' failed in round ${e.round}: ${errorText(e.error)}`;
    case 'result_error':
      return `${e.owner}: turning the machine's output into the result failed: ${(e.error as Error)?.message}`;
    case 'run_complete':
      return `finished in round ${e.round}`;
    case 'too_many_questions':
      return `machine '${e.machine}' asks ${e.count} questions at once; one round holds at most 255`;
    case 'machine_stuck':
      return `machine '${e.machine}' settled in state ${JSON.stringify(e.value)}, which neither asks for input nor is final. Add meta.ask to the state or a transition out of it.`;
    case 'capability_missing':
      return `cannot ask ${e.keys}: the request did not declare ${e.supports}`;
    case 'fallback_used':
      return `asked ${e.keys} through the model: the request did not declare ${e.supports}`;
    case 'context_not_json':
      return `${e.found.path} is ${e.found.what}: ${e.found.fix}. Only plain JSON survives between rounds, so round ${e.round} stops here.`;
    case 'state_too_large':
      return `round ${e.round} of machine '${e.machine}' would seal a state of ${e.bytes} bytes, over the ${e.limit}-byte limit (maxStateBytes, ROUNDTRIP_MAX_STATE_BYTES); keep less in context, or raise the limit`;
    case 'engine_error':
      return `round ${e.round} of ${e.label} threw: ${(e.error as Error)?.message ?? String(e.error)}`;
    case 'inspect_failed':
      return `the inspect hook threw: ${(e.error as Error)?.message}`;
    case 'answer_invalid':
      return e.code === 'not_an_object'
        ? `inputResponses is a ${e.what}, not an object; answers ignored`
        : `answer to '${e.key}' not accepted: ${e.reason}`;
    case 'answer_ignored':
      return `answer to '${e.key}' ignored: the question it answers is no longer the one being asked`;
    case 'effect_outcome_unknown':
      return e.detail;
    case 'effect_waiting':
      return `effect '${e.effect}' was started at ${new Date(e.since).toISOString()} by another round; waiting for its outcome`;
    case 'task_state_refused':
      return e.code === 'tool_not_served'
        ? `task ${e.taskId} of tool '${e.tool}' was answered, but this server no longer serves that tool; the task failed`
        : `task ${e.taskId}'s parked state did not open: the key that sealed it is not in this server's keyring, or tool '${e.tool}' was changed since (arguments, machine); the task failed`;
    case 'task_resumed':
      return `task ${e.taskId} of tool '${e.tool}' was left working by a process that has ended; this server runs it on from where it last settled`;
    case 'task_running':
      return `task ${e.taskId} of tool '${e.tool}' runs in this server now (taken from the job queue)`;
    case 'task_handed_back':
      return `task ${e.taskId} of tool '${e.tool}' was stopped in this server before it settled; it goes back to the job queue and runs on in another`;
    case 'effect_still_running':
      return `effect '${e.effect}', started${e.since === undefined ? '' : ` at ${new Date(e.since).toISOString()}`} by another request, recorded no outcome within ${e.timeoutMs} ms (settleTimeoutMs); the client was told to try again`;
    case 'effect_duplicate':
      return `effect '${e.effect}' is already running in this process; waiting for its outcome`;
    case 'effect_failed':
      return `effect '${e.effect}' failed: ${errorText(e.thrown)}`;
    case 'effect_record_failed':
      return `effect '${e.effect}' ${e.ran ? 'ran' : 'failed'}, but its outcome could not be recorded; its record stays running: ${errorText(e.thrown)}`;
    case 'effect_recorded':
      return e.code === 'committed'
        ? `effect '${e.effect}' ${e.ok ? 'done' : 'failed (its writes rolled back)'} and committed with its outcome in the ledger's transaction`
        : `effect '${e.effect}' ${e.ok ? 'done' : 'failed'} and recorded`;
    case 'effect_transaction_failed':
      return e.code === 'not_started'
        ? `effect '${e.effect}' was not started: the ledger could not open its transaction: ${errorText(e.thrown)}`
        : `effect '${e.effect}' ran, but the ledger's transaction did not commit, so its writes and outcome were not kept: ${errorText(e.thrown)}`;
    case 'effect_transaction_unavailable':
      return `effect '${e.effect}' is declared inLedgerTransaction, but the engine's ledger offers no transactions (createSqliteLedger and createPostgresLedger do): it runs at most once, on its own connection`;
    case 'completion_failed':
      return `completing '${e.name}' of ${e.owner} failed: ${(e.error as Error)?.message ?? String(e.error)}`;
  }
}

/**
 * Hands an entry to the log with its place and text; call only when there is a log. The log is any that takes
 * an EngineLogEntry (step-outcome.ts, not imported here: its event names are read from this file's events).
 */
export function logEngineEvent(log: (entry: LoggedEngineEvent) => void, target: string, run: string | undefined, e: EngineEvent): void {
  // Object.assign, not { ...e, target }: on Node 20 that spread makes a hidden class per call
  // (BENCHMARKS.md, "The tail's GC pauses")
  const entry = Object.assign(
    {},
    e,
    run ? { target, message: engineEventText(e), run } : { target, message: engineEventText(e) },
  ) as LoggedEngineEvent;
  log(entry);
}
