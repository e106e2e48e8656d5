// The pieces every state of a declared flow is written with: JSON guards, actions and transitions, the
// targets of `next` rules (a step, the final action, or the end with a message) and what leaving does.
import type { Condition } from './conditions.ts';
import { askingBefore, FINISH, type FlowGraph } from './flow-graph.ts';
import type { ActionName, FlowActions, FlowGuards, GuardName } from './flow-params.ts';
import type { Leave } from './flow-spec.ts';
import type { NextRule } from './step-next.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonParams = { [key: string]: Json };
export type Guard = { type: GuardName; params: JsonParams };
export type Action = { type: ActionName; params?: JsonParams };
export type Transition = { target?: string; guard?: Guard; actions?: Action[] };
export type StateConfig = { [key: string]: Json | undefined };

/** The state running the final action, and the two final states. */
export const FINISHING = 'finishing';
export const DONE = 'done';
export const ENDED = 'ended';

export interface StateBuilder {
  readonly machineId: string;
  readonly graph: FlowGraph;
  /** The form (or page) has a check that runs as a guard. */
  readonly syncCheck: (form: string) => boolean;
  /** The form (or page) has an async check, run as an invoked actor. */
  readonly asyncCheck: (form: string) => boolean;
  /** The steps of the flow that show values from the server's data (reviews), read again before the final action. */
  readonly showingReviews: readonly string[];
}

/** What a step that asks does when its question is declined or cancelled, and what progress says while it checks. */
export interface Leaving {
  readonly onDecline?: Leave;
  readonly onCancel?: Leave;
  readonly progress?: string;
}

export const json = (value: unknown): Json => value as Json;

/** The params of a reference to `P`'s guard or action: none when it takes none, optional when it may. */
type ParamsArg<P> = [P] extends [undefined] ? [] : undefined extends P ? [params?: Exclude<P, undefined>] : [params: P];

/** A reference to a named guard with its params, typed by FlowGuards; `{}` when it takes none. */
export const guard = <N extends GuardName>(type: N, ...params: ParamsArg<FlowGuards[N]>): Guard => ({
  type,
  params: (params[0] ?? {}) as JsonParams,
});
/** A reference to a named action with its params, typed by FlowActions; without params when it takes none. */
export const act = <N extends ActionName>(type: N, ...params: ParamsArg<FlowActions[N]>): Action =>
  params[0] === undefined ? { type } : { type, params: params[0] as JsonParams };
export const withGuard = (t: Transition, guard: Guard | undefined): Transition => (guard ? { ...t, guard } : t);

/** The `when` guard of a condition. */
export const when = (condition: Condition | undefined): Guard | undefined =>
  condition === undefined ? undefined : guard('when', { condition });

/** A target written from a top-level step (`nested`: from inside a step's own states or regions). */
export function targetOf(b: StateBuilder, name: string, nested: boolean): string {
  const state = name === FINISH ? FINISHING : name;
  return nested ? `#${b.machineId}.${state}` : state;
}

/** Where one rule of `step` leads: its step, or the end (with the rule's message), and what that adds to `actions`. */
export function ruleTarget(b: StateBuilder, step: string, rule: NextRule, nested: boolean, actions: Action[]): Transition {
  if (rule.end !== undefined)
    return { target: targetOf(b, ENDED, nested), actions: [...actions, act('endFlow', { step, how: 'stopped', message: rule.end })] };
  return { target: targetOf(b, rule.goto, nested), actions };
}

/** The rules of `step` as transitions, each with `actions`. */
export function ruleTransitions(
  b: StateBuilder,
  step: string,
  rules: readonly NextRule[],
  nested: boolean,
  actions: Action[],
): Transition[] {
  return rules.map((rule) => withGuard(ruleTarget(b, step, rule, nested, actions), when(rule.if)));
}

/** A transition without an empty list of actions. */
export function withoutEmptyActions(t: Transition): Transition {
  if (t.actions === undefined || t.actions.length > 0) return t;
  const { actions: _none, ...rest } = t;
  return rest;
}

/** The rules of `step` when passing it through with its earlier answers, while reviewing. */
export function passThrough(b: StateBuilder, step: string, rules: readonly NextRule[], nested: boolean): Transition[] {
  return rules.map((rule) =>
    withoutEmptyActions({
      ...ruleTarget(b, step, rule, nested, []),
      guard: guard('answeredBefore', rule.if === undefined ? { step } : { step, condition: rule.if }),
    }),
  );
}

/** What a decline or cancel does, as transitions. */
export function leaveTransitions(
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
    // back to the asking step before this one; a load between them runs again on the way here
    const back = [...askingBefore(b.graph, step)].map((before) => ({
      target: targetOf(b, before, nested),
      guard: guard('cameFrom', { step: before }),
      actions: [act('forgetStep', { step: before })],
    }));
    return [...back, end];
  }
  return [end];
}
