// What an author writes to load data in a flow: a `load` step naming a loader, and the loaders
// themselves, given to the flow by name (as actors are to setup()), so the machine config stays JSON.
import type { Next } from './step-next.ts';

/**
 * What a loader receives: the tool's input, the answers and the values loaded on the way here. `TLoaded` is
 * what the loader returns, for `previous`: TypeScript cannot type a function's parameter from the result it
 * infers for that same function, so `previous` is `unknown` unless the loader says what it loads, by
 * annotating its argument (`async ({ input, previous }: LoaderArgsFor<Input, Loaded>): Promise<Loaded> => …`).
 */
export interface LoaderArgs<TInput = Readonly<Record<string, unknown>>, TAnswers = Readonly<Record<string, unknown>>, TLoaded = unknown> {
  readonly input: TInput;
  readonly answers: TAnswers;
  /** Values loaded by earlier load steps, by step name. */
  readonly loaded: Readonly<Record<string, unknown>>;
  /**
   * What this step loaded before in this conversation, when the flow comes back to it (going back, or a
   * confirmed value that changed: see ConfirmedValue); undefined the first time. Compare it with what you
   * load now to say what changed. Typed when the loader annotates its argument with its `TLoaded`.
   */
  readonly previous?: TLoaded | undefined;
  /** Aborted when the request is cancelled or the round stops waiting: stop the work. */
  readonly signal: AbortSignal;
  /** 1 on the first try, 2 on the first retry, and so on. */
  readonly attempt: number;
}

/** The answers as a loader that does not know the flow's steps sees them: JSON by form name, untyped. */
type AnswersByForm = Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;

/**
 * What a loader that loads `TLoaded` receives, for annotating its argument so that `previous` is typed:
 * `findOrder: async ({ input, previous }: LoaderArgsFor<Input, Loaded>): Promise<Loaded> => …` (see LoaderArgs).
 */
export type LoaderArgsFor<TInput, TLoaded> = LoaderArgs<TInput, AnswersByForm, TLoaded>;

/**
 * An async function a `load` step calls by name. Its result must be plain JSON (it is kept in the
 * sealed state between rounds); `undefined` is kept as `null`. A throw is a failure: retried as the step
 * says, then the flow ends with the step's `onError` message.
 */
export type Loader<TInput = Readonly<Record<string, unknown>>, TAnswers = Readonly<Record<string, unknown>>> = {
  // a method's parameter is compared both ways: a loader that annotates its argument with what it loads
  // (`previous` typed) is a loader too, where a function type's `previous: unknown` would refuse it
  load(args: LoaderArgs<TInput, TAnswers>): unknown;
}['load'];

/** What an `onError` function receives: why the load failed, and what the flow knew by then. */
export interface LoadErrorArgs {
  readonly error: unknown;
  readonly input: Readonly<Record<string, unknown>>;
  readonly answers: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly loaded: Readonly<Record<string, unknown>>;
}

/** A step that calls a loader and keeps its result under the step's name, for every later step. */
export interface LoadStep<TRun extends string = string> {
  readonly kind: 'load';
  /** The loader to call: its name in the flow's `loaders`. */
  readonly run: TRun;
  /**
   * How many times to call the loader again when it throws, before giving up.
   * @defaultValue 0
   */
  readonly retries?: number;
  /**
   * What the user reads when the load failed (after its retries), ending the flow: a template like the
   * forms' messages, where `{{error}}` is the error's message, or a function of the error. By default a
   * sentence that says what could not be loaded, without the error (which goes to the server's log).
   */
  readonly onError?: string | ((args: LoadErrorArgs) => string);
  /**
   * What the user reads in a progress notification while the loader runs (`'Looking up the order…'`):
   * plain text. @defaultValue 'Loading…'
   */
  readonly progress?: string;
  /**
   * The loader may take long (minutes, not seconds): a client that accepts tasks gets a task while it
   * runs, and the flow goes on in the background; without that consent it runs inside the request as
   * before. Only in a tool that declares `task: 'optional'` or `'required'`. @defaultValue false
   */
  readonly long?: boolean;
  /** Where the flow goes once loaded: rules may test the loaded value (`{ 'order.status': { eq: 'open' } }`). */
  readonly next?: Next;
}

/**
 * A step that loads data: calls the loader named `run` with `{ input, answers, loaded }` and keeps its
 * JSON result under the step's name, for later messages (`{{order.amount}}`), conditions, checks and
 * the final action (`loaded.order`). It asks nothing and takes no round of its own.
 *
 * @example
 * order: load({ run: 'findOrder', retries: 1, onError: 'The order could not be read: {{error}}',
 *   next: [{ if: { 'order.found': { eq: false } }, end: 'There is no order {{input.orderId}}.' }, { goto: 'confirm' }] }),
 */
export function load<const TRun extends string>(spec: Omit<LoadStep<TRun>, 'kind'>): LoadStep<TRun> {
  return { kind: 'load', ...spec };
}
