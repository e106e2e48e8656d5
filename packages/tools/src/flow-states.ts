// The JSON state configs of a flow's steps. Everything here is plain data: named guards and actions
// with JSON params, questions asked by name; flow-setup.ts implements the names. Steps whose checks or
// shows are async, and load steps, get their invoked states from invoked-states.ts.
import type { Condition } from './conditions.ts';
import type { AskStep, PageStep, ReviewStep } from './flow-spec.ts';
import {
  type Action,
  act,
  DONE,
  ENDED,
  FINISHING,
  type Guard,
  guard,
  type Json,
  json,
  leaveTransitions,
  passThrough,
  ruleTarget,
  ruleTransitions,
  type StateBuilder,
  type StateConfig,
  type Transition,
  targetOf,
  when,
  withGuard,
  withoutEmptyActions,
} from './flow-transitions.ts';
import { checkedAskState, checkingState, showingReview, WORK_WORDS } from './invoked-states.ts';

/** Names of the review's options: `confirm`, `abandon`, and `change_<step>` for each step it can send back to. */
export const CONFIRM = 'confirm';
export const ABANDON = 'abandon';
export const changeOption = (step: string) => `change_${step}`;

/** Kept answers whose (sync) check fails now are dropped (with the reason), so their form is asked again. */
function dropFailing(b: StateBuilder, forms: readonly string[], target?: string): Transition[] {
  const checked = forms.filter((form) => b.syncCheck(form));
  if (checked.length === 0) return [];
  const t: Transition = {
    guard: guard('keptAnswerFails', { forms: checked }),
    actions: [act('dropFailingAnswers', { forms: checked })],
  };
  return [target ? { target, ...t } : t];
}

const checkFirst = (b: StateBuilder, form: string): Transition[] =>
  b.syncCheck(form) ? [{ guard: guard('answerFails', { form }), actions: [act('rememberProblem', { form })] }] : [];

/** A step asking one form, named after the step. */
export function singleAskState(b: StateBuilder, name: string, step: AskStep): StateConfig {
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

/** One form's region of a parallel step: deciding whether to ask it, asking, (checking,) answered or skipped. */
function formRegion(b: StateBuilder, name: string, step: AskStep, form: string): Json {
  const spec = step.forms![form]!;
  const skipForm: Transition[] = [{ target: 'skipped', actions: [act('skipForm', { form })] }];
  const ask: Transition = { target: 'asking' };
  const checked = b.asyncCheck(form);
  // an async check runs in its own state; a kept answer (while reviewing) is checked there again
  const keep: Transition[] = checked
    ? [{ target: 'checking', guard: guard('keptAnswer', { form }), actions: [act('holdKept', { form })] }]
    : dropFailing(b, [form], 'asking');
  return json({
    initial: 'deciding',
    states: {
      deciding: {
        always: [
          ...keep,
          { target: 'answered', guard: guard('formAnsweredBefore', { form }) },
          ...(spec.if === undefined ? [ask] : [withGuard(ask, when(spec.if)), ...skipForm]),
        ],
      },
      asking: {
        meta: { ask: [form] },
        on: {
          [`${form}.accept`]: checked
            ? { target: 'checking', actions: [act('hold', { form })] }
            : [...checkFirst(b, form), { target: 'answered', actions: [act('store', { form })] }],
          [`${form}.decline`]: leaveTransitions(b, name, spec.onDecline ?? step.onDecline ?? 'end', 'declined', true, skipForm),
          [`${form}.cancel`]: leaveTransitions(b, name, spec.onCancel ?? step.onCancel ?? 'end', 'cancelled', true, skipForm),
        },
      },
      ...(checked ? { checking: checkingState(form, [{ target: 'answered', actions: [act('storeHeld', { form })] }], step.progress) } : {}),
      answered: { type: 'final' },
      skipped: { type: 'final' },
    },
  });
}

/** A step asking several forms in one round: one parallel region each. */
export function parallelAskState(b: StateBuilder, name: string, step: AskStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const regions: { [key: string]: Json } = {};
  for (const form of b.formsOf(name)) regions[form] = formRegion(b, name, step, form);
  return {
    type: 'parallel',
    entry: [act('enterStep', { step: name })],
    states: regions,
    onDone: ruleTransitions(b, name, rules, false, []),
  } as StateConfig;
}

/**
 * A step sending the user to a page: it waits to learn what the client can open (the engine tells it at
 * the start of each round), then asks the URL question, or goes to the alternative step.
 */
export function pageState(b: StateBuilder, name: string, step: PageStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const store = [act('store', { form: name })];
  const skip = ruleTransitions(b, name, rules, true, [act('skipStep', { step: name })]);
  const checked = b.asyncCheck(name);
  return {
    entry: [act('enterStep', { step: name })],
    initial: 'choosing',
    states: {
      choosing: {
        always: [
          ...passThrough(b, name, rules, true),
          { target: 'asking', guard: guard('clientOpensPages') },
          {
            target: targetOf(b, step.alternative, true),
            guard: guard('clientKnown'),
            actions: [act('skipStep', { step: name })],
          },
        ],
      },
      asking: {
        meta: { ask: [name] },
        on: {
          [`${name}.accept`]: checked
            ? { target: 'checking', actions: [act('hold', { form: name })] }
            : [...checkFirst(b, name), ...ruleTransitions(b, name, rules, true, store)],
          [`${name}.decline`]: leaveTransitions(b, name, step.onDecline ?? 'end', 'declined', true, skip),
          [`${name}.cancel`]: leaveTransitions(b, name, step.onCancel ?? 'end', 'cancelled', true, skip),
        },
      },
      ...(checked
        ? { checking: checkingState(name, ruleTransitions(b, name, rules, true, [act('storeHeld', { form: name })]), step.progress) }
        : {}),
    },
  } as StateConfig;
}

/**
 * A review: confirm goes on, abandon ends, `change_<step>` asks that step again (if it was on the way
 * here). With an async `show`, the values are read in a state of their own before the review is asked.
 */
export function reviewState(b: StateBuilder, name: string, step: ReviewStep, changeable: readonly string[]): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const nested = b.asyncShow(name);
  const choice = (option: string, condition?: Condition): Guard =>
    guard('reviewChoice', condition === undefined ? { option } : { option, condition });
  const ended = targetOf(b, ENDED, nested);
  const abandoned: Action[] = [act('endFlow', { step: name, how: 'abandoned' })];
  const on = {
    [`${name}.accept`]: [
      ...rules.map((rule) => ({ ...ruleTarget(b, name, rule, nested, []), guard: choice(CONFIRM, rule.if) })).map(withoutEmptyActions),
      { target: ended, guard: choice(ABANDON), actions: abandoned },
      ...changeable.map((target) => ({
        target: targetOf(b, target, nested),
        guard: guard('changeStep', { step: target }),
        actions: [act('forgetStep', { step: target })],
      })),
      // a change to a step this conversation did not pass through: say so and ask again
      { actions: [act('rememberProblem', { form: name })] },
    ],
    [`${name}.decline`]: [{ target: ended, actions: abandoned }],
    [`${name}.cancel`]: leaveTransitions(b, name, step.onCancel ?? 'end', 'cancelled', nested, ruleTransitions(b, name, rules, nested, [])),
  };
  const entry = [act('enterStep', { step: name }), act('startReview')];
  if (nested) return showingReview(name, entry, { meta: { ask: [name] }, on: json(on) }, step.progress);
  return { entry: [...entry, ...(step.show ? [act('noteShown', { step: name })] : [])], meta: { ask: [name] }, on: json(on) };
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
