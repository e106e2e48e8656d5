// Whether an answer is sure to be there, for a flow declared in order (flow-steps.ts): the flow is
// "straight" until a step can branch, and a form asked on the straight way that cannot be skipped is on
// every way to the final action, so its answer is required there; every other answer is optional.

/** A type written out flat (for hovers and equality in tests). */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The answers after one more form: required when every way on from here has it, else optional. */
export type WithAnswer<TSeen, K extends string, V, TRequired extends boolean> = TRequired extends true
  ? Simplify<TSeen & { [P in K]: V }>
  : Simplify<TSeen & { [P in K]?: V }>;

/** Whether a form is on every way from here: the flow has not branched, and it cannot be skipped or left out. */
// (a form's own `if` or leave not given is inferred as `unknown`)
export type Sure<TStraight extends boolean, TLeaves, TIf> = TStraight extends false
  ? false
  : 'skip' extends TLeaves
    ? false
    : [Given<TIf>] extends [undefined]
      ? true
      : false;
type Given<T> = unknown extends T ? undefined : T;

/**
 * Whether the flow is straight at step K, given the way before it (`TWay`): `true` or `false`, or the
 * one step the step before goes on to (its other rules `end` the flow, which never reaches the final
 * action): straight only when K is that step.
 */
export type StraightAt<TWay, K> = [TWay] extends [boolean] ? TWay : [TWay] extends [K] ? ([K] extends [TWay] ? true : false) : false;
/**
 * The way after a step at which the flow was straight (`TStraight`), with rules `TNext`: straight on
 * without rules; the one step its rules go to when that is all they go to (an `end` rule never reaches
 * the final action, so it skips nothing after); else branched (`false`): a `goto` to several steps, to
 * 'finish' or to a name not known here may pass a later step by.
 */
export type WayAfter<TStraight, TNext> = TStraight extends true ? ([TNext] extends [undefined] ? true : OneWay<GotoTargets<TNext>>) : false;
type GotoTargets<TNext> = TNext extends string
  ? TNext
  : TNext extends readonly (infer R)[]
    ? R extends { readonly goto: infer G extends string }
      ? G
      : never
    : string;
/** The one step of `T` (only `end` rules: straight on), or `false` for several, 'finish' or any `string`. */
type OneWay<T> = [T] extends [never]
  ? true
  : string extends T
    ? false
    : [OneOf<T>] extends [never]
      ? false
      : T extends 'finish'
        ? false
        : T;
type OneOf<T, TAll = T> = T extends unknown ? ([Exclude<TAll, T>] extends [never] ? T : never) : never;
/** Sure for form F of a step of several forms: the step's leaves and F's own (its onDecline, onCancel), and F's own `if`. */
export type SureForm<F, TStraight extends boolean, TLeaves, TDeclines, TCancels, TIfs> = Sure<
  TStraight,
  TLeaves | Given<TDeclines[F & keyof TDeclines]> | Given<TCancels[F & keyof TCancels]>,
  TIfs[F & keyof TIfs]
>;
