// The loaders a flow is given and the values they load, typed from its steps: every loader a load step
// runs must be there, each sees the flow's input and answers, and the final action sees what each loaded.
import type { AnswersOf } from './flow-spec.ts';
import type { Loader, LoadStep } from './load-spec.ts';

/** The names of the loaders a flow's steps run. */
type RunsOf<TSteps> = { [K in keyof TSteps]: TSteps[K] extends LoadStep<infer R> ? R : never }[keyof TSteps];

// what a loaded value is after sealing: `undefined` is kept as `null`
type Kept<V> = undefined extends V ? Exclude<V, undefined> | null : V;
/** What a loader's result is once kept: awaited, `undefined` as `null`. */
export type LoadedResult<TLoader> = TLoader extends (...args: never[]) => infer O ? Kept<Awaited<O>> : unknown;
type LoadedBy<TLoaders, R> = R extends keyof TLoaders ? LoadedResult<TLoaders[R]> : unknown;

/**
 * The values a flow loads, typed from its load steps and their loaders' results: one entry per load
 * step, each optional (a branch may not pass through it).
 */
export type LoadedOf<TSteps, TLoaders> = {
  [K in keyof TSteps as TSteps[K] extends LoadStep ? K : never]?: TSteps[K] extends LoadStep<infer R> ? LoadedBy<TLoaders, R> : never;
} extends infer A
  ? { [K in keyof A]: A[K] }
  : never;

/** The loaders a flow's load steps run, by name: each typed with the flow's input and answers. */
export type FlowLoaders<TInput, TSteps> = Readonly<Record<string, Loader<TInput, AnswersOf<TSteps>>>>;

/** The loaders given, with every name a step runs among them (a missing one fails to typecheck). */
export type LoadersOf<TLoaders, TInput, TSteps> = TLoaders & { readonly [R in RunsOf<TSteps>]: Loader<TInput, AnswersOf<TSteps>> };
