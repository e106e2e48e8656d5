import { z } from 'zod';
import {
  ROOTS_LABEL,
  type RootsAnswerSchema,
  type RootsQuestionSpec,
  rootsAnswerSchema,
  type SamplingAnswerSchema,
  type SamplingQuestionSpec,
  samplingAnswerSchema,
  samplingLabel,
  samplingRequestProblem,
} from './client-requests.ts';
import { ProblemList } from './definition-error.ts';
import { canonicalJson } from './digest.ts';
import { type AnswerSchema, toElicitationSchema } from './elicitation-schema.ts';
import { placeholdersOf, type TemplateError } from './message-template.ts';
import type { FormView, QuestionSpec, UrlQuestionSpec } from './question-spec.ts';
import type { ElicitationSchema, SamplingRequest } from './wire-shapes.ts';

export type { FormView, QuestionFallback, QuestionSpec, UrlQuestionSpec } from './question-spec.ts';

/** The answer schema of a URL-mode question: accept carries no content. */
type UrlAnswerSchema = z.ZodObject<Record<never, never>>;

declare const questionTypes: unique symbol;

/**
 * The questions of one definition, named once. States ask them by name (`meta: { ask: ['confirm'] }`);
 * answers arrive as the events `<key>.accept` (typed content), `<key>.decline` and `<key>.cancel`.
 * Create with {@link defineQuestions}.
 */
export interface Questions<TContext = unknown, TSchemas extends Record<string, AnswerSchema> = Record<string, AnswerSchema>> {
  readonly kind: 'questions';
  /** The question keys, as they appear in `inputRequests` and `inputResponses`. */
  readonly keys: readonly (keyof TSchemas & string)[];
  /** Type-only: the context the messages read and the answer schemas. Never present at run time. */
  readonly [questionTypes]?: { context: TContext; schemas: TSchemas };
}

/** Any question set, whatever its context and schemas. */
// biome-ignore lint/suspicious/noExplicitAny: the widest question set, used only as a constraint
export type AnyQuestions = Questions<any, any>;

/** The keys of a question set. */
export type QuestionKey<TQuestions> = TQuestions extends Questions<unknown, infer S> ? keyof S & string : never;

/** The context type a question set's messages read. */
export type QuestionsContext<TQuestions> = TQuestions extends { readonly [questionTypes]?: { context: infer C } } ? C : never;

/** The three events one answered question becomes. */
export type AnswerEvent<TKey extends string, TContent> =
  | { type: `${TKey}.accept`; key: TKey; content: TContent }
  | { type: `${TKey}.decline`; key: TKey }
  | { type: `${TKey}.cancel`; key: TKey };

/**
 * The answer events of a question set, typed from its schemas: use as `types.events` in `setup()`.
 *
 * @example
 * setup({ types: { events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> } })
 */
export type AnswerEvents<TQuestions> =
  TQuestions extends Questions<unknown, infer S> ? { [K in keyof S & string]: AnswerEvent<K, z.output<S[K]>> }[keyof S & string] : never;

/** The accepted content of one question. */
export type AnswerOf<TQuestions, TKey extends QuestionKey<TQuestions>> =
  TQuestions extends Questions<unknown, infer S> ? z.output<S[TKey]> : never;

/**
 * The state meta of a machine whose states ask questions of this set: use as `types.meta` in
 * `setup()`, so that asking a key the set does not name fails to typecheck.
 */
export type AskMeta<TQuestions> = {
  ask?: readonly QuestionKey<TQuestions>[];
  /**
   * What the user reads while the work this state invokes runs (`'Looking up the order…'`): the message
   * of the progress notification sent as it starts, also for the states inside it, and a task's
   * statusMessage while it runs. `{{path}}` reads the context as question messages do (`'Refunded
   * {{done}} of {{count}} orders'`), filled again as the context changes during a task. Without one, or
   * when a path has no text-like value, progress says `Working…`.
   */
  progress?: string;
  /**
   * The work this state invokes (and every invoke inside it) is long: to a client that consents to tasks
   * (SEP-2663), a tool declared with `task` answers a task while it runs instead of holding the request.
   */
  long?: boolean;
};

/** One question, checked and converted once. */
export interface CompiledQuestion {
  readonly key: string;
  /**
   * `form`: the user fills in `requestedSchema`; `url`: the client opens a page; `sampling`: the client's
   * model answers; `roots`: the client lists its roots.
   */
  readonly mode: 'form' | 'url' | 'sampling' | 'roots';
  readonly message: QuestionSpec<unknown>['message'];
  /** The page a URL-mode question opens (a template over context, or a function). */
  readonly url: UrlQuestionSpec<unknown>['url'] | undefined;
  /** The request a sampling question sends (a literal with placeholders, or a function). */
  readonly sampling: SamplingQuestionSpec<unknown>['sampling'] | undefined;
  readonly schema: AnswerSchema;
  /** The form (empty for a URL-mode question). */
  readonly requestedSchema: ElicitationSchema;
  /** The requested schema as canonical JSON, part of every question hash. */
  readonly schemaText: string;
  /** What a form question shows in a context (see QuestionSpec.form). */
  readonly form?: ((args: { context: unknown }) => FormView | undefined) | undefined;
  /** Asked through the model when the host cannot show it (absent: no fallback). */
  readonly fallback: { readonly via: 'model'; readonly onDestructiveTool: boolean } | undefined;
}

const compiled = new WeakMap<object, ReadonlyMap<string, CompiledQuestion>>();
const QUESTION_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** @internal The checked questions behind a question set. */
export function compiledQuestions(questions: AnyQuestions): ReadonlyMap<string, CompiledQuestion> {
  const found = compiled.get(questions);
  if (!found) throw new TypeError('Not a question set: create it with defineQuestions<Context>()({ … }).');
  return found;
}

/** A question's fallback, checked: undefined when it has none. */
function readFallback(fallback: unknown): CompiledQuestion['fallback'] | 'invalid' {
  if (fallback === undefined) return undefined;
  if (fallback === 'model') return { via: 'model', onDestructiveTool: false };
  if (typeof fallback === 'object' && fallback !== null && (fallback as { via?: unknown }).via === 'model') {
    const { onDestructiveTool, ...rest } = fallback as { via: 'model'; onDestructiveTool?: unknown };
    if (Object.keys(rest).length === 1 && (onDestructiveTool === undefined || typeof onDestructiveTool === 'boolean'))
      return { via: 'model', onDestructiveTool: onDestructiveTool === true };
  }
  return 'invalid';
}

type SchemasOf<TSpecs> = {
  [K in keyof TSpecs]: TSpecs[K] extends { schema: infer S extends AnswerSchema }
    ? S
    : TSpecs[K] extends { url: unknown }
      ? UrlAnswerSchema
      : TSpecs[K] extends { sampling: unknown }
        ? SamplingAnswerSchema
        : TSpecs[K] extends { roots: true }
          ? RootsAnswerSchema
          : never;
};
/** Any one question a definition can name. */
type AnySpec<TContext> = QuestionSpec<TContext> | UrlQuestionSpec<TContext> | SamplingQuestionSpec<TContext> | RootsQuestionSpec;
// a message with an unknown placeholder demands a property named after the problem, so the error says it
type CheckedSpecs<TSpecs, TContext> = {
  [K in keyof TSpecs]: [TemplateError<TSpecs[K] extends { message: infer M } ? M : never, TContext>] extends [never]
    ? unknown
    : { [E in TemplateError<TSpecs[K] extends { message: infer M } ? M : never, TContext>]: 'fix the message template' };
};

/**
 * Names the questions of a definition once, typed against the machine's context: a template
 * placeholder that is not a path of the context fails to typecheck. Checks every question at once
 * (key, message, an answer schema a form can express) and throws a RoundtripDefinitionError listing
 * every problem.
 *
 * @example
 * const questions = defineQuestions<RefundContext>()({
 *   confirm: { message: 'Refund {{amount}} for order {{orderId}}?', schema: z.object({ confirm: z.boolean() }) },
 * });
 */
export function defineQuestions<TContext>() {
  return <const TSpecs extends Record<string, AnySpec<TContext>>>(
    specs: TSpecs & CheckedSpecs<TSpecs, TContext>,
  ): Questions<TContext, SchemasOf<TSpecs>> => {
    const problems = new ProblemList();
    const byKey = new Map<string, CompiledQuestion>();
    for (const [key, raw] of Object.entries(specs as Record<string, AnySpec<TContext>>)) {
      const path = [`question '${key}'`];
      if (!QUESTION_KEY.test(key)) {
        problems.add(
          path,
          'invalid_question',
          'a question key starts with a letter and holds only letters, digits, _ and - (at most 64).',
          'Rename the question.',
        );
        continue;
      }
      if (raw !== null && typeof raw === 'object' && ('sampling' in raw || 'roots' in raw)) {
        const compiled = clientQuestion(key, raw, path, problems);
        if (compiled) byKey.set(key, compiled);
        continue;
      }
      const spec = raw as QuestionSpec<TContext> | UrlQuestionSpec<TContext>;
      if (typeof spec?.message === 'string') {
        const { bad } = placeholdersOf(spec.message);
        if (spec.message.trim() === '')
          problems.add(path, 'invalid_question', 'the message is empty.', 'Write the question the user will read.');
        for (const placeholder of bad) {
          problems.add(
            path,
            'invalid_question',
            `the placeholder {{${placeholder}}} is not a context path.`,
            'Write placeholders as {{name}} or {{order.amount}}.',
          );
        }
      } else if (typeof spec?.message !== 'function') {
        problems.add(
          path,
          'invalid_question',
          'it has no message.',
          "Give it a message: a template such as 'Refund {{amount}}?' or ({ context }) => string.",
        );
        continue;
      }
      const fallback = readFallback(spec.fallback);
      if (fallback === 'invalid') {
        problems.add(
          [...path, 'fallback'],
          'invalid_question',
          `the fallback ${JSON.stringify(spec.fallback)} is not one the engine knows.`,
          "Write fallback: 'model', or { via: 'model', onDestructiveTool: true } on a destructive tool, or leave it out.",
        );
        continue;
      }
      if ('url' in spec) {
        if (typeof spec.url !== 'string' && typeof spec.url !== 'function') {
          problems.add(
            path,
            'invalid_question',
            'its url is neither a template nor a function.',
            "Give it url: 'https://…' or ({ context }) => string.",
          );
          continue;
        }
        const requestedSchema: ElicitationSchema = { type: 'object', properties: {} };
        byKey.set(key, {
          key,
          mode: 'url',
          message: spec.message as CompiledQuestion['message'],
          url: spec.url as CompiledQuestion['url'],
          sampling: undefined,
          schema: z.object({}),
          requestedSchema,
          schemaText: canonicalJson({ mode: 'url' }),
          fallback,
        });
        continue;
      }
      try {
        const requestedSchema = toElicitationSchema(spec.schema, path);
        byKey.set(key, {
          key,
          mode: 'form',
          url: undefined,
          sampling: undefined,
          message: spec.message as CompiledQuestion['message'],
          schema: spec.schema,
          requestedSchema,
          schemaText: canonicalJson(requestedSchema),
          form: spec.form as CompiledQuestion['form'],
          fallback,
        });
      } catch (error) {
        const problem = (error as { problems?: readonly { message: string; fix: string; code: 'unexpressible_schema' }[] }).problems?.[0];
        if (problem) problems.add(path, problem.code, problem.message, problem.fix);
        else throw error;
      }
    }
    problems.throwIfAny();
    const questions: Questions<TContext, SchemasOf<TSpecs>> = Object.freeze({
      kind: 'questions' as const,
      keys: Object.freeze([...byKey.keys()]) as never,
    });
    compiled.set(questions, byKey);
    return questions;
  };
}

/** A sampling or roots question, checked; undefined (with problems added) when it cannot be asked. */
function clientQuestion(
  key: string,
  spec: SamplingQuestionSpec<never> | RootsQuestionSpec,
  path: readonly string[],
  problems: ProblemList,
) {
  const requestedSchema: ElicitationSchema = { type: 'object', properties: {} };
  if ('fallback' in spec) {
    problems.add(
      [...path, 'fallback'],
      'invalid_question',
      'a sampling or roots question has no fallback: the client answers it, not the user.',
      'Remove the fallback; a client that did not declare the capability gets -32021.',
    );
    return undefined;
  }
  if ('roots' in spec) {
    if (spec.roots !== true || 'sampling' in spec) {
      problems.add(path, 'invalid_question', 'a roots question is { roots: true } and nothing else.', 'Write { roots: true }.');
      return undefined;
    }
    return {
      key,
      mode: 'roots',
      message: ROOTS_LABEL,
      url: undefined,
      sampling: undefined,
      schema: rootsAnswerSchema,
      requestedSchema,
      schemaText: canonicalJson({ mode: 'roots' }),
      fallback: undefined,
    } satisfies CompiledQuestion;
  }
  const sampling = spec.sampling as SamplingQuestionSpec<unknown>['sampling'];
  if (typeof sampling !== 'function') {
    const problem = samplingRequestProblem(sampling);
    if (problem) {
      problems.add(
        [...path, 'sampling'],
        'invalid_question',
        `the sampling request is not one a client can take: ${problem}.`,
        "Give { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens }, or ({ context }) => request.",
      );
      return undefined;
    }
  }
  return {
    key,
    mode: 'sampling',
    // the label logs and exports show; the request itself is pinned beside it (active-questions.ts)
    message: typeof sampling === 'function' ? () => 'a request to the client’s model' : samplingLabel(sampling as SamplingRequest),
    url: undefined,
    sampling,
    schema: samplingAnswerSchema,
    requestedSchema,
    schemaText: canonicalJson({ mode: 'sampling' }),
    fallback: undefined,
  } satisfies CompiledQuestion;
}

/** The empty question set of a definition that never asks anything. */
export const noQuestions: Questions<unknown, Record<never, AnswerSchema>> = defineQuestions<unknown>()({});
