import type { AnyStateMachine, OutputFrom } from 'xstate';
import { z } from 'zod';
import { type Completers, compileCompletion } from './argument-completion.ts';
import { checkCacheHint } from './cache-hint.ts';
import type { DefinitionChecks, EffectSpecs } from './definition-checks.ts';
import { ProblemList } from './definition-error.ts';
import { compileDefinition, setInternals } from './definition-internals.ts';
import type { AnswerSchema } from './elicitation-schema.ts';
import { checkNoFallbacks, fallbackQuestions } from './fallback-arguments.ts';
import type { MachineMigrations } from './machine-migrations.ts';
import type { AnyQuestions, Questions } from './questions.ts';
import { enumValues, jsonSchemaOf } from './schema-json.ts';
import { parseUriTemplate } from './uri-template.ts';
import type { CacheHint, ReadResourceResult } from './wire-shapes.ts';

/** What a finished resource read returns: text, or bytes as base64 (`blob`). */
export type ResourceBody = string | { text: string } | { blob: string };

/** The `{variables}` of a URI template type. */
type UriVariables<U extends string> = U extends `${string}{${infer V}}${infer R}` ? V | UriVariables<R> : never;

/** The variables schema a resource has when none is given: one string per `{variable}`. */
export type DefaultVariables<U extends string> = z.ZodObject<{ [K in UriVariables<U>]: z.ZodString }>;

export interface ResourceConfig<U extends string, TVars extends z.ZodObject, Q extends AnyQuestions, M extends AnyStateMachine> {
  /**
   * A fixed URI (`orders://summary`) or a URI template whose `{variables}` are the resource's
   * arguments (`statement://customers/{customer}`); the machine's input is the variables.
   */
  uri: U;
  /** A short name for lists. */
  name: string;
  title?: string;
  description: string;
  mimeType?: string;
  /** Validates the template's variables (all strings); defaults to z.object of z.string() for each. */
  variables?: TVars;
  /**
   * Values offered as the user types a variable of the template (`completion/complete`): a list, or a
   * function of what was typed. A variable that is a z.enum offers its values without one.
   */
  complete?: Completers<keyof z.input<TVars> & string>;
  questions?: Q;
  machine: M;
  /** Turns the machine's output into the resource's contents. */
  contents: (output: OutputFrom<M>) => ResourceBody;
  /**
   * How long clients may keep what they read (`ttlMs`) and whether shared caches may too (`cacheScope`).
   * Sent only with a read that asked nothing; without it the transport sends its default (the SDK: 0, private).
   */
  cache?: CacheHint;
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

/** A resource the engine can serve. Create it with {@link defineResource}. */
/** What every resource definition has, fixed or template. */
interface ResourceDefinitionBase {
  readonly kind: 'resource';
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly mimeType: string | undefined;
  readonly acceptAnswersWithoutState: boolean;
  /** The variables when `uri` matches this resource, else undefined. */
  match(uri: string): Record<string, string> | undefined;
}

/**
 * A resource definition: a fixed resource (`uri`, listed by `resources/list`) or a template (`uriTemplate`, listed
 * by `resources/templates/list`), told apart by which of the two is set.
 */
export type ResourceDefinition =
  | (ResourceDefinitionBase & { readonly uri: string; readonly uriTemplate: undefined })
  | (ResourceDefinitionBase & { readonly uri: undefined; readonly uriTemplate: string });

/**
 * Defines a resource whose contents come from an XState machine that may ask the user first (which
 * month of a statement). Checked like a tool; served by `resources/read`.
 *
 * @example
 * const statement = defineResource({
 *   uri: 'statement://customers/{customer}',
 *   name: 'customer_statement',
 *   description: "A customer's monthly statement; asks which month",
 *   mimeType: 'text/plain',
 *   questions,
 *   machine: statementMachine,
 *   contents: (output) => output.text,
 * });
 */
export function defineResource<
  const U extends string,
  M extends AnyStateMachine,
  Q extends AnyQuestions = Questions<unknown, Record<never, AnswerSchema>>,
  TVars extends z.ZodObject = DefaultVariables<U>,
>(config: ResourceConfig<U, TVars, Q, M> & DefinitionChecks<TVars, Q, M>): ResourceDefinition {
  const owner = `Resource '${String(config.name)}'`;
  const problems = new ProblemList();
  if (typeof config.name !== 'string' || config.name.trim() === '')
    problems.add([owner], 'invalid_name', 'the resource has no name.', 'Give it a short name for lists.');
  const parsed =
    typeof config.uri === 'string'
      ? parseUriTemplate(config.uri)
      : { problem: "'uri' is not a string.", fix: 'Give a URI or URI template.' };
  let variables = (config.variables ?? undefined) as z.ZodObject | undefined;
  if ('problem' in parsed) {
    problems.add([owner, 'uri'], 'invalid_uri', parsed.problem, parsed.fix);
  } else {
    variables ??= z.object(Object.fromEntries(parsed.variables.map((name) => [name, z.string()])));
    if (!(variables instanceof z.ZodObject)) {
      problems.add(
        [owner, 'variables'],
        'invalid_option',
        "'variables' is not a zod object schema.",
        'Describe the variables with z.object({ … }).',
      );
    } else {
      const keys = Object.keys(variables.shape);
      const missing = parsed.variables.filter((v) => !keys.includes(v));
      const extra = keys.filter((k) => !parsed.variables.includes(k));
      if (missing.length || extra.length) {
        problems.add(
          [owner, 'variables'],
          'invalid_uri',
          `the schema's fields (${keys.join(', ') || 'none'}) differ from the URI's variables (${parsed.variables.join(', ') || 'none'}).`,
          'Give the variables schema exactly one field per {variable} of the URI.',
        );
      }
    }
  }
  const names = 'problem' in parsed ? [] : parsed.variables;
  const enums = variables instanceof z.ZodObject ? enumValues(jsonSchemaOf(variables, 'input')) : {};
  const completion = compileCompletion(owner, config.complete, names, enums, problems);
  const cache = checkCacheHint(owner, config.cache, problems);
  const machine = compileDefinition(owner, config.machine, config.questions, config.effects as never, problems, config.migrations);
  checkNoFallbacks(owner, 'resource', fallbackQuestions(machine), problems);
  problems.throwIfAny();
  const uri = parsed as Exclude<typeof parsed, { problem: string }>;
  const isTemplate = uri.variables.length > 0;
  const render = config.contents as (output: unknown) => ResourceBody;
  const definition: ResourceDefinition = Object.freeze({
    kind: 'resource' as const,
    name: config.name,
    title: config.title,
    description: config.description,
    mimeType: config.mimeType,
    ...(isTemplate ? { uri: undefined, uriTemplate: config.uri } : { uri: config.uri, uriTemplate: undefined }),
    acceptAnswersWithoutState: config.acceptAnswersWithoutState ?? false,
    match: uri.match,
  });
  setInternals(definition, {
    owner,
    args: variables!,
    machine,
    acceptAnswersWithoutState: definition.acceptAnswersWithoutState,
    completion,
    cache,
    finish: (output, request): ReadResourceResult => {
      const body = render(output);
      const where = { uri: request.uri ?? config.uri, ...(config.mimeType ? { mimeType: config.mimeType } : {}) };
      if (typeof body === 'string') return { contents: [{ ...where, text: body }] };
      if (body && typeof body === 'object' && typeof (body as { text?: unknown }).text === 'string')
        return { contents: [{ ...where, text: (body as { text: string }).text }] };
      if (body && typeof body === 'object' && typeof (body as { blob?: unknown }).blob === 'string')
        return { contents: [{ ...where, blob: (body as { blob: string }).blob }] };
      throw new Error('contents() returned neither text nor { text } nor { blob } (base64)');
    },
  });
  return definition;
}
