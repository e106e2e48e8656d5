import type { AnyStateMachine, OutputFrom } from 'xstate';
import { z } from 'zod';
import { contentBlocks } from './content-blocks.ts';
import type { DefinitionChecks, EffectSpecs } from './definition-checks.ts';
import { ProblemList } from './definition-error.ts';
import { compileDefinition, setInternals } from './definition-internals.ts';
import type { AnswerSchema } from './elicitation-schema.ts';
import { checkFallbacks, fallbackQuestions, withFallbackArguments } from './fallback-arguments.ts';
import { issuesText } from './issue-text.ts';
import { firstNonJson } from './json-value.ts';
import type { MachineMigrations } from './machine-migrations.ts';
import type { AnyQuestions, Questions } from './questions.ts';
import { jsonSchemaOf } from './schema-json.ts';
import type { CallToolResult, ContentBlock, JsonObject, ToolAnnotations, ToolInputSchema } from './wire-shapes.ts';

/** How a finished run is shown to the client: text for the model, further content, structured content, error flag. */
export interface ToolResultView<TStructured = JsonObject> {
  text: string;
  /** Blocks sent after the text: images and sounds (base64), embedded resources, resource links. */
  content?: readonly ContentBlock[];
  structured?: TStructured;
  /** Marks the result as a tool error (`isError: true`), e.g. "no such order". */
  isError?: boolean;
}

/** What a tool's `result` returns: structured content typed by the `output` schema's input, when there is one. */
type ToolResult<TOut extends z.ZodObject | undefined> = ToolResultView<TOut extends z.ZodObject ? z.input<TOut> : JsonObject>;

export interface ToolConfig<
  TArgs extends z.ZodObject,
  Q extends AnyQuestions,
  M extends AnyStateMachine,
  TOut extends z.ZodObject | undefined,
> {
  /** Tool name as clients call it: 1–128 characters of letters, digits, `_`, `-` and `.`. */
  name: string;
  description: string;
  /** A title for people. */
  title?: string;
  /** The tool's arguments. Validated values become the machine's input. */
  input: TArgs;
  /** The questions the machine's states ask by name, from defineQuestions. */
  questions?: Q;
  /** An XState v5 machine built with `setup({...}).createMachine({...})`; its config is plain JSON. */
  machine: M;
  /**
   * Turns the machine's output (from its final state) into the tool result; it may be async (read a
   * store whose reads are), and the round answers once it resolves. With an `output` schema,
   * `structured` is what the schema parses (its input type); the parsed value is sent.
   */
  result: (output: OutputFrom<M>) => ToolResult<TOut> | Promise<ToolResult<TOut>>;
  /** The schema of `structuredContent`; each result is checked against it before it is sent. */
  output?: TOut;
  annotations?: ToolAnnotations;
  /** Guards for named actors of the machine: at most once per run, values the user confirmed. */
  effects?: EffectSpecs<M>;
  /**
   * How states sealed by earlier versions of the machine continue, keyed by the version they were sealed
   * under (the machine's own `version`, from createMachine({ version })). Each step leads to a later
   * version, the last to the current one: `{ '1': { to: '2', migrate: (s) => ({ ...s, value: … }) } }`.
   * A state of a version no migration leads from is refused and the user starts again.
   */
  migrations?: MachineMigrations;
  /**
   * Accept answers that arrive on a first call with no requestState, for clients that already know the
   * form. Off by default; never turn it on for a tool that moves money or deletes things.
   * @defaultValue false
   */
  acceptAnswersWithoutState?: boolean;
  /**
   * Whether the tool answers a task (SEP-2663) to a client that consents (declares the tasks extension):
   * 'optional': a long step (a state with `meta: { long: true }`) becomes a task when the client consents,
   * and runs inside the request otherwise; 'required': a client that does not consent is refused (-32021).
   * @defaultValue undefined: never a task
   */
  task?: 'optional' | 'required';
}

/** A tool the engine can serve. Create it with {@link defineTool}. */
export interface ToolDefinition {
  readonly kind: 'tool';
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  /** JSON Schema of the arguments, for `tools/list`. */
  readonly inputSchema: ToolInputSchema;
  /** JSON Schema of `structuredContent`, when the tool declares one. */
  readonly outputSchema: ToolInputSchema | undefined;
  readonly annotations: ToolAnnotations | undefined;
  readonly acceptAnswersWithoutState: boolean;
  /** Whether it answers tasks to clients that consent; see ToolConfig.task. */
  readonly task: 'optional' | 'required' | undefined;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Defines a multi-step tool as an XState machine whose states ask named questions. Checks it all
 * once, here, and throws a RoundtripDefinitionError listing every problem: the questions must fit
 * forms, every asked key must be named and its answers handled, every invoke named, no `after`
 * delays, no functions or schemas inside the config. Mismatched types fail to compile.
 *
 * @example
 * const refundOrder = defineTool({
 *   name: 'refund_order',
 *   description: 'Refund an order once the user confirms',
 *   input: z.object({ order_id: z.string() }),
 *   questions,
 *   machine: refundMachine,
 *   result: (output) => ({ text: output.message, structured: output }),
 *   annotations: { destructiveHint: true },
 *   effects: { refundOrder: { once: true } },
 * });
 */
export function defineTool<
  TArgs extends z.ZodObject,
  M extends AnyStateMachine,
  Q extends AnyQuestions = Questions<unknown, Record<never, AnswerSchema>>,
  TOut extends z.ZodObject | undefined = undefined,
>(config: ToolConfig<TArgs, Q, M, TOut> & DefinitionChecks<TArgs, Q, M>): ToolDefinition {
  const owner = `Tool '${String(config.name)}'`;
  const problems = new ProblemList();
  if (typeof config.name !== 'string' || !TOOL_NAME.test(config.name)) {
    problems.add([owner], 'invalid_name', 'a tool name is 1–128 characters of letters, digits, _, - and .', 'Rename the tool.');
  }
  if (!(config.input instanceof z.ZodObject))
    problems.add([owner, 'input'], 'invalid_option', "'input' is not a zod object schema.", 'Describe the arguments with z.object({ … }).');
  if (config.output !== undefined && !(config.output instanceof z.ZodObject)) {
    problems.add(
      [owner, 'output'],
      'invalid_option',
      "'output' is not a zod object schema.",
      'Describe structuredContent with z.object({ … }), or leave it out.',
    );
  }
  if (config.task !== undefined && config.task !== 'optional' && config.task !== 'required') {
    problems.add(
      [owner, 'task'],
      'invalid_option',
      `'task' is ${JSON.stringify(config.task)}.`,
      "Write task: 'optional' (a task when the client consents) or 'required' (only as a task), or leave it out.",
    );
  }
  const machine = compileDefinition(owner, config.machine, config.questions, config.effects as never, problems, config.migrations);
  const fallbacks = fallbackQuestions(machine);
  const ownInput = config.input instanceof z.ZodObject ? jsonSchemaOf(config.input, 'input') : undefined;
  if (ownInput) checkFallbacks(owner, fallbacks, ownInput, config.annotations, problems);
  problems.throwIfAny();
  const outputSchema = config.output as z.ZodObject | undefined;
  const result = config.result as (output: unknown) => ToolResultView<unknown> | Promise<ToolResultView<unknown>>;
  const definition: ToolDefinition = Object.freeze({
    kind: 'tool' as const,
    name: config.name,
    title: config.title,
    description: config.description,
    // with the optional `answers` and `continuation` arguments when a question falls back to the model
    inputSchema: withFallbackArguments(ownInput!, fallbacks),
    outputSchema: outputSchema ? jsonSchemaOf(outputSchema, 'output') : undefined,
    annotations: config.annotations ? Object.freeze({ ...config.annotations }) : undefined,
    acceptAnswersWithoutState: config.acceptAnswersWithoutState ?? false,
    task: config.task,
  });
  setInternals(definition, {
    owner,
    args: config.input,
    machine,
    acceptAnswersWithoutState: definition.acceptAnswersWithoutState,
    finish: async (output): Promise<CallToolResult> => {
      const view = await result(output);
      const out: CallToolResult = { content: [{ type: 'text', text: view.text }, ...contentBlocks(view.content, 'result().content')] };
      if (view.isError) out.isError = true;
      if (view.structured !== undefined) {
        let structured = view.structured;
        if (outputSchema) {
          const parsed = outputSchema.safeParse(structured);
          if (!parsed.success) {
            const problems = issuesText(parsed.error.issues, '(root)');
            throw new Error(`the structured result does not match the tool's output schema (${problems}); fix result() or the schema`);
          }
          structured = parsed.data;
        }
        const nonJson = firstNonJson(structured, 'structuredContent');
        if (nonJson) throw new Error(`${nonJson.path} is ${nonJson.what}: ${nonJson.fix}`);
        out.structuredContent = structured as JsonObject;
      } else if (outputSchema && !view.isError) {
        throw new Error("the tool declares an output schema but result() gave no 'structured' content; return it");
      }
      return out;
    },
  });
  return definition;
}
