// The context every declared flow keeps between rounds (plain JSON), and the views its parts read.

/** Answers by form name; `null` marks a form skipped or not asked on this way through. */
type FlowAnswers = Record<string, Record<string, unknown> | null>;

/** How a flow ended without its final action: the user left, or a rule ended it (`stopped`), or a load `failed`. */
export type EndedHow = 'declined' | 'cancelled' | 'abandoned' | 'stopped' | 'failed';

export interface FlowContext {
  input: Record<string, unknown>;
  answers: FlowAnswers;
  /** The steps entered on the way here, in order (going back or changing an answer cuts it). */
  trail: string[];
  /** Why the last answer of a form did not count, shown when it is asked again. */
  problems: Record<string, string>;
  /** True once a review was shown: steps answered before are then passed through, not asked again. */
  reviewing: boolean;
  /** What each load step loaded, by step (absent in states sealed before flows loaded anything). */
  loaded?: Record<string, unknown>;
  /**
   * The last answer given to each form, by form (refused by a check or taken back too): the form starts
   * with it when asked again. Absent in states sealed before forms were filled in again.
   */
  lastAnswers?: Record<string, Record<string, unknown>>;
  /** Answers waiting for their form's async check, by form. */
  held?: Record<string, Record<string, unknown>>;
  /** `message`: the rendered message of an `end` rule or of a failed load. */
  ended?: { step: string; how: EndedHow; message?: string };
  /** What each review showed from the server's data, by review step; checked again before the final action. */
  shown?: Record<string, Record<string, string | number | boolean>>;
  result?: unknown;
  /** The final action's result is one recorded earlier in this conversation, for other answers than these. */
  earlier?: boolean;
  /**
   * Why the final action failed, when the tool words its failures (`failed`): kept only in the final
   * state of the round it failed in, never sealed.
   */
  failure?: unknown;
  /** What the client of the latest round can be asked (from the engine's client event). */
  client?: { form: boolean; url: boolean };
}

/** What a finished flow reports to its tool, prompt or resource. */
export type FlowOutcome<TResult = unknown> =
  /** `earlier`: the final action had already run in this conversation with other answers; this is its result then. */
  | { status: 'done'; result: TResult; earlier: boolean }
  | {
      status: 'ended';
      step: string;
      how: EndedHow;
      message?: string;
      input: Record<string, unknown>;
      answers: Record<string, Record<string, unknown>>;
      loaded: Record<string, unknown>;
    };

/** An answer event, as the engine sends it: `<form>.accept` with content, `.decline`, `.cancel`. */
export type FlowEvent = {
  type: string;
  key?: string;
  content?: Record<string, unknown>;
  output?: unknown;
  error?: unknown;
  input?: unknown;
  /** The engine's client event: what the client can show (forms, pages). */
  elicitation?: { readonly form: boolean; readonly url: boolean };
};

/**
 * The flow's values for conditions and templates: `input`, every loaded value and answered form, answers
 * held for their check, and the answer being accepted.
 */
export function valuesOf(context: FlowContext, event?: FlowEvent): Record<string, unknown> {
  // Object.assign, not spreads: on Node 20 they make a hidden class per call (BENCHMARKS.md, "The tail's GC pauses")
  const values: Record<string, unknown> = Object.assign({}, context.loaded, context.answers, context.held);
  values.input = context.input;
  if (event?.key !== undefined && event.type === `${event.key}.accept` && event.content) values[event.key] = event.content;
  return values;
}

/** The answers of the forms on the way taken, skipped ones left out: what the final action receives. */
export function answersOnTrail(
  context: FlowContext,
  formsOf: (step: string) => readonly string[],
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const step of context.trail) {
    for (const form of formsOf(step)) {
      const answer = context.answers[form];
      if (answer) out[form] = answer;
    }
  }
  return out;
}

/** The values loaded by the load steps on the way taken: what the final action receives. */
export function loadedOnTrail(context: FlowContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const step of context.trail) if (context.loaded && Object.hasOwn(context.loaded, step)) out[step] = context.loaded[step];
  return out;
}

/** The trail after entering `step`: cut back to it when it was entered before, else extended by it. */
export function enteredTrail(trail: readonly string[], step: string): string[] {
  const at = trail.indexOf(step);
  return at >= 0 ? trail.slice(0, at + 1) : [...trail, step];
}

/** The outcome of a flow that reached a final state. */
export function outcomeOf(context: FlowContext, formsOf: (step: string) => readonly string[]): FlowOutcome {
  if (context.ended)
    return {
      status: 'ended',
      ...context.ended,
      input: context.input,
      answers: answersOnTrail(context, formsOf),
      loaded: loadedOnTrail(context),
    };
  return { status: 'done', result: context.result, earlier: context.earlier === true };
}

/** JSON with keys sorted, so equal answers give equal text whatever order they were written in. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The change to the context when `content` is given to `form` now: its last answer kept (nothing without content). */
export function withLastAnswer(
  context: FlowContext,
  form: string,
  content: Record<string, unknown> | undefined,
): Pick<FlowContext, 'lastAnswers'> {
  return content === undefined ? {} : { lastAnswers: { ...context.lastAnswers, [form]: content } };
}
