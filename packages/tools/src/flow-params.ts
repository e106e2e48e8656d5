// The params of a declared flow's named guards and actions, as its JSON config gives them: the states
// write them (flow-states.ts, flow-transitions.ts, invoked-states.ts, the step kinds), flow-setup.ts and
// flow-work.ts read them, typed, instead of looking keys up in a record.
import type { Condition } from './conditions.ts';
import type { EndedHow } from './flow-context.ts';

/** The step a guard or action is about. */
export interface StepParams {
  readonly step: string;
}

/** The form a guard or action is about. */
export interface FormParams {
  readonly form: string;
}

/** The forms of a step whose kept answers are checked again while reviewing. */
export interface FormsParams {
  readonly forms?: readonly string[];
}

/** A condition that must hold too (none: it holds). */
export interface ConditionParams {
  readonly condition?: Condition;
}

/** A rule of a step's `next`, taken again while reviewing when the step was answered before. */
export interface StepRuleParams extends StepParams, ConditionParams {}

/** A review's option, and the condition of the rule it goes by. */
export interface OptionParams extends ConditionParams {
  readonly option: string;
}

/** Where and how the flow ended early; an `end` rule's message template. */
export interface EndParams extends StepParams {
  readonly how: EndedHow;
  readonly message?: string;
}

/** What failed, in words, for the error of a failed piece of work. */
export interface WhatParams {
  readonly what: string;
}
