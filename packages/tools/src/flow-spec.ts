// What an author writes: the steps of a flow as data, built with `ask`, `askAll`, `review`, `openPage` and
// `choose` (`load` in load-spec.ts). A leaf: it imports only the types of other leaf spec modules.
import type { QuestionFallback } from '@roundtrip/engine';
import type { z } from 'zod';
import type { Condition } from './condition-paths.ts';
import type { LoadStep } from './load-spec.ts';
import type { Next } from './step-next.ts';

/**
 * How a question is asked of a host that cannot show forms (it declared no elicitation): `'model'` puts
 * it to the model, which asks the user and calls the tool again with the answers (see the engine's
 * QuestionFallback); `false` never does, even when the flow's `fallback` says so. Only tools fall back.
 */
export type StepFallback = QuestionFallback | false;

/** The fields of one form: names to zod schemas, usually made with `field.*`. */
export type Fields = Record<string, z.ZodType>;

/** The answer of one form, typed from its fields. */
export type FormAnswer<TFields extends Fields> = z.output<z.ZodObject<TFields>>;

/** What a step does when the user declines or cancels its question. */
export type Leave =
  /** End the flow: nothing is done, and the result says where it stopped (the default). */
  | 'end'
  /** Go on without this answer, as if the step were not there. */
  | 'skip'
  /** Ask the step before this one again. */
  | 'back';

/** Values loaded by the flow's load steps, by step name (typed in the final action, JSON here). */
type LoadedValues = Readonly<Record<string, unknown>>;

/** What a check sees: the answer just given, the tool's input, the answers given and the values loaded so far. */
export interface CheckArgs<TFields extends Fields> {
  readonly answer: FormAnswer<TFields>;
  readonly input: Readonly<Record<string, unknown>>;
  readonly answers: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;
  readonly loaded: LoadedValues;
}

/** Why an answer does not fit (it is asked again with the reason), or undefined when it does. */
type CheckResult = string | undefined;

/** One form: one elicitation with one or more fields. */
export interface FormSpec<TFields extends Fields = Fields> {
  /** The question, a template over the input and earlier answers: `Book "{{input.topic}}" on {{when.date}}?` */
  readonly message: string;
  readonly fields: TFields;
  /**
   * A check no form can express (a date in the future, a count against a room's size): return why the
   * answer does not fit, and the form is asked again with that reason; return undefined to accept it.
   * An `async` check (one that reads a store) runs as an invoked actor: the round waits for it.
   */
  check?(args: CheckArgs<TFields>): CheckResult | Promise<CheckResult>;
  /** In a step of several forms: ask this one only when the condition holds. */
  readonly if?: Condition;
  /** In a step of several forms: what declining this form does, instead of the step's `onDecline`. */
  readonly onDecline?: Leave;
  /** In a step of several forms: what cancelling this form does, instead of the step's `onCancel`. */
  readonly onCancel?: Leave;
  /** For hosts without elicitation; overrides the step's and the flow's `fallback`. */
  readonly fallback?: StepFallback;
  /**
   * A value from the server's data this form asks the user to confirm (an amount): read again right
   * before the final action, which does not run when it changed; the flow goes to `onChange` instead
   * (see {@link ConfirmedValue}). Tools only.
   */
  readonly confirmed?: ConfirmedValue;
}

interface StepCommon {
  readonly next?: Next;
  /** @defaultValue 'end' */
  readonly onDecline?: Leave;
  /** @defaultValue 'end' */
  readonly onCancel?: Leave;
  /**
   * What the user reads in a progress notification while this step's work runs on the server: its
   * `async` check (`'Checking that the room is free…'`) or a review's `async` show. Plain text; only a
   * step with such work takes it. By default `Checking your answer…` or `Getting the latest details…`.
   */
  readonly progress?: string;
}

declare const formTypes: unique symbol;

/** A step asking one form (named after the step) or several independent forms in one round. */
export interface AskStep<TForms extends Record<string, Fields> = Record<string, Fields>> extends StepCommon {
  readonly kind: 'ask';
  /** One form named after the step (`undefined` here), or several named forms. */
  readonly forms: { readonly [K in keyof TForms]: FormSpec<TForms[K]> } | undefined;
  readonly form: FormSpec | undefined;
  /** Type-only: the forms and their fields. */
  readonly [formTypes]?: TForms;
}

/** What a review's `show` sees. */
export interface ShowArgs {
  readonly input: Readonly<Record<string, unknown>>;
  readonly answers: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly loaded: LoadedValues;
}

/** Lines a review shows under the answers (`{ Price: '$40.00' }`): values read from the server's own data. */
export type Shown = Record<string, string | number | boolean>;

/**
 * A value from the server's data that a form asks the user to confirm (an amount, a price): read again
 * right before the final action; when it changed, the final action does not run and the flow goes to
 * `onChange` instead. Tools only (their final action runs through the engine's effect ledger): a prompt
 * or resource that gives it is refused (see refuseConfirmed).
 */
export interface ConfirmedValue {
  /** The value as the form showed it, from what the flow knew when it asked (usually a loaded value): plain JSON. */
  shown(args: ShowArgs): unknown;
  /** The value now, read from its source (`async` is fine): compared with `shown` before the final action acts. */
  current(args: ShowArgs): unknown;
  /**
   * The step to go to when the value changed: a load step before the form (it reads the value again, its
   * loader gets the value it loaded before as `previous`, and the form is asked again), or the form's own
   * step. The form's answer is forgotten, so it is asked again without it as a default.
   */
  readonly onChange: string;
}

/** A step showing the answers so far, with confirm, change one answer, or abandon. */
export interface ReviewStep extends StepCommon {
  readonly kind: 'review';
  /** Shown above the answers: a template like the forms' messages. */
  readonly message: string;
  /**
   * Values from the server's data to show with the answers (a price, a room's free seats). They are read
   * again right before the final action: if they changed, the final action does not run and the review is
   * shown again with the new values. An `async` show runs as an invoked actor before the review is asked.
   */
  show?(args: ShowArgs): Shown | Promise<Shown>;
  /** The option labels. */
  readonly labels: { readonly confirm: string; readonly change: string; readonly abandon: string };
  /** For hosts without elicitation; overrides the flow's `fallback`. On a destructive tool the model would relay the confirmation: opt in knowingly. */
  readonly fallback?: StepFallback;
}

/** What a page step's check sees: the input, the answers and the values loaded so far. */
export interface PageCheckArgs {
  readonly input: Readonly<Record<string, unknown>>;
  readonly answers: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;
  readonly loaded: LoadedValues;
}

/**
 * A step that sends the user to a web page (to sign in, or pay): a URL-mode elicitation, offered only to
 * clients that declared `elicitation.url`; other clients go to `alternative` instead.
 */
export interface PageStep extends StepCommon {
  readonly kind: 'page';
  /** What the user reads before opening the page: a template like the forms' messages. */
  readonly message: string;
  /** The page: an https URL template; values are URL-encoded (`https://pay.example.com/o/{{input.order}}`). */
  readonly url: string;
  /** The step (or 'finish') for clients that cannot open pages. */
  readonly alternative: string;
  /**
   * Whether the user finished on the page. The client's accept only means the user agreed to open it:
   * check your own records here and return why not (the page is offered again with the reason), or
   * undefined when it is done. An `async` check runs as an invoked actor.
   */
  check?(args: PageCheckArgs): CheckResult | Promise<CheckResult>;
}

/** One option of a `choose` step: what the select shows for it, and the step it leads to. */
export interface ChoiceOption<TNext extends string = string> {
  /** What the user reads for this option, in the form and the review. */
  readonly label: string;
  /** The step this option goes to, or `'finish'` (the final action). */
  readonly next: TNext;
}

/** The answer of a `choose` step, kept under the step's name: the value (key) of the option chosen. */
export interface ChoiceAnswer<TValue extends string = string> {
  readonly choice: TValue;
}

/**
 * A step asking one choice, a select whose answer picks the step that follows: each option names its
 * `next`. The answer is kept under the step's name as `{ choice }`, read by conditions (`'plan.choice'`),
 * messages (`{{plan.choice}}`) and the final action (`answers.plan.choice`); a review shows its label.
 */
export interface ChooseStep<TValue extends string = string, TNext extends string = string> {
  readonly kind: 'choose';
  /** The question, a template like the forms' messages. */
  readonly message: string;
  /** The select's title, in the form and the review. @defaultValue 'Your choice' */
  readonly title?: string;
  /** The options by value, in the order the form lists them. */
  readonly options: { readonly [V in TValue]: ChoiceOption<TNext> };
  /** `'skip'` is no choice here: going on without an answer would leave nothing to pick the next step. @defaultValue 'end' */
  readonly onDecline?: Exclude<Leave, 'skip'>;
  /** @defaultValue 'end' */
  readonly onCancel?: Exclude<Leave, 'skip'>;
  /** For hosts without elicitation; overrides the flow's `fallback`. */
  readonly fallback?: StepFallback;
  /** Its options say where it goes. */
  readonly next?: undefined;
}

export type StepSpec = AskStep<Record<string, Fields>> | ReviewStep | PageStep | LoadStep | ChooseStep;

/** The single form of an `ask` step is named after the step; the key stands for that name. */
const SELF = '$self';

/** One form, asked alone: the step's name is the form's name. */
export function ask<const TFields extends Fields>(spec: FormSpec<TFields> & StepCommon): AskStep<{ [SELF]: TFields }> {
  const { next, onDecline, onCancel, progress, ...form } = spec;
  return { kind: 'ask', form, forms: undefined, next, onDecline, onCancel, ...(progress !== undefined && { progress }) };
}

/** One form of an `askAll` step; gives its check a typed answer. */
export function form<const TFields extends Fields>(spec: FormSpec<TFields>): FormSpec<TFields> {
  return spec;
}

/** Several independent forms asked in the same round; each form's name is its key. */
export function askAll<const TForms extends Record<string, Fields>>(
  spec: { readonly forms: { readonly [K in keyof TForms]: FormSpec<TForms[K]> }; readonly fallback?: StepFallback } & StepCommon,
): AskStep<TForms> {
  // the step's fallback is the default of each of its forms
  const forms =
    spec.fallback === undefined
      ? spec.forms
      : (Object.fromEntries(
          Object.entries(spec.forms as Record<string, FormSpec>).map(([name, f]) => [
            name,
            f?.fallback === undefined ? { ...f, fallback: spec.fallback } : f,
          ]),
        ) as typeof spec.forms);
  const { next, onDecline, onCancel, progress } = spec;
  return { kind: 'ask', form: undefined, forms, next, onDecline, onCancel, ...(progress !== undefined && { progress }) };
}

/** A review of the answers so far: confirm, change one answer (its step is asked again), or abandon. */
export function review(
  spec: {
    readonly message: string;
    readonly labels?: Partial<ReviewStep['labels']>;
    show?(args: ShowArgs): Shown | Promise<Shown>;
    readonly fallback?: StepFallback;
  } & Omit<StepCommon, 'onDecline'>,
): ReviewStep {
  return {
    kind: 'review',
    message: spec.message,
    show: spec.show,
    labels: { confirm: 'Confirm', change: 'Change', abandon: 'Abandon', ...spec.labels },
    next: spec.next,
    onDecline: 'end',
    onCancel: spec.onCancel,
    ...(spec.fallback !== undefined && { fallback: spec.fallback }),
    ...(spec.progress !== undefined && { progress: spec.progress }),
  };
}

/** A step that sends the user to a web page, for clients that can open one (see {@link PageStep}). */
export function openPage(spec: Omit<PageStep, 'kind'>): PageStep {
  return { kind: 'page', ...spec };
}

/** One choice whose answer picks the next step: each option's `next` (see {@link ChooseStep}). */
export function choose<const TOptions extends Readonly<Record<string, ChoiceOption>>>(
  spec: Omit<ChooseStep, 'kind' | 'options' | 'next'> & { readonly options: TOptions },
): ChooseStep<keyof TOptions & string, TOptions[keyof TOptions]['next']> {
  return { kind: 'choose', ...spec } as ChooseStep<keyof TOptions & string, TOptions[keyof TOptions]['next']>;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

type StepAnswers<K, S> =
  S extends AskStep<infer TForms>
    ? { [F in keyof TForms as F extends typeof SELF ? K & string : F & string]?: FormAnswer<TForms[F]> }
    : S extends ChooseStep<infer V>
      ? string extends V
        ? Record<never, never> // a step typed only as a StepSpec: its options are not known
        : { [P in K & string]?: ChoiceAnswer<V> }
      : Record<never, never>;

/**
 * The answers of a flow, typed from its steps: one entry per form, each optional (a branch, a skipped
 * step or a form asked only sometimes may leave it out).
 */
export type AnswersOf<TSteps> =
  UnionToIntersection<{ [K in keyof TSteps]: StepAnswers<K, TSteps[K]> }[keyof TSteps]> extends infer A ? { [K in keyof A]: A[K] } : never;
