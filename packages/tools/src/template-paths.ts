// Message templates as types: in a flow declared in order, each `{{…}}` of a message must name a value
// the step can read (`input.<argument>`, `<form>.<field>` of a step before, anything under a load step's
// name). The check at definition time stays: it also covers templates built at run time.
import type { ConditionPath } from './conditions.ts';

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;

/** The placeholders of a template literal type: `'At {{ when.time }} for {{input.topic}}'` → `'when.time' | 'input.topic'`. */
type PlaceholdersOf<T extends string> = T extends `${string}{{${infer P}}}${infer Rest}` ? Trim<P> | PlaceholdersOf<Rest> : never;

/** What a template over `TValues` may name: `input.topic`, `when.date`, `order.…` (a load step's value, any path under it). */
type TemplatePath<TValues> = ConditionPath<TValues>;

/** The placeholders of `T` that name nothing the step can read; `TBare` are names allowed alone (`error`). */
type UnknownPlaceholders<T extends string, TValues, TBare extends string> = Exclude<PlaceholdersOf<T>, TemplatePath<TValues> | TBare>;

/**
 * A message template checked against what its step can read: the template itself when every `{{…}}`
 * names a known value, else a sentence naming the placeholder that does not (the compiler shows it as the
 * expected type). A template that is not a literal (built at run time) is checked when the flow is defined.
 */
export type CheckedTemplate<T extends string, TValues, TBare extends string = never> = string extends T
  ? string
  : [UnknownPlaceholders<T, TValues, TBare>] extends [never]
    ? T
    : `{{${UnknownPlaceholders<T, TValues, TBare>}}} names nothing this step can read: use input.<argument>, or <form>.<field> of a step before`;

/** A template over `TValues`, for places where its literal type is not kept (an `end` rule's message): checked when the flow is defined. */
export type Template<_TValues> = string;
