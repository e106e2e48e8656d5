// What one round did, for an inspector: where it started, what was answered (masked by default), the
// events fed, where it settled, what it asks next and why a question is asked again. Built only when the
// engine has an `inspect` hook.
import { clip } from './issue-text.ts';
import type { StepOutcome } from './step-outcome.ts';
import type { InputRequest } from './wire-shapes.ts';

/** One answer as an inspector sees it: the action, and the fields (their values only when shown). */
export interface InspectedAnswer {
  readonly action: string;
  /** The fields answered: their names when masked, names and values when shown. */
  readonly fields?: readonly string[] | Readonly<Record<string, unknown>>;
}

/** One round of one conversation (`run`), reported to an inspector after it ended. */
export interface RoundReport {
  /** `tool book_meeting` */
  readonly target: string;
  readonly machine: string;
  /** The conversation: the same for every round of one call. Empty when the round was refused before it began. */
  readonly run: string;
  readonly round: number;
  /** The state the round started from (undefined on the first round). */
  readonly from: unknown;
  readonly answers: Readonly<Record<string, InspectedAnswer>>;
  /** The answer events fed to the machine, in order. */
  readonly events: readonly string[];
  /** The state the machine settled in (undefined when the round failed before). */
  readonly settled: unknown;
  /** The question keys asked next (none when the round finished or failed). */
  readonly asked: readonly string[];
  /**
   * Why a question is asked again, by key: the reason its message gave the user (a step's `check` refused
   * the answer, the answer did not fit the question's schema, or none arrived). Absent when no question is
   * asked again. These are the author's words: a check that quotes the answer quotes it here, masked or not.
   */
  readonly reasked?: Readonly<Record<string, string>>;
  readonly outcome: StepOutcome['type'];
  /** When the round ended, in ms since the epoch. */
  readonly at: number;
}

/** What run-step records while a round runs, for the report. */
export interface RoundTrace {
  run: string;
  round: number;
  from: unknown;
  events: string[];
  settled: unknown;
  asked: string[];
}

export const newTrace = (): RoundTrace => ({ run: '', round: 0, from: undefined, events: [], settled: undefined, asked: [] });

/** The answers of a request as an inspector may see them: by default the field names only. */
function inspectedAnswers(responses: unknown, show: boolean): Record<string, InspectedAnswer> {
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) return {};
  const out: Record<string, InspectedAnswer> = {};
  for (const [key, raw] of Object.entries(responses as Record<string, unknown>)) {
    const { action, content } = (typeof raw === 'object' && raw !== null ? raw : {}) as { action?: unknown; content?: unknown };
    const fields =
      typeof content === 'object' && content !== null && !Array.isArray(content) ? (content as Record<string, unknown>) : undefined;
    out[key] = fields ? { action: String(action), fields: show ? { ...fields } : Object.keys(fields) } : { action: String(action) };
  }
  return out;
}

// The words a re-asked question's message ends with: the engine's own notes (feed-answers.ts) and those
// of @roundtrip/tools' flows for an answer a step's check refused (flow-questions.ts) say the same.
const REASK_NOTE =
  /Your last answer was not accepted: ([\s\S]*?)\. Please answer again\.|No answer to this question arrived; please answer it\./g;
/** A reason kept at most this long in a report. */
const MAX_REASON = 500;

/** Key → the reason each question of the round is asked again with, read from its message; undefined when none is. */
function reaskedReasons(inputRequests: Readonly<Record<string, InputRequest>> | undefined): Record<string, string> | undefined {
  const reasons: Record<string, string> = {};
  for (const [key, request] of Object.entries(inputRequests ?? {})) {
    // a sampling or roots request carries no message, so no note (its reason is in the log)
    if (request.method !== 'elicitation/create') continue;
    const found = [...request.params.message.matchAll(REASK_NOTE)].map((match) => match[1] ?? 'no answer arrived');
    if (found.length > 0) reasons[key] = clip(found.join('; '), MAX_REASON);
  }
  return Object.keys(reasons).length > 0 ? reasons : undefined;
}

/** Hands a finished round's report to the inspector; an inspector that throws is reported to `warn`, never passed on. */
export function reportRound(
  inspect: (report: RoundReport) => void,
  round: {
    target: string;
    machine: string;
    trace: RoundTrace;
    request: { inputResponses?: unknown };
    outcome: { type: StepOutcome['type']; inputRequests?: Readonly<Record<string, InputRequest>> };
    show: boolean;
    at: number;
  },
  warn: (error: unknown) => void,
): void {
  try {
    const reasked = reaskedReasons(round.outcome.inputRequests);
    inspect({
      target: round.target,
      machine: round.machine,
      ...round.trace,
      answers: inspectedAnswers(round.request.inputResponses, round.show),
      ...(reasked && { reasked }),
      outcome: round.outcome.type,
      at: round.at,
    });
  } catch (error) {
    warn(error);
  }
}
