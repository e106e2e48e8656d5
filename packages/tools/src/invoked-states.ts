// The states of a flow that wait for work of the server: a load step (its loader, invoked by name), an
// async check of an answer, and an async `show` of a review. Each is an XState invoke with an id, so the
// engine waits for it before it seals the state, reports it as progress and stops it on cancellation.
import type { AskStep } from './flow-spec.ts';
import {
  type Action,
  act,
  ENDED,
  guard,
  json,
  leaveTransitions,
  passThrough,
  ruleTransitions,
  type StateBuilder,
  type StateConfig,
  type Transition,
} from './flow-transitions.ts';
import type { LoadStep } from './load-spec.ts';

/**
 * What progress says while a flow's work runs on the server (the state's `meta.progress`, which the
 * engine sends as it starts), when its step gives no `progress` of its own.
 */
export const WORK_WORDS = {
  load: 'Loading…',
  check: 'Checking your answer…',
  show: 'Getting the latest details…',
  final: 'Finishing…',
} as const;

/** The invoke ids of the shared check and show actors, by form or review; a step's name never holds ':'. */
const checkId = (form: string) => `check:${form}`;
const showId = (review: string) => `show:${review}`;

/** What an invoke id of a flow runs: a form's check, a review's show, or (any other id) a loader. */
export function workOf(id: string): { kind: 'check' | 'show' | 'load'; name: string } {
  if (id.startsWith('check:')) return { kind: 'check', name: id.slice('check:'.length) };
  if (id.startsWith('show:')) return { kind: 'show', name: id.slice('show:'.length) };
  return { kind: 'load', name: id };
}

/** A load step: its loader runs on entry; once done, the value is kept and the rules (which may read it) lead on. */
export function loadState(b: StateBuilder, name: string, step: LoadStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  return {
    entry: [act('enterStep', { step: name })],
    // a long load is the work of a task (meta is not structure: marking it keeps states sealed before valid)
    meta: { progress: step.progress ?? WORK_WORDS.load, ...(step.long === true && { long: true }) },
    invoke: {
      // named after its loader, so diagrams say what runs (progress says the step's words); the loader's
      // input is the flow's
      id: step.run,
      src: step.run,
      input: { step: name },
      // the rules' conditions read the value from the done event, before it is kept
      onDone: json(ruleTransitions(b, name, rules, false, [act('keepLoaded', { step: name })])),
      // after the loader's own retries: the flow ends with the step's message, and the log says why
      onError: { target: ENDED, actions: [act('logLoadFailure', { step: name }), act('loadFailed', { step: name })] },
    },
  } as StateConfig;
}

/**
 * The state checking an answer held in context with the form's async check: a reason sends it back to
 * `asking` with the reason; otherwise `ok` (which keeps the held answer) applies. A check that throws
 * fails the round. `progress`: its step's words for it.
 */
export function checkingState(form: string, ok: Transition[], progress: string | undefined): StateConfig {
  return {
    meta: { progress: progress ?? WORK_WORDS.check },
    invoke: {
      id: checkId(form),
      src: 'check',
      input: { form },
      onDone: json([{ target: 'asking', guard: guard('checkRefused'), actions: [act('rememberRefusal', { form })] }, ...ok]),
      onError: { actions: [act('failStep', { what: `the check of '${form}'` })] },
    },
  };
}

/** A step asking one form whose check is async: asking, then checking the answer (a kept one too, while reviewing). */
export function checkedAskState(b: StateBuilder, name: string, step: AskStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const skip = ruleTransitions(b, name, rules, true, [act('skipStep', { step: name })]);
  return {
    entry: [act('enterStep', { step: name })],
    initial: 'asking',
    states: {
      asking: {
        meta: { ask: [name] },
        // while reviewing, an answer given before is checked again (and asked again if it no longer passes)
        always: json([
          { target: 'checking', guard: guard('keptAnswer', { form: name }), actions: [act('holdKept', { form: name })] },
          ...passThrough(b, name, rules, true),
        ]),
        on: {
          [`${name}.accept`]: { target: 'checking', actions: [act('hold', { form: name })] },
          [`${name}.decline`]: json(leaveTransitions(b, name, step.onDecline ?? 'end', 'declined', true, skip)),
          [`${name}.cancel`]: json(leaveTransitions(b, name, step.onCancel ?? 'end', 'cancelled', true, skip)),
        },
      },
      checking: checkingState(name, ruleTransitions(b, name, rules, true, [act('storeHeld', { form: name })]), step.progress),
    },
  } as StateConfig;
}

/** A review whose `show` is async: the values are read first (`showing`, said as `progress`), then the review is asked. */
export function showingReview(name: string, entry: Action[], asking: StateConfig, progress: string | undefined): StateConfig {
  return {
    entry: json(entry),
    initial: 'showing',
    states: {
      showing: {
        meta: { progress: progress ?? WORK_WORDS.show },
        invoke: {
          id: showId(name),
          src: 'show',
          input: { step: name },
          onDone: { target: 'asking', actions: [act('keepShown', { step: name })] },
          onError: { actions: [act('failStep', { what: `the show of review '${name}'` })] },
        },
      },
      asking,
    },
  } as StateConfig;
}
