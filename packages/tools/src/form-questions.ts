// The questions of a flow's forms as the engine asks them (message, schema, how the form starts), and how
// people read a form's fields and answers: titles, option labels, yes or no. Each kind asks its questions
// with these (step-kinds.ts); flow-questions.ts gathers them.
import type { QuestionFallback } from '@roundtrip/engine';
import { z } from 'zod';
import { type FlowContext, valuesOf } from './flow-context.ts';
import type { FormSpec, StepFallback } from './flow-spec.ts';
import { choiceOptions, loadedChoices } from './loaded-choice.ts';
import { renderText, safeValue } from './safe-text.ts';
import type { FlowQuestion } from './step-kind-types.ts';

/** A field's title for people: its zod `title` meta, else its name. */
function fieldTitle(schema: z.ZodType, name: string): string {
  let current: z.ZodType | undefined = schema;
  while (current) {
    const title = (current.meta() as { title?: unknown } | undefined)?.title;
    if (typeof title === 'string' && title !== '') return title;
    const inner: unknown = (current as { unwrap?: () => unknown }).unwrap?.();
    current = inner instanceof z.ZodType ? inner : undefined;
  }
  return name;
}

const optionTitleCache = new WeakMap<z.ZodType, ReadonlyMap<string, string>>();

/** The titles of a select's or multi-select's options, by value (none for other fields). */
function optionTitles(schema: z.ZodType): ReadonlyMap<string, string> {
  let titles = optionTitleCache.get(schema);
  if (!titles) {
    const found = new Map<string, string>();
    const collect = (node: unknown) => {
      if (typeof node !== 'object' || node === null) return;
      const { const: value, title, anyOf, oneOf, items } = node as Record<string, unknown>;
      if (typeof value === 'string' && typeof title === 'string') found.set(value, title);
      for (const list of [anyOf, oneOf]) if (Array.isArray(list)) list.forEach(collect);
      collect(items);
    };
    try {
      collect(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
    } catch {
      // a schema without a JSON form shows its raw values
    }
    titles = found;
    optionTitleCache.set(schema, titles);
  }
  return titles;
}

/** A value as the review shows it: yes or no for a boolean, safe text otherwise. */
export const reviewValue = (value: unknown): string => (typeof value === 'boolean' ? (value ? 'yes' : 'no') : safeValue(value));

/** An answer as the review shows it: option titles for chosen options, yes or no, safe text otherwise. */
function shownAnswer(schema: z.ZodType, value: unknown): string {
  const titles = optionTitles(schema);
  const titled = (v: unknown) => (typeof v === 'string' ? (titles.get(v) ?? v) : v);
  return Array.isArray(value) ? safeValue(value.map(titled)) : reviewValue(titled(value));
}

export const note = (problem: string | undefined) =>
  problem ? `\n\nYour last answer was not accepted: ${problem}. Please answer again.` : '';

/** The options of a form's loaded choices in this context, by field: each option's title by value. */
function choiceTitles(fields: Readonly<Record<string, z.ZodType>>, context: FlowContext): Map<string, Map<string, string>> {
  const values = valuesOf(context);
  const titles = new Map<string, Map<string, string>>();
  for (const [field, choice] of loadedChoices(fields)) {
    try {
      titles.set(field, new Map(choiceOptions(field, choice, values).map((o) => [o.const, o.title])));
    } catch {
      // nothing loaded there (a state sealed before): the review shows the value itself
    }
  }
  return titles;
}

/**
 * The defaults a form starts with when nothing was answered: `false` for each yes/no field the author
 * gave no default and did not make optional. A form shows such a field as an unticked box; without the
 * default, hosts that check required fields (the MCP Inspector) refuse to send it until it is ticked and
 * unticked again, so "no" could hardly be answered.
 */
function unticked(fields: Readonly<Record<string, z.ZodType>>): Readonly<Record<string, boolean>> | undefined {
  const names = Object.keys(fields).filter((name) => fields[name] instanceof z.ZodBoolean);
  return names.length === 0 ? undefined : Object.fromEntries(names.map((name) => [name, false]));
}

/** A question's fallback: its own (`false`: none), else the flow's. */
export function fallbackOf(own: StepFallback | undefined, flow: QuestionFallback | undefined): { fallback?: QuestionFallback } {
  const chosen = own === undefined ? flow : own;
  return chosen === undefined || chosen === false ? {} : { fallback: chosen };
}

/**
 * The question of one form: its message (with why the last answer did not count), its fields' schema,
 * and how it starts: the last answer when asked again, unticked yes/no fields, the options loaded now.
 */
export function formQuestion(key: string, spec: FormSpec, fallback: QuestionFallback | undefined): FlowQuestion {
  const start = unticked(spec.fields);
  const loaded = loadedChoices(spec.fields);
  return {
    message: ({ context }) => renderText(spec.message, valuesOf(context)) + note(context.problems[key]),
    schema: z.object(spec.fields),
    // asked again (refused, gone back to, changed from the review): the form starts with the last answer
    form: ({ context }) => {
      const last = context.lastAnswers?.[key];
      const defaults = start === undefined ? (last ?? {}) : last === undefined ? start : { ...start, ...last };
      if (loaded.length === 0) return { defaults };
      // a choice among loaded items offers those loaded now
      const values = valuesOf(context);
      return { defaults, choices: Object.fromEntries(loaded.map(([field, choice]) => [field, choiceOptions(field, choice, values)])) };
    },
    ...fallbackOf(spec.fallback, fallback),
  };
}

/** The lines a review shows for the answer of one form: one per field, options by their titles. */
export function answerLines(spec: FormSpec, answer: Readonly<Record<string, unknown>>, context: FlowContext): string[] {
  const fields = spec.fields ?? {};
  const loadedTitles = choiceTitles(fields, context);
  return Object.entries(fields).map(
    ([field, schema]) =>
      `- ${fieldTitle(schema, field)}: ${shownAnswer(schema, loadedTitles.get(field)?.get(answer[field] as string) ?? answer[field])}`,
  );
}

/** The titles of a form's fields, for people: what changing it changes, what a diagram lists. */
export const fieldTitles = (spec: FormSpec): string[] =>
  Object.entries(spec.fields ?? {}).map(([field, schema]) => fieldTitle(schema, field));
