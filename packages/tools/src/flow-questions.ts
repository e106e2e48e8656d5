// The questions of a compiled flow: one per form and one per review, messages rendered from context.
import type { AnyQuestions, FormView, QuestionFallback } from '@roundtrip/engine';
import { z } from 'zod';
import type { CompiledFlow } from './compiled-flow.ts';
import { flowQuestionSet } from './engine-door.ts';
import { type FlowContext, valuesOf } from './flow-context.ts';
import type { StepFallback } from './flow-spec.ts';
import { ABANDON, CONFIRM, changeOption } from './flow-states.ts';
import { choiceOptions, loadedChoices } from './loaded-choice.ts';
import { renderText, renderUrl, safeValue } from './safe-text.ts';

/** A field's title for people: its zod `title` meta, else its name. */
export function fieldTitle(schema: z.ZodType, name: string): string {
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
const reviewValue = (value: unknown): string => (typeof value === 'boolean' ? (value ? 'yes' : 'no') : safeValue(value));

/** An answer as the review shows it: option titles for chosen options, yes or no, safe text otherwise. */
function shownAnswer(schema: z.ZodType, value: unknown): string {
  const titles = optionTitles(schema);
  const titled = (v: unknown) => (typeof v === 'string' ? (titles.get(v) ?? v) : v);
  return Array.isArray(value) ? safeValue(value.map(titled)) : reviewValue(titled(value));
}

const note = (problem: string | undefined) => (problem ? `\n\nYour last answer was not accepted: ${problem}. Please answer again.` : '');

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

/** The review's summary: one line per answered field of every form on the way here. */
function summary(flow: CompiledFlow, context: FlowContext): string {
  const lines: string[] = [];
  for (const step of context.trail) {
    for (const form of flow.formsOfStep.get(step) ?? []) {
      const answer = context.answers[form];
      const fields = flow.forms.get(form)?.spec.fields ?? {};
      if (!answer) continue;
      const loadedTitles = choiceTitles(fields, context);
      for (const [field, schema] of Object.entries(fields))
        lines.push(
          `- ${fieldTitle(schema, field)}: ${shownAnswer(schema, loadedTitles.get(field)?.get(answer[field] as string) ?? answer[field])}`,
        );
    }
  }
  const review = context.trail[context.trail.length - 1];
  for (const [label, value] of Object.entries((review && context.shown?.[review]) ?? {}))
    lines.push(`- ${safeValue(label)}: ${reviewValue(value)}`);
  return lines.join('\n');
}

/** The review's one field: confirm, change a step (by the titles of its fields), or abandon. */
function choiceSchema(flow: CompiledFlow, review: string) {
  const { spec, changeable } = flow.reviews.get(review)!;
  const options: Array<[string, string]> = [[CONFIRM, spec.labels.confirm]];
  for (const step of changeable) {
    const titles = (flow.formsOfStep.get(step) ?? []).flatMap((form) =>
      Object.entries(flow.forms.get(form)?.spec.fields ?? {}).map(([field, schema]) => fieldTitle(schema, field)),
    );
    options.push([changeOption(step), `${spec.labels.change}: ${titles.join(', ')}`]);
  }
  options.push([ABANDON, spec.labels.abandon]);
  const literals = options.map(([value, title]) => z.literal(value).meta({ title }));
  return z.object({ choice: z.union(literals as unknown as [z.ZodLiteral<string>, z.ZodLiteral<string>]).meta({ title: 'Your choice' }) });
}

/** The review's options this conversation can take: confirm, a change of a step it went through, abandon. */
function reviewOptions(flow: CompiledFlow, review: string, context: FlowContext): FormView {
  const { changeable } = flow.reviews.get(review)!;
  const changes = changeable.filter((step) => context.trail.includes(step)).map(changeOption);
  return { offer: { choice: [CONFIRM, ...changes, ABANDON] } };
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
function fallbackOf(own: StepFallback | undefined, flow: QuestionFallback | undefined): { fallback?: QuestionFallback } {
  const chosen = own === undefined ? flow : own;
  return chosen === undefined || chosen === false ? {} : { fallback: chosen };
}

/** The question set of a compiled flow, for the engine; `fallback` is the flow's default for every question. */
export function flowQuestions(flow: CompiledFlow, fallback?: QuestionFallback): AnyQuestions {
  const specs: Record<
    string,
    {
      message: (args: { context: FlowContext }) => string;
      schema: z.ZodObject;
      form: (args: { context: FlowContext }) => FormView;
      fallback?: QuestionFallback;
    }
  > = {};
  for (const [form, { spec }] of flow.forms) {
    const schema = z.object(spec.fields);
    const start = unticked(spec.fields);
    const loaded = loadedChoices(spec.fields);
    specs[form] = {
      message: ({ context }) => renderText(spec.message, valuesOf(context)) + note(context.problems[form]),
      schema,
      // asked again (refused, gone back to, changed from the review): the form starts with the last answer
      form: ({ context }) => {
        const last = context.lastAnswers?.[form];
        const defaults = start === undefined ? (last ?? {}) : last === undefined ? start : { ...start, ...last };
        if (loaded.length === 0) return { defaults };
        // a choice among loaded items offers those loaded now
        const values = valuesOf(context);
        return { defaults, choices: Object.fromEntries(loaded.map(([field, choice]) => [field, choiceOptions(field, choice, values)])) };
      },
      ...fallbackOf(spec.fallback, fallback),
    };
  }
  const pages: Record<string, { message: (args: { context: FlowContext }) => string; url: (args: { context: FlowContext }) => string }> =
    {};
  for (const [name, page] of flow.pages) {
    pages[name] = {
      message: ({ context }) => renderText(page.message, valuesOf(context)) + note(context.problems[name]),
      url: ({ context }) => renderUrl(page.url, valuesOf(context)),
    };
  }
  for (const [name, { spec }] of flow.reviews) {
    specs[name] = {
      message: ({ context }) =>
        `${renderText(spec.message, valuesOf(context))}\n\n${summary(flow, context)}${note(context.problems[name])}`,
      schema: choiceSchema(flow, name),
      form: ({ context }) => reviewOptions(flow, name, context),
      ...fallbackOf(spec.fallback, fallback),
    };
  }
  return flowQuestionSet<FlowContext>({ ...specs, ...pages });
}
