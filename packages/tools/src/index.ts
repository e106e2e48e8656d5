// @roundtrip/tools: multi-question MCP tools, prompts and resources declared as data (steps of forms,
// branches on earlier answers, a review, a final action run once) and compiled to XState machines the
// engine serves. This file is the package's API contract. Each definition it makes carries the engine's
// presentation view (presentationOf), which is how exporters and diagrams read a flow.

export type { Condition, ConditionPath, ConditionValue, PathTest } from './conditions.ts';
export type { FlowPromptConfig } from './define-flow-prompt.ts';
export { defineFlowPrompt } from './define-flow-prompt.ts';
export type { FlowResourceConfig } from './define-flow-resource.ts';
export { defineFlowResource } from './define-flow-resource.ts';
export type { EndedInfo, FailedInfo, FlowToolConfig, FlowToolResult, StoppedInfo, WrittenToolResult } from './define-flow-tool.ts';
export { defineFlowTool } from './define-flow-tool.ts';
export type { BooleanOptions, MultiSelectOptions, NumberOptions, SelectOptions, TextFormat, TextOptions } from './fields.ts';
export { field } from './fields.ts';
export type { FinalInput } from './final-input.ts';
export type { FlowProblem, FlowProblemCode } from './flow-checks.ts';
export type { LoadedOf } from './flow-loaders.ts';
export type {
  AnswersOf,
  AskStep,
  CheckArgs,
  ChoiceAnswer,
  ChoiceOption,
  ChooseStep,
  ConfirmedValue,
  Fields,
  FormAnswer,
  FormSpec,
  Leave,
  PageCheckArgs,
  PageStep,
  ReviewStep,
  ShowArgs,
  Shown,
  StepFallback,
  StepSpec,
} from './flow-spec.ts';
export { ask, askAll, choose, form, openPage, review } from './flow-spec.ts';
export type {
  FinalAnswersOf,
  FirstSteps,
  FlowSteps,
  OrderedArgs,
  OrderedCheckArgs,
  OrderedConfirmed,
  OrderedFormSpec,
  OrderedNext,
  OrderedNextRule,
  StepsBuilder,
} from './flow-steps.ts';
export type { OutcomeInfo } from './flow-tool-outcome.ts';
export type { FlowVersioning } from './flow-version.ts';
export type { LoadErrorArgs, Loader, LoaderArgs, LoaderArgsFor, LoadStep } from './load-spec.ts';
export { load } from './load-spec.ts';
export type { Next, NextRule } from './step-next.ts';
