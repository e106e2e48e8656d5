// What one round did, for an inspector: where it started, what was answered (masked by default), the
// events fed, where it settled and what it asks next. Built only when the engine has an `inspect` hook.
import type { StepOutcome } from './step-outcome.ts';

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

/** Hands a finished round's report to the inspector; an inspector that throws is reported to `warn`, never passed on. */
export function reportRound(
  inspect: (report: RoundReport) => void,
  round: {
    target: string;
    machine: string;
    trace: RoundTrace;
    request: { inputResponses?: unknown };
    outcome: { type: StepOutcome['type'] };
    show: boolean;
    at: number;
  },
  warn: (message: string) => void,
): void {
  try {
    inspect({
      target: round.target,
      machine: round.machine,
      ...round.trace,
      answers: inspectedAnswers(round.request.inputResponses, round.show),
      outcome: round.outcome.type,
      at: round.at,
    });
  } catch (error) {
    warn(`the inspect hook threw: ${(error as Error)?.message}`);
  }
}
