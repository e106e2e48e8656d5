// Select fields whose options come from data a load step loaded: the field, its options in a context,
// the check of an answer against them, and the check of the path when the flow is defined.
import { z } from 'zod';
import { isAsyncFunction } from './async-functions.ts';
import type { FlowProblems } from './flow-checks.ts';
import type { FormSpec } from './flow-spec.ts';
import { type KnownPaths, knownPath } from './known-paths.ts';

export interface ChoiceFromOptions {
  /** The key of each loaded item that is the answer (a string or a number, kept as a string). */
  value: string;
  /** The key of each loaded item the form shows as the option's title. */
  label: string;
  title?: string;
  description?: string;
}

/** Where a field's options are: a path under a load step's value, and the keys of each item. */
interface LoadedChoice {
  readonly path: string;
  readonly value: string;
  readonly label: string;
}

/** One option offered: the answer's value and the title shown. */
interface Option {
  readonly const: string;
  readonly title: string;
}

const choices = new WeakMap<z.ZodType, LoadedChoice>();

/**
 * One choice among the items of a list loaded earlier in the flow (`path`: a load step's name, or a path
 * under its value): the form shows a select of exactly the items loaded when it is asked, titled by
 * `label`; the answer is the chosen item's `value`, as a string. An answer that is not among them is
 * refused and asked again. The path must be loaded by a step before the question (checked when the flow
 * is defined).
 *
 * @example rooms: load({ run: 'freeRooms' }), … room: ask({ message: 'Which room?',
 *   fields: { room: field.choiceFrom('rooms.free', { value: 'id', label: 'name', title: 'Room' }) } })
 */
export function choiceFrom(path: string, options: ChoiceFromOptions): z.ZodString {
  const fail = (what: string, fix: string): never => {
    throw new TypeError(`field.choiceFrom: ${what} ${fix}`);
  };
  if (typeof path !== 'string' || !/^[A-Za-z]\w*(\.[A-Za-z0-9_]+)*$/.test(path))
    fail(`the path ${JSON.stringify(path)} is not a path.`, "Name a load step, or a path under its value: 'rooms' or 'rooms.free'.");
  for (const key of ['value', 'label'] as const) {
    if (typeof options?.[key] !== 'string' || options[key].trim() === '')
      fail(`${key} is ${JSON.stringify(options?.[key])}.`, `Give the key of each loaded item that holds the option's ${key}.`);
  }
  const labels = Object.fromEntries((['title', 'description'] as const).flatMap((key) => (options[key] ? [[key, options[key]]] : [])));
  const schema = Object.keys(labels).length > 0 ? z.string().meta(labels) : z.string();
  choices.set(schema, { path, value: options.value, label: options.label });
  return schema;
}

/** The value at a dotted path of `values`, undefined when any step is missing. */
function valueAt(values: unknown, path: string): unknown {
  let current = values;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The fields of a form whose options are loaded, by field name. */
export function loadedChoices(fields: Readonly<Record<string, unknown>>): [string, LoadedChoice][] {
  return Object.entries(fields).flatMap(([name, schema]) => {
    const choice = schema instanceof z.ZodType ? choices.get(schema) : undefined;
    return choice ? [[name, choice] as [string, LoadedChoice]] : [];
  });
}

/**
 * The options a field offers over the flow's values: one per loaded item with a value. Throws a TypeError
 * for the author when the loaded value is not a list.
 */
export function choiceOptions(field: string, choice: LoadedChoice, values: unknown): Option[] {
  const items = valueAt(values, choice.path);
  if (!Array.isArray(items))
    throw new TypeError(
      `field '${field}' offers the items at '${choice.path}', but what was loaded there is ${JSON.stringify(items) ?? 'nothing'}, not a list. Make the loader put a list of objects with '${choice.value}' and '${choice.label}' there.`,
    );
  return items.flatMap((item) => {
    const value = valueAt(item, choice.value);
    if (typeof value !== 'string' && typeof value !== 'number') return [];
    const label = valueAt(item, choice.label);
    return [{ const: String(value), title: typeof label === 'string' && label !== '' ? label : String(value) }];
  });
}

/** Why an answer picks what its form did not offer (asked again with the reason), or undefined. */
function choiceProblem(
  fields: Readonly<Record<string, unknown>>,
  answer: Readonly<Record<string, unknown>>,
  loaded: unknown,
): string | undefined {
  for (const [field, choice] of loadedChoices(fields)) {
    const value = answer[field];
    if (value === undefined) continue;
    const options = choiceOptions(field, choice, loaded);
    if (!options.some((option) => option.const === value))
      return `${JSON.stringify(value)} is not one of the options offered (${options.map((o) => o.title).join(', ') || 'none'})`;
  }
  return undefined;
}

/** Checks that each loaded choice of a form names data a step before it loads (`before`: what it can read). */
export function checkLoadedChoices(
  p: FlowProblems,
  where: readonly string[],
  fields: Readonly<Record<string, unknown>>,
  before: KnownPaths,
): void {
  for (const [field, { path }] of loadedChoices(fields)) {
    const step = path.split('.')[0]!;
    const found = before.has(`${step}.*`) ? { kind: 'any' } : knownPath(before, path);
    if (found?.kind === 'any') continue;
    const loads = [...before.keys()].filter((known) => known.endsWith('.*')).map((known) => `'${known.slice(0, -2)}'`);
    p.add(
      [...where, `field '${field}'`],
      'invalid_step',
      found
        ? `field.choiceFrom('${path}') names a form's field, not a list loaded by a load step.`
        : `field.choiceFrom('${path}') names nothing loaded before this question.`,
      loads.length > 0
        ? `Name a list a step before it loads: ${loads.join(' or ')}, or a path under it such as '${loads[0]!.slice(1, -1)}.items'.`
        : `Add a load step before this question whose loader returns the list, and name it: field.choiceFrom('<load step>', …).`,
    );
  }
}

/**
 * A form whose answers are refused when they pick an option not loaded (before its own check runs); the
 * form itself when it has no loaded choice. The check stays async when the author's is.
 */
export function withChoiceCheck(spec: FormSpec): FormSpec {
  if (typeof spec !== 'object' || spec === null || loadedChoices(spec.fields ?? {}).length === 0) return spec;
  const own = spec.check;
  if (own !== undefined && typeof own !== 'function') return spec;
  const check: FormSpec['check'] = isAsyncFunction(own)
    ? async (args) => choiceProblem(spec.fields, args.answer, args.loaded) ?? (await own!(args))
    : (args) => choiceProblem(spec.fields, args.answer, args.loaded) ?? own?.(args);
  return { ...spec, check };
}
