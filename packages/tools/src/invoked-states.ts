// The states of a flow that wait for an answer's async check, shared by the kinds that ask, and the words
// and invoke ids of all the flow's work (a load's loader and a review's show are built by their kinds). Each
// is an XState invoke with an id, so the engine waits for it before it seals the state, reports it as
// progress and stops it on cancellation.
import {
  act,
  guard,
  json,
  type Leaving,
  leaveTransitions,
  passThrough,
  ruleTransitions,
  type StateBuilder,
  type StateConfig,
  type Transition,
} from './flow-transitions.ts';

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
export const showId = (review: string) => `show:${review}`;

/** What an invoke id of a flow runs: a form's check, a review's show, or (any other id) a loader. */
export function workOf(id: string): { kind: 'check' | 'show' | 'load'; name: string } {
  if (id.startsWith('check:')) return { kind: 'check', name: id.slice('check:'.length) };
  if (id.startsWith('show:')) return { kind: 'show', name: id.slice('show:'.length) };
  return { kind: 'load', name: id };
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
export function checkedAskState(b: StateBuilder, name: string, step: Leaving): StateConfig {
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
