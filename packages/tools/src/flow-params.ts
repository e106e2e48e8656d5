// The params of a declared flow's named guards and actions, as its JSON config gives them: one map per
// kind (FlowGuards, FlowActions), the only list of their names. The states write references through the
// builders typed by it (`guard`, `act` in flow-transitions.ts); flow-setup.ts, flow-work.ts and the step
// kinds (each its own, step-kinds.ts) implement exactly its names, each reading its params typed from the
// map (GuardImplementations, ActionImplementations).
import type { ActionFunction, ProvidedActor } from 'xstate';
import type { Condition } from './conditions.ts';
import type { EndedHow, FlowContext, FlowEvent } from './flow-context.ts';

/** The step a guard or action is about. */
export interface StepParams {
  readonly step: string;
}

/** The form a guard or action is about. */
export interface FormParams {
  readonly form: string;
}

/** The forms of a step whose kept answers are checked again while reviewing. */
interface FormsParams {
  readonly forms?: readonly string[];
}

/** A condition that must hold too (none: it holds). */
interface ConditionParams {
  readonly condition?: Condition;
}

/** A rule of a step's `next`, taken again while reviewing when the step was answered before. */
interface StepRuleParams extends StepParams, ConditionParams {}

/** A review's option, and the condition of the rule it goes by. */
interface OptionParams extends ConditionParams {
  readonly option: string;
}

/** Where and how the flow ended early; an `end` rule's message template. */
interface EndParams extends StepParams {
  readonly how: EndedHow;
  readonly message?: string;
}

/** What failed, in words, for the error of a failed piece of work. */
interface WhatParams {
  readonly what: string;
}

/** The final action's actor, when the tool names it (`finalName`): none for the default `finish`. */
interface ActorParams {
  readonly actor: string;
}

/** Every named guard of a declared flow, with its params (`undefined`: none; its reference gives `{}`). */
export type FlowGuards = {
  when: ConditionParams;
  answeredBefore: StepRuleParams;
  formAnsweredBefore: FormParams;
  keptAnswer: FormParams;
  checkRefused: undefined;
  keptAnswerFails: FormsParams;
  answerFails: FormParams;
  confirmedChanged: FormParams;
  shownChanged: StepParams;
  clientOpensPages: undefined;
  clientKnown: undefined;
  cameFrom: StepParams;
  reviewChoice: OptionParams;
  changeStep: StepParams;
};

/** Every named action of a declared flow, with its params (`undefined`: none, its reference has no params). */
export type FlowActions = {
  takeInput: undefined;
  enterStep: StepParams;
  store: FormParams;
  skipStep: StepParams;
  skipForm: FormParams;
  forgetStep: StepParams;
  dropFailingAnswers: FormsParams;
  rememberProblem: FormParams;
  endFlow: EndParams;
  startReview: undefined;
  noteClient: undefined;
  noteShown: StepParams;
  rememberChange: StepParams;
  keepResult: undefined;
  runFinal: ActorParams | undefined;
  stopFinal: undefined;
  forgetConfirmed: FormParams;
  keepFailure: undefined;
  failFinal: undefined;
  // the invoked work's (flow-work.ts)
  keepLoaded: StepParams;
  loadFailed: StepParams;
  logLoadFailure: StepParams;
  hold: FormParams;
  holdKept: FormParams;
  storeHeld: FormParams;
  rememberRefusal: FormParams;
  keepShown: StepParams;
  failStep: WhatParams;
};

export type GuardName = keyof FlowGuards;
export type ActionName = keyof FlowActions;

/** What a guard or action implementation is given first. */
interface FlowArgs {
  readonly context: FlowContext;
  readonly event: FlowEvent;
}

/** The guards setup() is given: exactly the map's names, each reading its params from the map. */
export type GuardImplementations = { [N in GuardName]: (args: FlowArgs, params: FlowGuards[N]) => boolean };

/**
 * The actions setup() is given: exactly the map's names, each reading its params from the map. They may
 * spawn `TActor` (the final action's), and name no action, guard, delay or event of their own (`never`).
 */
export type ActionImplementations<TActor extends ProvidedActor = never> = {
  [N in ActionName]: ActionFunction<FlowContext, FlowEvent, FlowEvent, FlowActions[N], TActor, never, never, never, never>;
};
