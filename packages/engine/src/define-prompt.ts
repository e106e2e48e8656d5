import type { AnyStateMachine, OutputFrom } from 'xstate';
import { z } from 'zod';
import { type Completers, compileCompletion } from './argument-completion.ts';
import { contentBlock } from './content-blocks.ts';
import type { DefinitionChecks, EffectSpecs } from './definition-checks.ts';
import { ProblemList } from './definition-error.ts';
import { compileDefinition, setInternals } from './definition-internals.ts';
import type { AnswerSchema } from './elicitation-schema.ts';
import { checkNoFallbacks, fallbackQuestions } from './fallback-arguments.ts';
import type { MachineMigrations } from './machine-migrations.ts';
import type { AnyQuestions, Questions } from './questions.ts';
import { enumValues, jsonSchemaOf } from './schema-json.ts';
import type { ContentBlock, GetPromptResult, PromptMessage } from './wire-shapes.ts';

/** One message a finished prompt renders: who says it, and the text or another content block (an image, a resource). */
export type PromptMessageView = { role: 'user' | 'assistant'; text: string } | { role: 'user' | 'assistant'; content: ContentBlock };

export interface PromptConfig<TArgs extends z.ZodObject, Q extends AnyQuestions, M extends AnyStateMachine> {
  /** Prompt name as clients ask for it: 1–128 characters of letters, digits, `_`, `-` and `.`. */
  name: string;
  description: string;
  title?: string;
  /** The prompt's arguments: a zod object of string fields (prompt arguments are strings on the wire). */
  arguments?: TArgs;
  /**
   * Values offered as the user types an argument (`completion/complete`): a list, or a function of what was
   * typed. An argument that is a z.enum offers its values without one.
   */
  complete?: Completers<keyof z.input<TArgs> & string>;
  questions?: Q;
  machine: M;
  /** Turns the machine's output into the prompt's messages. */
  messages: (output: OutputFrom<M>) => PromptMessageView[];
  effects?: EffectSpecs<M>;
  /**
   * How states sealed by earlier versions of the machine continue, keyed by the version they were sealed
   * under (the machine's own `version`, from createMachine({ version })). Each step leads to a later
   * version, the last to the current one: `{ '1': { to: '2', migrate: (s) => ({ ...s, value: … }) } }`.
   * A state of a version no migration leads from is refused and the user starts again.
   */
  migrations?: MachineMigrations;
  /** See ToolConfig.acceptAnswersWithoutState. @defaultValue false */
  acceptAnswersWithoutState?: boolean;
}

/** A prompt argument as `prompts/list` shows it. */
export interface PromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A prompt the engine can serve. Create it with {@link definePrompt}. */
export interface PromptDefinition {
  readonly kind: 'prompt';
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  readonly acceptAnswersWithoutState: boolean;
}

const PROMPT_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const EMPTY = z.object({});

/**
 * Defines a prompt whose messages come from an XState machine that may ask the user first (the
 * tone of an email, whether to mention an amount). Checked like a tool; served by `prompts/get`.
 *
 * @example
 * const refundEmail = definePrompt({
 *   name: 'refund_email',
 *   description: 'Drafts the email that tells a customer about their refund',
 *   arguments: z.object({ order_id: z.string() }),
 *   questions,
 *   machine: refundEmailMachine,
 *   messages: (output) => [{ role: 'user', text: output.instructions }],
 * });
 */
export function definePrompt<
  TArgs extends z.ZodObject,
  M extends AnyStateMachine,
  Q extends AnyQuestions = Questions<unknown, Record<never, AnswerSchema>>,
>(config: PromptConfig<TArgs, Q, M> & DefinitionChecks<TArgs, Q, M>): PromptDefinition {
  const owner = `Prompt '${String(config.name)}'`;
  const problems = new ProblemList();
  if (typeof config.name !== 'string' || !PROMPT_NAME.test(config.name)) {
    problems.add([owner], 'invalid_name', 'a prompt name is 1–128 characters of letters, digits, _, - and .', 'Rename the prompt.');
  }
  const args = (config.arguments ?? EMPTY) as z.ZodObject;
  const promptArguments: PromptArgument[] = [];
  let enums: Record<string, string[]> = {};
  if (!(args instanceof z.ZodObject)) {
    problems.add(
      [owner, 'arguments'],
      'invalid_option',
      "'arguments' is not a zod object schema.",
      'Describe the arguments with z.object({ … }) of strings.',
    );
  } else {
    const json = jsonSchemaOf(args, 'input') as {
      properties?: Record<string, { type?: unknown; description?: unknown }>;
      required?: string[];
    };
    enums = enumValues(json);
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      if (property.type !== 'string') {
        problems.add(
          [owner, 'arguments', `'${name}'`],
          'invalid_option',
          'prompt arguments are strings on the wire, but this one is not a string schema.',
          'Use z.string() (or z.enum of strings) and convert inside the machine.',
        );
      }
      promptArguments.push(
        Object.freeze({
          name,
          ...(typeof property.description === 'string' ? { description: property.description } : {}),
          required: (json.required ?? []).includes(name),
        }),
      );
    }
  }
  const names = promptArguments.map((a) => a.name);
  const completion = compileCompletion(owner, config.complete, names, enums, problems);
  const machine = compileDefinition(owner, config.machine, config.questions, config.effects as never, problems, config.migrations);
  checkNoFallbacks(owner, 'prompt', fallbackQuestions(machine), problems);
  problems.throwIfAny();
  const render = config.messages as (output: unknown) => PromptMessageView[];
  const definition: PromptDefinition = Object.freeze({
    kind: 'prompt' as const,
    name: config.name,
    title: config.title,
    description: config.description,
    arguments: Object.freeze(promptArguments),
    acceptAnswersWithoutState: config.acceptAnswersWithoutState ?? false,
  });
  setInternals(definition, {
    owner,
    args,
    machine,
    acceptAnswersWithoutState: definition.acceptAnswersWithoutState,
    completion,
    finish: (output): GetPromptResult => {
      const views = render(output);
      if (!Array.isArray(views) || views.length === 0)
        throw new Error('messages() returned no messages; return at least one { role, text }');
      const messages: PromptMessage[] = views.map((view, i) => {
        const shape = "{ role: 'user' | 'assistant', text: string } or { role, content: block }";
        if (view?.role !== 'user' && view?.role !== 'assistant') throw new Error(`messages()[${i}] is not ${shape}`);
        if ('content' in view) return { role: view.role, content: contentBlock(view.content, `messages()[${i}].content`) };
        if (typeof view.text !== 'string') throw new Error(`messages()[${i}] is not ${shape}`);
        return { role: view.role, content: { type: 'text', text: view.text } };
      });
      return { description: config.description, messages };
    },
  });
  return definition;
}
