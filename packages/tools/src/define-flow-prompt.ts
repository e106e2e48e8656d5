// A prompt declared as a flow: it asks its questions, then its final action writes the messages.
import type { PromptDefinition, PromptMessageView } from '@roundtrip/engine';
import { z } from 'zod';
import { declareFlow, endedResult } from './declare-flow.ts';
import type { EndedInfo, StoppedInfo } from './define-flow-tool.ts';
import { asDeclared, flowPrompt } from './engine-door.ts';
import { refuseConfirmed } from './final-action.ts';
import type { FlowOutcome } from './flow-context.ts';
import type { FlowLoaders, LoadedOf, LoadersOf } from './flow-loaders.ts';
import { registerFlow } from './flow-registry.ts';
import type { StepSpec } from './flow-spec.ts';
import { type DeclaredSteps, declaredSteps, type FinalAnswersOf, type FlowSteps, type StepsOf } from './flow-steps.ts';
import { refuseLong } from './flow-tasks.ts';
import { checkedMigrations, type FlowVersioning, withVersion } from './flow-version.ts';

export interface FlowPromptConfig<
  TArgs extends z.ZodObject,
  TSteps extends Record<string, StepSpec> | FlowSteps,
  TLoaders extends FlowLoaders<z.output<TArgs>, TRecord> = Record<never, never>,
  // the steps when given as a record, for the loaders' answers (see defineFlowTool)
  TRecord extends Record<string, StepSpec> = Record<string, StepSpec>,
> extends FlowVersioning {
  /** Prompt name as clients ask for it: 1–128 characters of letters, digits, `_`, `-` and `.`. */
  readonly name: string;
  readonly description: string;
  readonly title?: string;
  /** The prompt's arguments (strings on the wire); templates and conditions read them as `input.<name>`. */
  readonly arguments?: TArgs;
  readonly steps: DeclaredSteps<z.output<TArgs>, TSteps, TLoaders, TRecord>;
  /** The functions the `load` steps run, by name (see defineFlowTool). */
  readonly loaders?: LoadersOf<TLoaders, z.output<TArgs>, TRecord>;
  /** Writes the prompt's messages from the arguments and the answers. */
  readonly final: (args: {
    input: z.output<TArgs>;
    answers: FinalAnswersOf<TSteps>;
    loaded: LoadedOf<StepsOf<TSteps>, TLoaders>;
  }) => PromptMessageView[] | Promise<PromptMessageView[]>;
  /** The messages when the user declined, cancelled or abandoned; by default one user message saying so. */
  readonly ended?: (info: EndedInfo<TSteps, z.output<TArgs>, LoadedOf<StepsOf<TSteps>, TLoaders>>) => PromptMessageView[];
  /** The messages when an `end` rule ended the flow or a load failed; by default one user message with the flow's message. */
  readonly stopped?: (info: StoppedInfo<TSteps, z.output<TArgs>, LoadedOf<StepsOf<TSteps>, TLoaders>>) => PromptMessageView[];
}

/** Defines a prompt whose questions are declared as steps. Throws a RoundtripDefinitionError listing every problem. */
export function defineFlowPrompt<
  const TSteps extends Record<string, StepSpec> | FlowSteps,
  const TArgs extends z.ZodObject = z.ZodObject<Record<never, never>>,
  TLoaders extends FlowLoaders<z.output<TArgs>, TRecord> = Record<never, never>,
  // the steps when given as a record, for the loaders' answers (see defineFlowTool)
  const TRecord extends Record<string, StepSpec> = Record<string, StepSpec>,
>(config: FlowPromptConfig<TArgs, TSteps, TLoaders, TRecord>): PromptDefinition {
  const args = (config.arguments ?? z.object({})) as z.ZodObject;
  const final = asDeclared(config.final);
  const steps = declaredSteps(config.steps);
  const declared = declareFlow(`prompt '${config.name}'`, config.name, args, steps, final, config.loaders);
  refuseConfirmed(`prompt '${config.name}'`, declared.compiled, 'prompt');
  refuseLong(`prompt '${config.name}'`, declared.compiled, 'prompt');
  const flow = withVersion(declared, config.version, final);
  const definition = flowPrompt({
    ...(config.migrations ? { migrations: checkedMigrations(flow.compiled, config.version, config.migrations) } : {}),
    name: config.name,
    description: config.description,
    title: config.title,
    arguments: args,
    questions: flow.questions,
    machine: flow.machine,
    messages: (output: FlowOutcome): PromptMessageView[] => {
      if (output.status === 'done') return output.result as PromptMessageView[];
      return endedResult(config.title ?? config.name, output, config, (text): PromptMessageView[] => [{ role: 'user', text }]);
    },
  });
  registerFlow(definition, flow, final);
  return definition;
}
