// The one door from the tools package to the engine, and back to the author's functions. A declared
// flow's machine, questions and final action are made at run time from data, so what the engine checks
// at compile time (the machine's events against its questions' schemas, effects keyed by the machine's
// actor names, a result against the output schema) cannot be seen from here; the engine checks the same
// things when it compiles the definition, and throws a RoundtripDefinitionError. Every crossing is one
// function here, with the one assertion it needs and why; the rest of the package stays typed.
import {
  type AnyQuestions,
  definePrompt,
  defineQuestions,
  defineResource,
  defineTool,
  type EffectSpec,
  type MachineMigrations,
  type PromptDefinition,
  type PromptMessageView,
  type ResourceBody,
  type ResourceDefinition,
  type ToolAnnotations,
  type ToolDefinition,
  type ToolResultView,
} from '@roundtrip/engine';
import type { AnyStateMachine } from 'xstate';
import type { z } from 'zod';

/**
 * An author's function typed from the declaration (`final: ({ answers }) => …`, answers typed from the
 * steps), as the flow calls it: with the values it holds at run time. The compiled flow gives them the
 * declared shapes (each answer was parsed by its form's schema, each argument by the input schema).
 */
export function asDeclared<TArgs extends object, TResult>(fn: (args: TArgs) => TResult): (args: object) => TResult {
  return fn as (args: object) => TResult;
}

/** What every flow gives the engine, whatever it defines: the machine and questions made from its steps. */
interface FlowParts {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly questions: AnyQuestions;
  readonly machine: AnyStateMachine;
  readonly migrations?: MachineMigrations;
}

/** A flow tool's parts: its schemas, and its final action's effect under the actor name the tool chose. */
export interface FlowToolParts<TOutcome, TFinish> extends FlowParts {
  readonly annotations: ToolAnnotations | undefined;
  /** Whether it answers a task while its long work runs (the engine's ToolConfig.task). */
  readonly task?: 'optional' | 'required';
  readonly input: z.ZodObject;
  readonly output: z.ZodObject | undefined;
  readonly final: { readonly name: string; readonly effect: EffectSpec<TFinish> };
  readonly result: (outcome: TOutcome) => ToolResultView<unknown> | Promise<ToolResultView<unknown>>;
}

/** A flow prompt's parts. */
export interface FlowPromptParts<TOutcome> extends FlowParts {
  readonly arguments: z.ZodObject;
  readonly messages: (outcome: TOutcome) => PromptMessageView[];
}

/** A flow resource's parts. */
export interface FlowResourceParts<TOutcome> extends FlowParts {
  readonly uri: string;
  readonly mimeType: string | undefined;
  readonly variables: z.ZodObject;
  readonly contents: (outcome: TOutcome) => ResourceBody;
}

// The engine's config types read the machine's own type parameters (its input, events, meta and actor
// names), which a machine made at run time does not have; these are the engine's configs as they are
// checked at run time, where the engine compiles the definition.
type ToolConfigAtRunTime = Parameters<typeof defineTool>[0];
type PromptConfigAtRunTime = Parameters<typeof definePrompt>[0];
type ResourceConfigAtRunTime = Parameters<typeof defineResource>[0];

/** The engine's tool for a flow. */
export function flowTool<TOutcome, TFinish>({ final, result, ...parts }: FlowToolParts<TOutcome, TFinish>): ToolDefinition {
  const config = { ...parts, effects: { [final.name]: final.effect }, result };
  return defineTool(config as unknown as ToolConfigAtRunTime);
}

/** The engine's prompt for a flow. */
export function flowPrompt<TOutcome>(parts: FlowPromptParts<TOutcome>): PromptDefinition {
  return definePrompt(parts as unknown as PromptConfigAtRunTime);
}

/** The engine's resource for a flow. */
export function flowResource<TOutcome>(parts: FlowResourceParts<TOutcome>): ResourceDefinition {
  return defineResource(parts as unknown as ResourceConfigAtRunTime);
}

/**
 * The engine's question set for a flow's forms, reviews and pages. The engine types a question set by
 * its literal keys and each one's schema; a flow names its questions at run time, so the set is checked
 * when the engine compiles it (every key, schema and message), not here.
 */
export function flowQuestionSet<TContext>(specs: Readonly<Record<string, object>>): AnyQuestions {
  return defineQuestions<TContext>()(specs as never) as unknown as AnyQuestions;
}
