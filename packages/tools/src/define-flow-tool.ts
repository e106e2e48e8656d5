// A tool declared as a flow of questions, served by the engine like any other tool.
import { defineTool, type QuestionFallback, type ToolAnnotations, type ToolDefinition, type ToolResultView } from '@roundtrip/engine';
import type { z } from 'zod';
import { declareFlow, endedResult } from './declare-flow.ts';
import type { FlowOutcome } from './flow-context.ts';
import { registerFlow } from './flow-registry.ts';
import { type FinalInput, type FinishInput, shownNow } from './flow-setup.ts';
import type { AnswersOf, StepSpec } from './flow-spec.ts';
import { checkedMigrations, type FlowVersioning, withVersion } from './flow-version.ts';
import type { FlowLoaders, LoadedOf, LoadersOf } from './load-spec.ts';

/** How the user left a flow early: at which step, how, and what was known by then. */
export interface EndedInfo<TSteps, TInput = Record<string, unknown>, TLoaded = Readonly<Record<string, unknown>>> {
  readonly step: keyof TSteps & string;
  readonly how: 'declined' | 'cancelled' | 'abandoned';
  readonly input: TInput;
  readonly answers: AnswersOf<TSteps>;
  readonly loaded: TLoaded;
}

/**
 * How the flow stopped itself early: an `end` rule of `step` held (`stopped`), or its load failed after
 * its retries (`failed`); `message` is the flow's words for the user, rendered (the rule's, the step's
 * `onError`, or by default a sentence saying which step could not load).
 */
export interface StoppedInfo<TSteps, TInput = Record<string, unknown>, TLoaded = Readonly<Record<string, unknown>>> {
  readonly step: keyof TSteps & string;
  readonly how: 'stopped' | 'failed';
  readonly message: string;
  readonly input: TInput;
  readonly answers: AnswersOf<TSteps>;
  readonly loaded: TLoaded;
}

/** Put before a result recorded earlier in the conversation for other answers. */
const EARLIER =
  'This was already done earlier in this conversation, with other answers; the new answers were not used. What was done then:';

/** What a flow tool's final action returns: `structured` typed by the `output` schema when there is one. */
export type FlowToolResult<TOutput extends z.ZodObject = z.ZodObject> = ToolResultView<z.input<TOutput>>;

export interface FlowToolConfig<
  TInput extends z.ZodObject,
  TSteps extends Record<string, StepSpec>,
  TOutput extends z.ZodObject = z.ZodObject,
  TLoaders extends FlowLoaders<z.output<TInput>, TSteps> = Record<never, never>,
> extends FlowVersioning {
  /** Tool name as clients call it: 1–128 characters of letters, digits, `_`, `-` and `.`. */
  readonly name: string;
  readonly description: string;
  readonly title?: string;
  readonly annotations?: ToolAnnotations;
  /** The tool's arguments; templates and conditions read them as `input.<name>`. */
  readonly input: TInput;
  /** The steps in order: each goes to the next unless its `next` says otherwise; after the last, `final` runs. */
  readonly steps: TSteps;
  /**
   * The functions the `load` steps run, by name (`load({ run: 'findOrder' })`), as actors are named in
   * setup(): the machine config names them, the diagrams show them.
   */
  readonly loaders?: LoadersOf<TLoaders, z.output<TInput>, TSteps>;
  /**
   * The final action, with the input, the answers and the loaded values typed from the steps. It runs
   * at most once per conversation through the engine's effect ledger: a replayed final retry gets the
   * recorded result.
   */
  readonly final: (args: {
    input: z.output<TInput>;
    answers: AnswersOf<TSteps>;
    loaded: LoadedOf<TSteps, TLoaders>;
  }) => FlowToolResult<NoInfer<TOutput>> | Promise<FlowToolResult<NoInfer<TOutput>>>;
  /** The schema of `structuredContent`; every result is checked against it before it is sent. */
  readonly output?: TOutput;
  /** The result when the user declined, cancelled or abandoned; by default a text saying nothing was done. */
  readonly ended?: (info: EndedInfo<TSteps, z.output<TInput>, LoadedOf<TSteps, TLoaders>>) => FlowToolResult<NoInfer<TOutput>>;
  /**
   * The result when an `end` rule ended the flow or a load failed; by default the flow's message as an
   * error result (`isError`), which needs no structured content even with an `output` schema.
   */
  readonly stopped?: (info: StoppedInfo<TSteps, z.output<TInput>, LoadedOf<TSteps, TLoaders>>) => FlowToolResult<NoInfer<TOutput>>;
  /**
   * How every question is asked of a host that cannot show forms (it declared no elicitation, like LM
   * Studio): `'model'` puts each to the model, which asks the user and calls the tool again with the
   * answers and a sealed continuation token; a step or form's own `fallback` overrides it (`false`: never).
   * A tool that may be destructive (no `readOnlyHint: true` or `destructiveHint: false`) must opt in with
   * `{ via: 'model', onDestructiveTool: true }`. Without a fallback such hosts get -32021.
   */
  readonly fallback?: QuestionFallback;
}

/**
 * Defines a tool whose questions are declared as steps and compiled to an XState machine. Checks the
 * whole declaration at once and throws a RoundtripDefinitionError listing every problem.
 *
 * @example
 * const book = defineFlowTool({
 *   name: 'book_meeting', description: 'Book a room', input: z.object({ topic: z.string() }),
 *   steps: { when: ask({ message: 'When is "{{input.topic}}"?', fields: { date: field.text({ format: 'date' }) } }) },
 *   final: ({ input, answers }) => ({ text: `Booked ${input.topic} on ${answers.when?.date}.` }),
 * });
 */
export function defineFlowTool<
  const TInput extends z.ZodObject,
  const TSteps extends Record<string, StepSpec>,
  TOutput extends z.ZodObject = z.ZodObject,
  TLoaders extends FlowLoaders<z.output<TInput>, TSteps> = Record<never, never>,
>(config: FlowToolConfig<TInput, TSteps, TOutput, TLoaders>): ToolDefinition {
  const owner = `tool '${config.name}'`;
  const final = (args: FinalInput) => config.final(args as never);
  const declared = declareFlow(owner, config.name, config.input, config.steps, final, config.loaders, config.fallback);
  const flow = withVersion(declared, config.version, final);
  const definition = defineTool({
    ...(config.migrations ? { migrations: checkedMigrations(flow.compiled, config.version, config.migrations) } : {}),
    name: config.name,
    description: config.description,
    title: config.title,
    annotations: config.annotations,
    input: config.input,
    output: config.output,
    questions: flow.questions,
    machine: flow.machine,
    effects: {
      finish: {
        once: true,
        // what the last review showed from the server's data, read again right before the final action
        confirmed: {
          shown: ({ input }: { input: FinishInput }) => input.shown ?? null,
          current: async ({ input }: { input: FinishInput }) =>
            input.review ? ((await shownNow(flow.compiled, input.review, input)) ?? null) : null,
        },
      },
    } as never,
    result: (output: FlowOutcome): ToolResultView<unknown> => {
      if (output.status === 'done') {
        const view = output.result as ToolResultView<unknown>;
        if (!output.earlier) return view;
        // the final action ran before in this conversation, for other answers: say so rather than pretend
        return { ...view, text: `${EARLIER} ${view.text}` };
      }
      return endedResult(config.title ?? config.name, output, config, (text, error) => (error ? { text, isError: true } : { text }));
    },
  } as never);
  registerFlow(definition, flow, final);
  return definition;
}
