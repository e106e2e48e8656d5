import type { AnyStateMachine, OutputFrom } from 'xstate';
import { z } from 'zod';
import { RoundtripDefinitionError } from './definition-error.ts';
import { compileMachine, type CompiledMachine } from './compile-machine.ts';
import type { JsonObject, ToolInputSchema } from './wire-shapes.ts';

/** How a finished run is shown to the client: text for the model, structured content, error flag. */
export interface ToolResultView {
  text: string;
  structured?: JsonObject;
  /** Marks the result as a tool error (`isError: true`), e.g. "no such order". */
  isError?: boolean;
}

export interface ToolConfig<TInput extends z.ZodObject, TMachine extends AnyStateMachine> {
  /** Tool name as clients call it: 1–128 characters of letters, digits, `_`, `-` and `.`. */
  name: string;
  description: string;
  title?: string;
  /** The tool's arguments. Validated values become the machine's input. */
  input: TInput;
  /** An XState v5 machine built with `setup({...}).createMachine({...})`. */
  machine: TMachine;
  /** Turns the machine's output (from its final state) into the tool result. */
  result: (output: OutputFrom<TMachine>) => ToolResultView;
  /**
   * Accept answers that arrive on a first call with no requestState, for clients that already know the
   * form. Off by default; never turn it on for a tool that moves money or deletes things.
   * @defaultValue false
   */
  acceptAnswersWithoutState?: boolean;
}

/** A tool the engine can serve. Create it with {@link defineTool}. */
export interface ToolDefinition {
  readonly kind: 'tool';
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  /** JSON Schema of the arguments, for `tools/list`. */
  readonly inputSchema: ToolInputSchema;
  readonly acceptAnswersWithoutState: boolean;
  /** @internal */
  readonly _input: z.ZodObject;
  /** @internal */
  readonly _machine: CompiledMachine;
  /** @internal */
  readonly _result: (output: unknown) => ToolResultView;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Defines a multi-step tool as an XState machine. Checks the machine once, here: every asking state
 * must be expressible as a form and must handle accept, decline and cancel; every invoke must be named;
 * no `after` delays (they do not survive a round trip). Throws a RoundtripDefinitionError otherwise.
 *
 * @example
 * const refundOrder = defineTool({
 *   name: 'refund_order',
 *   description: 'Refund an order once the user confirms',
 *   input: z.object({ order_id: z.string() }),
 *   machine: refundMachine,
 *   result: (output) => ({ text: output.message, structured: output }),
 * });
 */
export function defineTool<TInput extends z.ZodObject, TMachine extends AnyStateMachine>(
  config: ToolConfig<TInput, TMachine>,
): ToolDefinition {
  if (typeof config.name !== 'string' || !TOOL_NAME.test(config.name)) {
    throw new RoundtripDefinitionError(
      'invalid_tool_name',
      `Tool name ${JSON.stringify(config.name)} is not valid: use 1–128 characters of letters, digits, '_', '-' and '.'.`,
    );
  }
  if (!(config.input instanceof z.ZodObject)) {
    throw new RoundtripDefinitionError('invalid_option', `Tool '${config.name}': 'input' must be a z.object({...}) schema of the arguments.`);
  }
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(config.input, { io: 'input', unrepresentable: 'any' }) as ToolInputSchema;
  return {
    kind: 'tool',
    name: config.name,
    title: config.title,
    description: config.description,
    inputSchema,
    acceptAnswersWithoutState: config.acceptAnswersWithoutState ?? false,
    _input: config.input,
    _machine: compileMachine(config.machine, `Tool '${config.name}'`),
    _result: config.result as (output: unknown) => ToolResultView,
  };
}

