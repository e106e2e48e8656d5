// The condition language as types: the JSON shape of a condition, and, given the values of a flow
// (`{ input: {…}; <form>: {…} }`), which paths exist and which tests fit each field.

/** A value a test compares against: a JSON primitive. */
export type ConditionValue = string | number | boolean | null;

/** The values a flow's conditions read: the tool's input and each form's answers, by name. */
type FlowValues = Record<string, Record<string, unknown>>;

// one member per key of T, holding that key and forbidding the others: "exactly one of"
type Exactly<T> = { [K in keyof T]: { [P in K]: T[K] } & { [P in Exclude<keyof T, K>]?: never } }[keyof T];

interface AnyOperators {
  eq: ConditionValue;
  ne: ConditionValue;
  gt: number | string;
  gte: number | string;
  lt: number | string;
  lte: number | string;
  in: readonly ConditionValue[];
  includes: ConditionValue;
  answered: boolean;
}

type Defined<V> = Exclude<V, undefined>;
type Scalar<V> = Extract<Defined<V>, ConditionValue>;
// numbers, and free text (ISO dates); not an enum, whose order means nothing
type Ordered<V> = [Exclude<Defined<V>, null>] extends [never]
  ? never
  : [Exclude<Defined<V>, null>] extends [number]
    ? number
    : [Exclude<Defined<V>, null>] extends [string]
      ? string extends Exclude<Defined<V>, null>
        ? string
        : never
      : never;
type Item<V> = Defined<V> extends readonly (infer E)[] ? Extract<E, ConditionValue> : never;
type ScalarList<V> = [Scalar<V>] extends [never] ? never : readonly Scalar<V>[];

interface OperatorsFor<V> {
  eq: Scalar<V>;
  ne: Scalar<V>;
  gt: Ordered<V>;
  gte: Ordered<V>;
  lt: Ordered<V>;
  lte: Ordered<V>;
  in: ScalarList<V>;
  includes: Item<V>;
  answered: boolean;
}

type Available<T> = { [K in keyof T as [T[K]] extends [never] ? never : K]: T[K] };

/**
 * The test on one path: an object with exactly one operator. For a field of type `TValue`, only the
 * operators that fit it, with the operand typed from it (`gt` on numbers and free text, `eq` with the
 * field's own type, `includes` with an array's item type); for `unknown`, every operator.
 */
export type PathTest<TValue = unknown> = unknown extends TValue ? Exactly<AnyOperators> : Exactly<Available<OperatorsFor<TValue>>>;

type FormOf<TValues> = Extract<keyof TValues, string>;
// a loaded value may be null (a loader found nothing): its paths are those of what it holds otherwise
type Held<V> = NonNullable<V>;
type FieldOf<TValues, F extends keyof TValues> = Extract<keyof Held<TValues[F]>, string>;
// deeper into a field that holds an object (a loaded value's `order.customer.name`): any path under it
type DeeperOf<TValues, F extends keyof TValues> = {
  [K in FieldOf<TValues, F>]: unknown extends Held<TValues[F]>[K]
    ? never // any path already
    : Held<Held<TValues[F]>[K]> extends readonly unknown[]
      ? never
      : Held<Held<TValues[F]>[K]> extends object
        ? `${K}.${string}`
        : never;
}[FieldOf<TValues, F>];

/** The paths of a flow's values: `input.topic`, `when.attendees` (form name, then field), deeper into an object a load step loaded. */
export type ConditionPath<TValues = FlowValues> = {
  [F in FormOf<TValues>]: `${F}.${FieldOf<TValues, F> | DeeperOf<TValues, F>}`;
}[FormOf<TValues>];

/** The type of the value at a path (PathTest leaves out `undefined`: a missing value is what `answered` tests). */
type ValueAt<TValues, P> = P extends `${infer F extends FormOf<TValues>}.${infer K}`
  ? K extends keyof Held<TValues[F]>
    ? Defined<Held<TValues[F]>[K]>
    : unknown
  : unknown;

// `| undefined` only where any path goes: a typed condition says `'input.topic'?: never` for the
// paths it does not test, and stays assignable to the wide type
type Parts<TValues> = {
  [P in ConditionPath<TValues>]: PathTest<ValueAt<TValues, P>> | (`${string}.${string}` extends P ? undefined : never);
} & {
  all: readonly Condition<TValues>[];
  any: readonly Condition<TValues>[];
  not: Condition<TValues>;
};

/**
 * A condition over a flow's values, as plain JSON: one path test (`{ 'when.attendees': { gt: 5 } }`)
 * or one combination (`{ all: [...] }`, `{ any: [...] }`, `{ not: ... }`), always exactly one key.
 * `Condition` alone takes any `form.field` path and any test (several paths in one object are left to
 * checkCondition); `Condition<TValues>` only the paths of `TValues`, with tests that fit each field.
 * A typed condition is also a `Condition`.
 */
export type Condition<TValues = FlowValues> = Exactly<Parts<TValues>>;
