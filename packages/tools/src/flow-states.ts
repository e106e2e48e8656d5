// The pieces of step states more than one kind builds with (a step asking one form named after it, the
// check of an answer first, kept answers checked again) and the states after the steps (the final action,
// the two ends). Plain data: named guards and actions with JSON params, questions asked by name. Each
// kind's own states are in its file (step-kind-*.ts); invoked work's states in invoked-states.ts.
import {
  act,
  DONE,
  ENDED,
  FINISHING,
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
import { checkedAskState, WORK_WORDS } from './invoked-states.ts';

/** Kept answers whose (sync) check fails now are dropped (with the reason), so their form is asked again. */
export function dropFailing(b: StateBuilder, forms: readonly string[], target?: string): Transition[] {
  const checked = forms.filter((form) => b.syncCheck(form));
  if (checked.length === 0) return [];
  const t: Transition = {
    guard: guard('keptAnswerFails', { forms: checked }),
    actions: [act('dropFailingAnswers', { forms: checked })],
  };
  return [target ? { target, ...t } : t];
}

/** A sync check of the answer first: when it refuses, the reason is kept and the form asked again. */
export const checkFirst = (b: StateBuilder, form: string): Transition[] =>
  b.syncCheck(form) ? [{ guard: guard('answerFails', { form }), actions: [act('rememberProblem', { form })] }] : [];

/** A step asking one form, named after the step (an `ask`, a `choose`). */
export function singleAskState(b: StateBuilder, name: string, step: Leaving): StateConfig {
  if (b.asyncCheck(name)) return checkedAskState(b, name, step);
  const rules = b.graph.rules.get(name)!;
  const store = [act('store', { form: name })];
  const skip = ruleTransitions(b, name, rules, false, [act('skipStep', { step: name })]);
  return {
    entry: [act('enterStep', { step: name })],
    meta: { ask: [name] },
    // when coming back through a review, a step answered before is not asked again, unless its check now fails
    always: [...dropFailing(b, [name]), ...passThrough(b, name, rules, false)],
    on: {
      [`${name}.accept`]: [...checkFirst(b, name), ...ruleTransitions(b, name, rules, false, store)],
      [`${name}.decline`]: leaveTransitions(b, name, step.onDecline ?? 'end', 'declined', false, skip),
      [`${name}.cancel`]: leaveTransitions(b, name, step.onCancel ?? 'end', 'cancelled', false, skip),
    },
  } as StateConfig;
}

/** The state running the final action, and the two ends. */
export function endStates(b: StateBuilder): { [key: string]: StateConfig } {
  // shown values that changed since their review: back to that review, which shows the new ones
  const changed: Transition[] = b.showingReviews.map((review) => ({
    target: review,
    guard: guard('shownChanged', { step: review }),
    actions: [act('rememberChange', { step: review })],
  }));
  return {
    [FINISHING]: {
      // what progress says as the final action starts: the tool's `finalProgress` replaces it
      meta: { progress: WORK_WORDS.final },
      entry: [act('runFinal')],
      // the final actor is spawned, so it is stopped (and leaves the snapshot) when the flow moves on
      exit: [act('stopFinal')],
      on: {
        'xstate.done.actor.finish': { target: DONE, actions: [act('keepResult')] },
        'xstate.error.actor.finish': json([...changed, { actions: [act('failFinal')] }]),
      },
    },
    [DONE]: { type: 'final' },
    [ENDED]: { type: 'final' },
  };
}
