// A resource declared as a flow: reading it asks its questions, then its final action writes the body.
import type { ResourceBody, ResourceDefinition } from '@roundtrip/engine';
import { z } from 'zod';
import { declareFlow, endedResult } from './declare-flow.ts';
import type { EndedInfo, StoppedInfo } from './define-flow-tool.ts';
import { asDeclared, flowResource } from './engine-door.ts';
import { refuseConfirmed } from './final-action.ts';
import type { FlowOutcome } from './flow-context.ts';
import type { FlowLoaders, LoadedOf, LoadersOf } from './flow-loaders.ts';
import { registerFlow } from './flow-registry.ts';
import type { StepSpec } from './flow-spec.ts';
import { type DeclaredSteps, declaredSteps, type FinalAnswersOf, type FlowSteps, type StepsOf } from './flow-steps.ts';
import { refuseLong } from './flow-tasks.ts';
import { checkedMigrations, type FlowVersioning, withVersion } from './flow-version.ts';

/** The `{variables}` of a URI template type. */
type UriVariables<U extends string> = U extends `${string}{${infer V}}${infer R}` ? V | UriVariables<R> : never;

/** The schema of a URI's variables when none is given: one string each. */
type DefaultVariables<U extends string> = z.ZodObject<{ [K in UriVariables<U>]: z.ZodString }>;

export interface FlowResourceConfig<
  U extends string,
  TSteps extends Record<string, StepSpec> | FlowSteps,
  TVars extends z.ZodObject = DefaultVariables<U>,
  TLoaders extends FlowLoaders<z.output<TVars>, TRecord> = Record<never, never>,
  // the steps when given as a record, for the loaders' answers (see defineFlowTool)
  TRecord extends Record<string, StepSpec> = Record<string, StepSpec>,
> extends FlowVersioning {
  /** A fixed URI, or a URI template whose `{variables}` are the input (`statement://customers/{customer}`). */
  readonly uri: U;
  /** A short name for lists. */
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly mimeType?: string;
  /**
   * Checks the URI's variables (all strings on the wire): a URI they do not fit is not found, with the
   * reason. By default each is any string.
   */
  readonly variables?: TVars;
  readonly steps: DeclaredSteps<z.output<TVars>, TSteps, TLoaders, TRecord>;
  /** The functions the `load` steps run, by name (see defineFlowTool). */
  readonly loaders?: LoadersOf<TLoaders, z.output<TVars>, TRecord>;
  /** Writes the resource's body from the URI's variables (`input`) and the answers. */
  readonly final: (args: {
    input: z.output<TVars>;
    answers: FinalAnswersOf<TSteps>;
    loaded: LoadedOf<StepsOf<TSteps>, TLoaders>;
  }) => ResourceBody | Promise<ResourceBody>;
  /** The body when the user declined, cancelled or abandoned; by default a text saying so. */
  readonly ended?: (info: EndedInfo<TSteps, z.output<TVars>, LoadedOf<StepsOf<TSteps>, TLoaders>>) => ResourceBody;
  /** The body when an `end` rule ended the flow or a load failed; by default the flow's message. */
  readonly stopped?: (info: StoppedInfo<TSteps, z.output<TVars>, LoadedOf<StepsOf<TSteps>, TLoaders>>) => ResourceBody;
}

/** Defines a resource whose questions are declared as steps. Throws a RoundtripDefinitionError listing every problem. */
export function defineFlowResource<
  const U extends string,
  const TSteps extends Record<string, StepSpec> | FlowSteps,
  TVars extends z.ZodObject = DefaultVariables<U>,
  TLoaders extends FlowLoaders<z.output<TVars>, TRecord> = Record<never, never>,
  // the steps when given as a record, for the loaders' answers (see defineFlowTool)
  const TRecord extends Record<string, StepSpec> = Record<string, StepSpec>,
>(config: FlowResourceConfig<U, TSteps, TVars, TLoaders, TRecord>): ResourceDefinition {
  const names = [...String(config.uri).matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
  const variables = (config.variables as z.ZodObject | undefined) ?? z.object(Object.fromEntries(names.map((name) => [name, z.string()])));
  const final = asDeclared(config.final);
  const steps = declaredSteps(config.steps);
  const declared = declareFlow(`resource '${config.name}'`, config.name, variables, steps, final, config.loaders);
  refuseConfirmed(`resource '${config.name}'`, declared.compiled, 'resource');
  refuseLong(`resource '${config.name}'`, declared.compiled, 'resource');
  const flow = withVersion(declared, config.version, final);
  const definition = flowResource({
    ...(config.migrations ? { migrations: checkedMigrations(flow.compiled, config.version, config.migrations) } : {}),
    uri: config.uri,
    name: config.name,
    title: config.title,
    description: config.description,
    mimeType: config.mimeType,
    variables,
    questions: flow.questions,
    machine: flow.machine,
    contents: (output: FlowOutcome): ResourceBody => {
      if (output.status === 'done') return output.result as ResourceBody;
      return endedResult(config.title ?? config.name, output, config, (text): ResourceBody => text);
    },
  });
  registerFlow(definition, flow, final);
  return definition;
}
