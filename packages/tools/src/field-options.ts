// The options of select fields: checking an option list once, and the zod schema of one choice.
import { z } from 'zod';

/**
 * The options of a select: a list of values (`['low', 'high']`), or values mapped to the titles the
 * form shows (`{ low: 'Low priority', high: 'High priority' }`). A record lists its options in
 * JavaScript's key order: integer-like keys first.
 */
export type OptionList = readonly string[] | Readonly<Record<string, string>>;

/** The values of an option list: the list's members, or the record's keys. */
export type OptionValue<T extends OptionList> = T extends readonly string[] ? T[number] : `${Exclude<keyof T, symbol>}`;

/** One choice among the options: z.enum for a plain list, a union of titled literals for a record. */
export type ChoiceSchema<T extends OptionList> = T extends readonly string[]
  ? z.ZodEnum<{ [V in OptionValue<T>]: V }>
  : z.ZodUnion<z.ZodLiteral<OptionValue<T>>[]>;

/** Checks an option list, throwing a TypeError that names `builder` and the fix; returns the values in order. */
export function optionValues(builder: string, options: OptionList): string[] {
  const fail = (what: string, fix: string): never => {
    throw new TypeError(`${builder}: ${what} ${fix}`);
  };
  if (typeof options !== 'object' || options === null) {
    return fail(
      'options is not a list or an object.',
      "Give a list of values (['a', 'b']) or an object of value → title ({ a: 'Option A' }).",
    );
  }
  const values = Array.isArray(options) ? [...(options as readonly unknown[])] : Object.keys(options);
  if (values.length === 0) fail('options is empty.', 'Give at least one option.');
  const seen = new Set<unknown>();
  for (const [index, value] of values.entries()) {
    if (typeof value !== 'string') fail(`option ${index + 1} is ${JSON.stringify(value)}, not a string.`, 'Make every option a string.');
    if (seen.has(value)) fail(`option '${String(value)}' is listed twice.`, 'List each option once.');
    seen.add(value);
  }
  if (!Array.isArray(options)) {
    const titles = new Map<string, string>();
    for (const [value, title] of Object.entries(options as Record<string, unknown>)) {
      if (typeof title !== 'string' || title.trim() === '')
        fail(`option '${value}' has no title.`, 'Give every option a title the user reads.');
      const other = titles.get(title as string);
      if (other !== undefined) {
        fail(
          `options '${other}' and '${value}' share the title '${String(title)}'.`,
          'Give each option its own title, so users can tell them apart.',
        );
      }
      titles.set(title as string, value);
    }
  }
  return values as string[];
}

/**
 * The schema of one choice among checked options. An answer that is not an option is refused with
 * "Invalid option: expected one of …", whether the options are titled or not.
 */
export function choiceSchema<T extends OptionList>(options: T, values: readonly string[]): ChoiceSchema<T> {
  if (Array.isArray(options)) return z.enum(values as [string, ...string[]]) as unknown as ChoiceSchema<T>;
  const titles = options as Readonly<Record<string, string>>;
  const literals = values.map((value) => z.literal(value).meta({ title: titles[value]! }));
  const error = `Invalid option: expected one of ${values.map((value) => JSON.stringify(value)).join('|')}`;
  return z.union(literals, { error }) as unknown as ChoiceSchema<T>;
}
