// The JSON state configs of a flow's steps. Everything here is plain data: named guards and actions
// with JSON params, questions asked by name; flow-setup.ts implements the names.
import type { Condition } from './conditions.ts';
import { FINISH, type FlowGraph } from './flow-graph.ts';
import type { AskStep, Leave, NextRule, PageStep, ReviewStep } from './flow-spec.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Guard = { type: string; params: { [key: string]: Json } };
type Action = { type: string; params?: { [key: string]: Json } };
type Transition = { target?: string; guard?: Guard; actions?: Action[] };
export type StateConfig = { [key: string]: Json | undefined };

/** The final states and the state running the final action. */
export const FINISHING = 'finishing';
const DONE = 'done';
const ENDED = 'ended';

/** Names of the review's options: `confirm`, `abandon`, and `change_<step>` for each step it can send back to. */
export const CONFIRM = 'confirm';
export const ABANDON = 'abandon';
export const changeOption = (step: string) => `change_${step}`;

export interface StateBuilder {
  readonly machineId: string;
  readonly graph: FlowGraph;
  /** The forms of each ask step, in order. */
  readonly formsOf: (step: string) => readonly string[];
  readonly hasCheck: (form: string) => boolean;
  /** The reviews of the flow that show values from the server's data. */
  readonly showingReviews: readonly string[];
}

const when = (condition: Condition | undefined): Guard | undefined =>
  condition === undefined ? undefined : { type: 'when', params: { condition: condition as unknown as Json } };
const act = (type: string, params?: { [key: string]: Json }): Action => (params ? { type, params } : { type });
const withGuard = (t: Transition, guard: Guard | undefined): Transition => (guard ? { ...t, guard } : t);

/** A target written from a top-level step (`nested`: from inside a parallel step's region). */
function targetOf(b: StateBuilder, name: string, nested: boolean): string {
  const state = name === FINISH ? FINISHING : name;
  return nested ? `#${b.machineId}.${state}` : state;
}

function ruleTransitions(b: StateBuilder, rules: readonly NextRule[], nested: boolean, actions: Action[]): Transition[] {
  return rules.map((rule) => withGuard({ target: targetOf(b, rule.goto, nested), actions }, when(rule.if)));
}

/** What a decline or cancel does, as transitions. */
function leaveTransitions(
  b: StateBuilder,
  step: string,
  leave: Leave,
  how: 'declined' | 'cancelled',
  nested: boolean,
  skip: Transition[],
): Transition[] {
  const end: Transition = { target: targetOf(b, ENDED, nested), actions: [act('endFlow', { step, how })] };
  if (leave === 'skip') return skip;
  if (leave === 'back') {
    const back = [...(b.graph.before.get(step) ?? [])].map((before) => ({
      target: targetOf(b, before, nested),
      guard: { type: 'cameFrom', params: { step: before } },
      actions: [act('forgetStep', { step: before })],
    }));
    return [...back, end];
  }
  return [end];
}

/** Kept answers whose check fails now are dropped (with the reason), so their form is asked again. */
function dropFailing(b: StateBuilder, forms: readonly string[], target?: string): Transition[] {
  const checked = forms.filter((form) => b.hasCheck(form));
  if (checked.length === 0) return [];
  const t: Transition = {
    guard: { type: 'keptAnswerFails', params: { forms: checked } },
    actions: [act('dropFailingAnswers', { forms: checked })],
  };
  return [target ? { target, ...t } : t];
}

const checkFirst = (b: StateBuilder, form: string): Transition[] =>
  b.hasCheck(form) ? [{ guard: { type: 'answerFails', params: { form } }, actions: [act('rememberProblem', { form })] }] : [];

/** A step asking one form, named after the step. */
export function singleAskState(b: StateBuilder, name: string, step: AskStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const store = [act('store', { form: name })];
  const skip = ruleTransitions(b, rules, false, [act('skipStep', { step: name })]);
  return {
    entry: [act('enterStep', { step: name })],
    meta: { ask: [name] },
    // when coming back through a review, a step answered before is not asked again, unless its check now fails
    always: [
      ...dropFailing(b, [name]),
      ...rules.map((rule) => ({
        target: targetOf(b, rule.goto, false),
        guard: {
          type: 'answeredBefore',
          params: rule.if === undefined ? { step: name } : { step: name, condition: rule.if as unknown as Json },
        },
      })),
    ],
    on: {
      [`${name}.accept`]: [...checkFirst(b, name), ...ruleTransitions(b, rules, false, store)],
      [`${name}.decline`]: leaveTransitions(b, name, step.onDecline ?? 'end', 'declined', false, skip),
      [`${name}.cancel`]: leaveTransitions(b, name, step.onCancel ?? 'end', 'cancelled', false, skip),
    },
  } as StateConfig;
}

/** A step asking several forms in one round: one parallel region each. */
export function parallelAskState(b: StateBuilder, name: string, step: AskStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const regions: { [key: string]: Json } = {};
  for (const form of b.formsOf(name)) {
    const spec = step.forms![form]!;
    const skipForm: Transition[] = [{ target: 'skipped', actions: [act('skipForm', { form })] }];
    const ask: Transition = { target: 'asking' };
    regions[form] = {
      initial: 'deciding',
      states: {
        deciding: {
          always: [
            ...dropFailing(b, [form], 'asking'),
            { target: 'answered', guard: { type: 'formAnsweredBefore', params: { form } } },
            ...(spec.if === undefined ? [ask] : [withGuard(ask, when(spec.if)), ...skipForm]),
          ],
        },
        asking: {
          meta: { ask: [form] },
          on: {
            [`${form}.accept`]: [...checkFirst(b, form), { target: 'answered', actions: [act('store', { form })] }],
            [`${form}.decline`]: leaveTransitions(b, name, spec.onDecline ?? step.onDecline ?? 'end', 'declined', true, skipForm),
            [`${form}.cancel`]: leaveTransitions(b, name, spec.onCancel ?? step.onCancel ?? 'end', 'cancelled', true, skipForm),
          },
        },
        answered: { type: 'final' },
        skipped: { type: 'final' },
      },
    } as unknown as Json;
  }
  return {
    type: 'parallel',
    entry: [act('enterStep', { step: name })],
    states: regions,
    onDone: ruleTransitions(b, rules, false, []),
  } as StateConfig;
}

/**
 * A step sending the user to a page: it waits to learn what the client can open (the engine tells it at
 * the start of each round), then asks the URL question, or goes to the alternative step.
 */
export function pageState(b: StateBuilder, name: string, step: PageStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const store = [act('store', { form: name })];
  const skip = ruleTransitions(b, rules, true, [act('skipStep', { step: name })]);
  return {
    entry: [act('enterStep', { step: name })],
    initial: 'choosing',
    states: {
      choosing: {
        always: [
          ...rules.map((rule) => ({
            target: targetOf(b, rule.goto, true),
            guard: {
              type: 'answeredBefore',
              params: rule.if === undefined ? { step: name } : { step: name, condition: rule.if as unknown as Json },
            },
          })),
          { target: 'asking', guard: { type: 'clientOpensPages', params: {} } },
          {
            target: targetOf(b, step.alternative, true),
            guard: { type: 'clientKnown', params: {} },
            actions: [act('skipStep', { step: name })],
          },
        ],
      },
      asking: {
        meta: { ask: [name] },
        on: {
          [`${name}.accept`]: [...checkFirst(b, name), ...ruleTransitions(b, rules, true, store)],
          [`${name}.decline`]: leaveTransitions(b, name, step.onDecline ?? 'end', 'declined', true, skip),
          [`${name}.cancel`]: leaveTransitions(b, name, step.onCancel ?? 'end', 'cancelled', true, skip),
        },
      },
    },
  } as StateConfig;
}

/** A review: confirm goes on, abandon ends, `change_<step>` asks that step again (if it was on the way here). */
export function reviewState(b: StateBuilder, name: string, step: ReviewStep, changeable: readonly string[]): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const choice = (option: string, condition?: Condition): Guard => ({
    type: 'reviewChoice',
    params: condition === undefined ? { option } : { option, condition: condition as unknown as Json },
  });
  return {
    entry: [act('enterStep', { step: name }), act('startReview'), ...(step.show ? [act('noteShown', { step: name })] : [])],
    meta: { ask: [name] },
    on: {
      [`${name}.accept`]: [
        ...rules.map((rule) => ({ target: targetOf(b, rule.goto, false), guard: choice(CONFIRM, rule.if) })),
        { target: ENDED, guard: choice(ABANDON), actions: [act('endFlow', { step: name, how: 'abandoned' })] },
        ...changeable.map((target) => ({
          target,
          guard: { type: 'changeStep', params: { step: target } },
          actions: [act('forgetStep', { step: target })],
        })),
        // a change to a step this conversation did not pass through: say so and ask again
        { actions: [act('rememberProblem', { form: name })] },
      ],
      [`${name}.decline`]: [{ target: ENDED, actions: [act('endFlow', { step: name, how: 'abandoned' })] }],
      [`${name}.cancel`]: leaveTransitions(b, name, step.onCancel ?? 'end', 'cancelled', false, ruleTransitions(b, rules, false, [])),
    },
  } as StateConfig;
}

/** The state running the final action, and the two ends. */
export function endStates(b: StateBuilder): { [key: string]: StateConfig } {
  // shown values that changed since their review: back to that review, which shows the new ones
  const changed: Transition[] = b.showingReviews.map((review) => ({
    target: review,
    guard: { type: 'shownChanged', params: { step: review } },
    actions: [act('rememberChange', { step: review })],
  }));
  return {
    [FINISHING]: {
      entry: [act('runFinal')],
      // the final actor is spawned, so it is stopped (and leaves the snapshot) when the flow moves on
      exit: [act('stopFinal')],
      on: {
        'xstate.done.actor.finish': { target: DONE, actions: [act('keepResult')] },
        'xstate.error.actor.finish': [...changed, { actions: [act('failFinal')] }],
      },
    },
    [DONE]: { type: 'final' },
    [ENDED]: { type: 'final' },
  };
}
