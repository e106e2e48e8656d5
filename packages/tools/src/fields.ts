// Form fields for questions: builders that return plain zod schemas an elicitation form can express,
// so the answer type of `z.object({ … })` of them flows as usual. Nonsense options throw at build time.
import { z } from 'zod';
import { type ChoiceSchema, choiceSchema, type OptionList, type OptionValue, optionValues } from './field-options.ts';
import { choiceFrom } from './loaded-choice.ts';

/** The string formats a form can show. */
export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';

/** What the form shows above and under a field. */
interface Labels {
  title?: string;
  description?: string;
}

/** Whether a field may be left out: `optional: true`, or a `default` the form shows (which makes it optional too). */
interface Presence<T> {
  default?: T;
  /** The answer may leave the field out; its value is then `undefined`. @defaultValue false */
  optional?: boolean;
}

export interface TextOptions extends Labels, Presence<string> {
  minLength?: number;
  maxLength?: number;
  /** Checked when the answer arrives; `date-time` takes a `Z` or an offset (`+02:00`). */
  format?: TextFormat;
}

export interface NumberOptions extends Labels, Presence<number> {
  min?: number;
  max?: number;
}

export interface BooleanOptions extends Labels, Presence<boolean> {}

export interface SelectOptions<T extends OptionList = OptionList> extends Labels, Presence<string> {
  options: T;
}

export interface MultiSelectOptions<T extends OptionList = OptionList> extends Labels, Presence<readonly string[]> {
  options: T;
  /** At least this many options picked. */
  min?: number;
  /** At most this many options picked. */
  max?: number;
}

/** The type of option `K` in `O`, `undefined` when `O` has no such key. */
type OptionOf<O, K extends string> = K extends keyof O ? O[K] : undefined;

/**
 * The schema a builder returns for options `O`: optional with `optional: true` (or a boolean not known
 * to be false), defaulted with a `default`. Keys are read one by one: `O extends { optional?: … }` would
 * be a weak-type check that fails for options that do not name `optional` at all.
 */
type Finished<S extends z.ZodType, O> = [Exclude<OptionOf<O, 'optional'>, false | undefined>] extends [never]
  ? [Exclude<OptionOf<O, 'default'>, undefined>] extends [never]
    ? S
    : z.ZodDefault<S>
  : z.ZodOptional<S>;

const FORMATS: Record<TextFormat, () => z.core.$ZodCheck<string>> = {
  email: () => z.email(),
  uri: () => z.url(),
  date: () => z.iso.date(),
  'date-time': () => z.iso.datetime({ offset: true }),
};

/** Throws the TypeError of a nonsense option: the builder, what is wrong, how to fix it. */
function fail(builder: string, what: string, fix: string): never {
  throw new TypeError(`${builder}: ${what} ${fix}`);
}

/** Checks a pair of bounds: numbers (whole and not negative with `count`), the lower at most the upper. */
function checkBounds(builder: string, names: readonly [string, string], low: unknown, high: unknown, count = false): void {
  for (const [name, value] of [
    [names[0], low],
    [names[1], high],
  ] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      fail(builder, `${name} is ${String(value)}, not a finite number.`, `Give ${name} a number or leave it out.`);
    }
    if (count && (!Number.isInteger(value) || value < 0)) {
      fail(builder, `${name} is ${value}, not a whole number of at least 0.`, `Give ${name} a count.`);
    }
  }
  if (typeof low === 'number' && typeof high === 'number' && low > high) {
    fail(builder, `${names[0]} (${low}) is greater than ${names[1]} (${high}).`, 'Swap them, or drop one.');
  }
}

/** Adds the presence (default or optional) and labels to a field's schema, after checking them. */
function finish<S extends z.ZodType, O extends Labels & Presence<unknown>>(builder: string, schema: S, options: O): Finished<S, O> {
  for (const key of ['title', 'description'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      fail(builder, `${key} is ${JSON.stringify(value)}.`, `Give a ${key} the user reads, or leave it out.`);
    }
  }
  let finished: z.ZodType = schema;
  if (options.default !== undefined) {
    if (options.optional === true) {
      fail(builder, 'it has both a default and optional: true.', 'A default already makes the field optional; drop optional.');
    }
    const parsed = schema.safeParse(options.default);
    if (!parsed.success) {
      const reason = parsed.error.issues.map((issue) => issue.message).join('; ');
      fail(builder, `the default ${JSON.stringify(options.default)} is not a valid answer (${reason}).`, 'Change the default, or drop it.');
    }
    finished = schema.default(parsed.data as never);
  } else if (options.optional === true) {
    finished = schema.optional();
  }
  const labels = Object.fromEntries(
    (['title', 'description'] as const).filter((key) => options[key] !== undefined).map((key) => [key, options[key]]),
  );
  return (Object.keys(labels).length > 0 ? finished.meta(labels) : finished) as Finished<S, O>;
}

/** A free-text field: `z.string()` with its lengths and format. */
function text<const O extends TextOptions = Record<never, never>>(options?: O): Finished<z.ZodString, O> {
  const builder = 'field.text';
  const config: TextOptions = options ?? {};
  checkBounds(builder, ['minLength', 'maxLength'], config.minLength, config.maxLength, true);
  let schema = z.string();
  if (config.minLength !== undefined) schema = schema.min(config.minLength);
  if (config.maxLength !== undefined) schema = schema.max(config.maxLength);
  if (config.format !== undefined) {
    if (!Object.hasOwn(FORMATS, config.format)) {
      fail(
        builder,
        `format '${String(config.format)}' is not one a form can show.`,
        `Use 'email', 'uri', 'date' or 'date-time', or leave it out.`,
      );
    }
    schema = schema.check(FORMATS[config.format]());
  }
  return finish(builder, schema, config) as Finished<z.ZodString, O>;
}

/** A number schema with its bounds checked and applied. */
function numeric<S extends z.ZodNumber>(builder: string, base: S, config: NumberOptions): S {
  checkBounds(builder, ['min', 'max'], config.min, config.max);
  let schema = base;
  if (config.min !== undefined) schema = schema.min(config.min) as S;
  if (config.max !== undefined) schema = schema.max(config.max) as S;
  return schema;
}

/** A number field: `z.number()` with its bounds. */
function number<const O extends NumberOptions = Record<never, never>>(options?: O): Finished<z.ZodNumber, O> {
  const config: NumberOptions = options ?? {};
  return finish('field.number', numeric('field.number', z.number(), config), config) as Finished<z.ZodNumber, O>;
}

/** A whole-number field: `z.number().int()` with its bounds (the form shows no bound unless given). */
function integer<const O extends NumberOptions = Record<never, never>>(options?: O): Finished<z.ZodNumber, O> {
  const config: NumberOptions = options ?? {};
  return finish('field.integer', numeric('field.integer', z.number().int(), config), config) as Finished<z.ZodNumber, O>;
}

/** A yes/no field: `z.boolean()`. */
function boolean<const O extends BooleanOptions = Record<never, never>>(options?: O): Finished<z.ZodBoolean, O> {
  const config: BooleanOptions = options ?? {};
  return finish('field.boolean', z.boolean(), config) as Finished<z.ZodBoolean, O>;
}

/** One choice among options: a plain enum from a list, a titled single select from a record of value → title. */
function select<const O extends SelectOptions>(
  options: O & { default?: OptionValue<O['options']> },
): Finished<ChoiceSchema<O['options']>, O> {
  const builder = 'field.select';
  const values = optionValues(builder, options.options);
  if (options.default !== undefined && !values.includes(options.default)) {
    fail(
      builder,
      `the default ${JSON.stringify(options.default)} is not one of the options (${values.join(', ')}).`,
      'Pick the default from the options.',
    );
  }
  return finish(builder, choiceSchema(options.options, values), options) as Finished<ChoiceSchema<O['options']>, O>;
}

/** Any number of options (each at most once): a multi select, titled when the options are a record. */
function multiSelect<const O extends MultiSelectOptions>(
  options: O & { default?: readonly OptionValue<O['options']>[] },
): Finished<z.ZodArray<ChoiceSchema<O['options']>>, O> {
  const builder = 'field.multiSelect';
  const values = optionValues(builder, options.options);
  checkBounds(builder, ['min', 'max'], options.min, options.max, true);
  if (options.min !== undefined && options.min > values.length) {
    fail(builder, `min (${options.min}) is more than the ${values.length} options.`, 'Lower min, or add options.');
  }
  const unknown = Array.isArray(options.default) ? options.default.find((value) => !values.includes(value)) : undefined;
  if (unknown !== undefined) {
    fail(
      builder,
      `the default holds ${JSON.stringify(unknown)}, which is not one of the options (${values.join(', ')}).`,
      'Pick the defaults from the options.',
    );
  }
  let schema = z.array(choiceSchema(options.options, values));
  if (options.min !== undefined) schema = schema.min(options.min);
  if (options.max !== undefined) schema = schema.max(options.max);
  schema = schema.refine((picked) => new Set(picked).size === picked.length, 'Pick each option at most once');
  return finish(builder, schema, options) as Finished<z.ZodArray<ChoiceSchema<O['options']>>, O>;
}

/**
 * Builders of form fields. Each returns a plain zod schema, so `z.object({ … })` of them is a question's
 * answer schema and its `z.output` is the typed answer.
 *
 * @example
 * const schema = z.object({
 *   email: field.text({ title: 'Email', format: 'email' }),
 *   seats: field.integer({ title: 'Seats', min: 1, max: 10, default: 1 }),
 *   plan: field.select({ title: 'Plan', options: { free: 'Free', pro: 'Pro, billed monthly' } }),
 *   extras: field.multiSelect({ options: ['backup', 'support'], optional: true }),
 *   room: field.choiceFrom('rooms.free', { value: 'id', label: 'name', title: 'Room' }), // options loaded by step `rooms`
 * });
 */
export const field = { text, number, integer, boolean, select, multiSelect, choiceFrom };
