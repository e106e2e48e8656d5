// Steps declared in order, `steps: (flow) => flow.ask('when', …).ask('room', …).review('confirm', …)`: each
// step's check, `show`, conditions and templates see the input, the answers of the steps before it and
// what their load steps loaded, typed, and the final action gets required the answers no path to it can
// miss. The builder only types and collects: what it makes is the same record of steps that `ask`,
// `askAll`, `review`, … make.

import type { Simplify, StraightAt, Sure, SureForm, WayAfter, WithAnswer } from './answer-ways.ts';
import type { Condition } from './conditions.ts';
import type { LoadedResult } from './flow-loaders.ts';
import {
  type AnswersOf,
  type AskStep,
  askAll as askAllStep,
  ask as askStep,
  type ChoiceAnswer,
  type ChoiceOption,
  type ChooseStep,
  type ConfirmedValue,
  choose as chooseStep,
  type Fields,
  type FormAnswer,
  type FormSpec,
  type Leave,
  openPage as pageStep,
  type ReviewStep,
  review as reviewStep,
  type Shown,
  type StepFallback,
  type StepSpec,
} from './flow-spec.ts';
import { type LoadErrorArgs, type LoadStep, load as loadStep } from './load-spec.ts';
import type { CheckedTemplate, Template } from './template-paths.ts';

/** The values conditions and templates of a step read: the input, and the answers before it. */
type Values<TInput, TSeen> = Simplify<{ input: TInput } & TSeen>;
/** The values loaded by the load steps before, each typed from its loader; optional, as a `goto` may pass a load step by. */
type LoadedSoFar<TLoads> = { readonly [K in keyof TLoads]?: TLoads[K] };
type CheckResult = string | undefined;

/** A step name not declared before; a repeated one is refused with this sentence as its expected type. */
type NewName<K extends string, TSteps> = K extends keyof TSteps ? `step '${K}' is declared already: give this step another name` : K;

/** What a check of a flow declared in order sees: the answer, the input, and the answers of the steps before. */
export interface OrderedCheckArgs<TFields extends Fields, TInput, TSeen, TLoads = Record<never, never>> {
  readonly answer: FormAnswer<TFields>;
  readonly input: TInput;
  readonly answers: TSeen;
  readonly loaded: LoadedSoFar<TLoads>;
}

/** One rule of `next` (see NextRule), its condition over the input and the answers up to this step. */
export type OrderedNextRule<TValues> =
  | { readonly if?: Condition<TValues>; readonly goto: string; readonly end?: undefined }
  | { readonly if?: Condition<TValues>; readonly end: Template<TValues>; readonly goto?: undefined };

/**
 * What a step's rules must also be: nothing more when every `end` message names only what the step can
 * read; else a property named after the problem, so the compiler says which placeholder reads nothing
 * ("Property '{{input.ordr}} names nothing this step can read: …' is missing").
 */
type CheckedEnds<TNext, TValues> = TNext extends readonly unknown[]
  ? [EndProblems<TNext[number], TValues>] extends [never]
    ? unknown
    : { readonly [M in EndProblems<TNext[number], TValues>]: M }
  : unknown;
type EndProblems<TRule, TValues> = TRule extends { readonly end: infer E extends string }
  ? CheckedTemplate<E, TValues> extends E
    ? never
    : `end message: ${CheckedTemplate<E, TValues>}`
  : never;

/** Where a step goes once answered: a step name, `'finish'`, or rules tried in order. */
export type OrderedNext<TValues> = string | readonly OrderedNextRule<TValues>[];

/** A form of a flow declared in order (see FormSpec): its check sees the answers and loaded values before its step. */
export interface OrderedFormSpec<TFields extends Fields, TInput, TSeen, TValues = Values<TInput, TSeen>, TLoads = Record<never, never>>
  extends Omit<FormSpec<TFields>, 'check' | 'if' | 'confirmed'> {
  /** Why the answer does not fit (it is asked again with the reason), or undefined; may be `async`. */
  check?(args: OrderedCheckArgs<TFields, TInput, TSeen, TLoads>): CheckResult | Promise<CheckResult>;
  /** A value from the server's data this form asks the user to confirm (see ConfirmedValue), read with the values before typed. */
  readonly confirmed?: OrderedConfirmed<OrderedArgs<TInput, TSeen, TLoads>>;
  /** In a step of several forms: ask this one only when the condition holds (the form is then optional). */
  readonly if?: Condition<TValues>;
}

/** What a review's `show` or a page's check of a flow declared in order sees. */
export interface OrderedArgs<TInput, TSeen, TLoads = Record<never, never>> {
  readonly input: TInput;
  readonly answers: TSeen;
  readonly loaded: LoadedSoFar<TLoads>;
}

/** ConfirmedValue of a form of a flow declared in order: `shown` and `current` see the input, answers and loaded values before. */
export interface OrderedConfirmed<TArgs> extends Omit<ConfirmedValue, 'shown' | 'current'> {
  shown(args: TArgs): unknown;
  current(args: TArgs): unknown;
}

declare const finalAnswers: unique symbol;

/** Steps declared in order: the record of steps, and (type only) the answers the final action receives. */
export interface FlowSteps<TSteps extends Record<string, StepSpec> = Record<string, StepSpec>, TFinal = unknown> {
  /** The steps by name, in the order declared. */
  readonly steps: TSteps;
  /** Type only: the answers the final action receives. */
  readonly [finalAnswers]?: TFinal;
}

/**
 * Declares a flow's steps in order; each call adds one step, after the ones before. A step's check,
 * `show`, conditions and messages see the input and the answers of the steps before it.
 *
 * In the final action's answers (and in the checks of later steps), a form is required when it is on
 * every way there: no step before it can branch (a `next` that goes anywhere but on to the step
 * declared after it, or a page with its `alternative`; an `end` rule is no branch, as the final action
 * is not reached that way), it cannot be skipped (`onDecline`/`onCancel: 'skip'`, the step's or the
 * form's), and it is asked always (no `if`). Every other form is optional. This never makes required a
 * form that may be missing; it may leave optional one that every path happens to pass (after a branch
 * whose ways meet again). `TWay`: whether the flow is straight so far, or the one step it must go on to.
 */
export interface StepsBuilder<
  TInput,
  TSteps extends Record<string, StepSpec>,
  TSeen,
  TWay extends boolean | string,
  TLoads = Record<never, never>,
  TLoaders = Record<never, never>,
> extends FlowSteps<TSteps, TSeen> {
  /** One form named after the step (see `ask`). */
  ask<
    const K extends string,
    const TFields extends Fields,
    const TMessage extends string,
    const TNext extends OrderedNext<Values<TInput, TLoads & TSeen & { [P in K]: FormAnswer<TFields> }>> | undefined = undefined,
    const TDecline extends Leave = 'end',
    const TCancel extends Leave = 'end',
  >(
    name: NewName<K, TSteps>,
    // no `if`: a step of one form is reached by the `next` rules before it
    spec: Omit<OrderedFormSpec<TFields, TInput, TSeen, Values<TInput, TSeen>, TLoads>, 'if'> & {
      /** The question, a template over the input and the answers before (`{{input.topic}}`, `{{when.date}}`). */
      readonly message: CheckedTemplate<TMessage, Values<TInput, TLoads & TSeen>>;
      readonly next?: TNext & CheckedEnds<TNext, Values<TInput, TLoads & TSeen & { [P in K]: FormAnswer<TFields> }>>;
      readonly onDecline?: TDecline;
      readonly onCancel?: TCancel;
      /** What progress says while its `async` check runs (see StepCommon). */
      readonly progress?: string;
    },
  ): StepsBuilder<
    TInput,
    Simplify<TSteps & { [P in K]: AskStep<{ $self: TFields }> }>,
    WithAnswer<TSeen, K, FormAnswer<TFields>, Sure<StraightAt<TWay, K>, TDecline | TCancel, undefined>>,
    WayAfter<StraightAt<TWay, K>, TNext>,
    TLoads,
    TLoaders
  >;

  /** Several independent forms in one round, each named by its key (see `askAll`). */
  askAll<
    const K extends string,
    const TForms extends Record<string, Fields>,
    const TMessages extends { readonly [F in keyof TForms]: string },
    const TIfs extends { readonly [F in keyof TForms]?: unknown } = Record<never, never>,
    const TDeclines extends { readonly [F in keyof TForms]?: unknown } = Record<never, never>,
    const TCancels extends { readonly [F in keyof TForms]?: unknown } = Record<never, never>,
    const TNext extends
      | OrderedNext<Values<TInput, TLoads & TSeen & { [F in keyof TForms]?: FormAnswer<TForms[F]> }>>
      | undefined = undefined,
    const TDecline extends Leave = 'end',
    const TCancel extends Leave = 'end',
  >(
    name: NewName<K, TSteps>,
    spec: {
      readonly forms: {
        readonly [F in keyof TForms]: OrderedFormSpec<TForms[F], TInput, TSeen, Values<TInput, TLoads & TSeen>, TLoads>;
      } & {
        readonly [F in keyof TMessages]: { readonly message: CheckedTemplate<TMessages[F], Values<TInput, TLoads & TSeen>> };
      } & {
        readonly [F in keyof TIfs]: { readonly if?: TIfs[F] };
      } & { readonly [F in keyof TDeclines]: { readonly onDecline?: TDeclines[F] } } & {
        readonly [F in keyof TCancels]: { readonly onCancel?: TCancels[F] };
      };
      readonly fallback?: StepFallback;
      readonly next?: TNext & CheckedEnds<TNext, Values<TInput, TLoads & TSeen & { [F in keyof TForms]?: FormAnswer<TForms[F]> }>>;
      readonly onDecline?: TDecline;
      readonly onCancel?: TCancel;
      /** What progress says while its forms' `async` checks run (see StepCommon). */
      readonly progress?: string;
    },
  ): StepsBuilder<
    TInput,
    Simplify<TSteps & { [P in K]: AskStep<TForms> }>,
    Simplify<
      TSeen & {
        [F in keyof TForms as SureForm<F, StraightAt<TWay, K>, TDecline | TCancel, TDeclines, TCancels, TIfs> extends true
          ? F
          : never]: FormAnswer<TForms[F]>;
      } & {
        [F in keyof TForms as SureForm<F, StraightAt<TWay, K>, TDecline | TCancel, TDeclines, TCancels, TIfs> extends true
          ? never
          : F]?: FormAnswer<TForms[F]>;
      }
    >,
    WayAfter<StraightAt<TWay, K>, TNext>,
    TLoads,
    TLoaders
  >;

  /** The answers so far, with confirm, change one answer, or abandon (see `review`). */
  review<
    const K extends string,
    const TMessage extends string,
    const TNext extends OrderedNext<Values<TInput, TLoads & TSeen>> | undefined = undefined,
  >(
    name: NewName<K, TSteps>,
    spec: {
      readonly message: CheckedTemplate<TMessage, Values<TInput, TLoads & TSeen>>;
      readonly labels?: Partial<ReviewStep['labels']>;
      show?(args: OrderedArgs<TInput, TSeen, TLoads>): Shown | Promise<Shown>;
      readonly fallback?: StepFallback;
      readonly next?: TNext & CheckedEnds<TNext, Values<TInput, TLoads & TSeen>>;
      readonly onCancel?: Leave;
      /** What progress says while its `async` show runs (see StepCommon). */
      readonly progress?: string;
    },
  ): StepsBuilder<TInput, Simplify<TSteps & { [P in K]: ReviewStep }>, TSeen, WayAfter<StraightAt<TWay, K>, TNext>, TLoads, TLoaders>;

  /** Sends the user to a web page; clients that cannot open one go to `alternative` (see `openPage`). */
  openPage<const K extends string, const TMessage extends string, const TUrl extends string>(
    name: NewName<K, TSteps>,
    spec: {
      readonly message: CheckedTemplate<TMessage, Values<TInput, TLoads & TSeen>>;
      /** An https URL template; values are URL-encoded. */
      readonly url: CheckedTemplate<TUrl, Values<TInput, TLoads & TSeen>>;
      readonly alternative: string;
      check?(args: OrderedArgs<TInput, TSeen, TLoads>): CheckResult | Promise<CheckResult>;
      readonly next?: OrderedNext<Values<TInput, TLoads & TSeen>>;
      readonly onDecline?: Leave;
      readonly onCancel?: Leave;
      /** What progress says while its `async` check runs (see StepCommon). */
      readonly progress?: string;
    },
  ): StepsBuilder<TInput, Simplify<TSteps & { [P in K]: PageStep }>, TSeen, false, TLoads, TLoaders>;

  /**
   * Calls the loader named `run` and keeps its JSON result under the step's name (see `load`): its own
   * rules and every later step read it typed as the loader returns it (awaited, `undefined` as `null`).
   */
  load<
    const K extends string,
    const TRun extends string,
    const TNext extends OrderedNext<LoadValues<TInput, TLoads & TSeen, K, LoadedBy<TLoaders, TRun>>> | undefined = undefined,
    const TOnError extends string = string,
  >(
    name: NewName<K, TSteps>,
    spec: {
      /** The loader to call, by its name in the flow's `loaders` (written before `steps`, so its result types the value). */
      readonly run: TRun extends keyof TLoaders
        ? TRun
        : `no loader '${TRun}' in the flow's loaders: add it there (write loaders before steps), or run one of them`;
      readonly retries?: number;
      /** What the user reads when the load failed: a template where `{{error}}` is the error's message, or a function. */
      readonly onError?: CheckedTemplate<TOnError, Values<TInput, TLoads & TSeen>, 'error'> | ((args: LoadErrorArgs) => string);
      // checked here too: TNext's bound may be read before TRun is known
      readonly next?: TNext &
        OrderedNext<LoadValues<TInput, TLoads & TSeen, K, LoadedBy<TLoaders, TRun>>> &
        CheckedEnds<TNext, LoadValues<TInput, TLoads & TSeen, K, LoadedBy<TLoaders, TRun>>>;
      /** What progress says while the loader runs. @defaultValue 'Loading…' */
      readonly progress?: string;
      /** The loader may take long: a task for clients that accept tasks (the tool needs `task`). @defaultValue false */
      readonly long?: boolean;
    },
  ): StepsBuilder<
    TInput,
    Simplify<TSteps & { [P in K]: LoadStep<TRun> }>,
    TSeen,
    WayAfter<StraightAt<TWay, K>, TNext>,
    Simplify<TLoads & { [P in K]: LoadedBy<TLoaders, TRun> }>,
    TLoaders
  >;
  /** One choice whose answer picks the next step: each option names its `next` (see `choose`). */
  choose<
    const K extends string,
    const TOptions extends Readonly<Record<string, ChoiceOption>>,
    const TMessage extends string,
    const TDecline extends ChoiceLeave = 'end',
    const TCancel extends ChoiceLeave = 'end',
  >(
    name: NewName<K, TSteps>,
    spec: {
      readonly message: CheckedTemplate<TMessage, Values<TInput, TLoads & TSeen>>;
      readonly title?: string;
      readonly options: TOptions;
      readonly onDecline?: TDecline;
      readonly onCancel?: TCancel;
      readonly fallback?: StepFallback;
    },
  ): StepsBuilder<
    TInput,
    Simplify<TSteps & { [P in K]: ChooseStep<keyof TOptions & string, TOptions[keyof TOptions]['next']> }>,
    WithAnswer<TSeen, K, ChoiceAnswer<keyof TOptions & string>, Sure<StraightAt<TWay, K>, TDecline | TCancel, undefined>>,
    WayAfter<StraightAt<TWay, K>, TOptions[keyof TOptions]['next']>,
    TLoads,
    TLoaders
  >;
}

type ChoiceLeave = NonNullable<ChooseStep['onDecline']>;
type PageStep = ReturnType<typeof pageStep>;
/** What a load step's rules read: the values so far and the value loaded. */
type LoadValues<TInput, TSeen, K extends string, V> = Values<TInput, TSeen & { [P in K]: V }>;
/** A value loaded by a loader not known here: JSON whose shape is known at run time (any path under it). */
type LoadedValue = Readonly<Record<string, unknown>>;
/** The value the loader named `R` loads, as kept (see LoadedResult), or any JSON when it is not known. */
type LoadedBy<TLoaders, R> = R extends keyof TLoaders ? LoadedResult<TLoaders[R]> : LoadedValue;

/** The builder a flow's `steps` function gets: no steps yet, nothing answered, nothing branched; the flow's loaders by name. */
export type FirstSteps<TInput, TLoaders = Record<never, never>> = StepsBuilder<
  TInput,
  Record<never, never>,
  Record<never, never>,
  true,
  Record<never, never>,
  TLoaders
>;

/** A flow's steps as declared: the record (`{ when: ask(…) }`) or the function over a builder. */
export type DeclaredSteps<TInput, TSteps, TLoaders = Record<never, never>, TRecord = never> =
  | TSteps
  | TRecord
  | ((flow: FirstSteps<TInput, TLoaders>) => TSteps & KnownTargets<TSteps>);

/** The steps the choices of a chain of steps go to that it does not declare (a choice's targets are known once all its steps are). */
type MissingTargets<TSteps> = {
  [K in keyof TSteps]: TSteps[K] extends ChooseStep<string, infer N>
    ? string extends N
      ? never
      : Exclude<N, keyof TSteps | 'finish'>
    : never;
}[keyof TSteps];
/** What a chain of steps must also be: nothing more when every choice goes to a step of it; else a property saying which step is missing. */
type KnownTargets<TSteps> = [MissingTargets<StepsOf<TSteps>>] extends [never]
  ? unknown
  : {
      readonly [M in `a choice goes to '${MissingTargets<StepsOf<TSteps>> & string}', which is not a step: declare it, or go to another step or 'finish'`]: M;
    };

/** The record of steps behind a declaration. */
export type StepsOf<TSteps> = TSteps extends FlowSteps<infer S, unknown> ? S : TSteps;

class Builder {
  constructor(readonly steps: Readonly<Record<string, StepSpec>>) {}

  private with(name: string, step: StepSpec): Builder {
    if (Object.hasOwn(this.steps, name)) throw new TypeError(`step '${name}' is declared twice: give one of them another name.`);
    return new Builder({ ...this.steps, [name]: step });
  }
  ask(name: string, spec: FormSpec & { next?: AskStep['next']; onDecline?: Leave; onCancel?: Leave; progress?: string }) {
    return this.with(name, askStep(spec));
  }
  askAll(name: string, spec: Parameters<typeof askAllStep>[0]) {
    return this.with(name, askAllStep(spec));
  }
  review(name: string, spec: Parameters<typeof reviewStep>[0]) {
    return this.with(name, reviewStep(spec));
  }
  openPage(name: string, spec: Parameters<typeof pageStep>[0]) {
    return this.with(name, pageStep(spec));
  }
  load(name: string, spec: Parameters<typeof loadStep>[0]) {
    return this.with(name, loadStep(spec));
  }
  choose(name: string, spec: Parameters<typeof chooseStep>[0]) {
    return this.with(name, chooseStep(spec));
  }
}

/** The record of steps of a declaration: as given, or made by its function from an empty builder. */
export function declaredSteps(steps: unknown): Readonly<Record<string, StepSpec>> {
  if (typeof steps !== 'function') return steps as Readonly<Record<string, StepSpec>>;
  const built: unknown = steps(new Builder({}));
  if (!(built instanceof Builder))
    throw new TypeError(
      'the steps function returned something other than its builder: return the chain of steps, `(flow) => flow.ask(…).review(…)`.',
    );
  return built.steps;
}

/** The answers the final action receives: from a declaration in order, required where no path misses them; from a record, all optional. */
export type FinalAnswersOf<TSteps> = TSteps extends FlowSteps<Record<string, StepSpec>, infer TFinal> ? TFinal : AnswersOf<TSteps>;
