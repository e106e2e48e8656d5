// What a form shows for the context it is asked in: the values it starts with and the options it offers,
// on top of the form its answer schema makes. The answer is still checked against the whole schema.
import { canonicalJson } from './digest.ts';
import type { CompiledQuestion } from './questions.ts';
import type { ElicitationProperty, ElicitationSchema } from './wire-shapes.ts';

type Option = { const: string; title: string };

/** A select's or multi-select's options narrowed to `offered` (in their own order); other properties unchanged. */
function narrowed(property: ElicitationProperty, offered: readonly string[] | undefined): ElicitationProperty {
  if (offered === undefined) return property;
  const keep = (value: string) => offered.includes(value);
  const p = property as Record<string, unknown>;
  if (Array.isArray(p.oneOf)) return { ...p, oneOf: (p.oneOf as Option[]).filter((o) => keep(o.const)) } as ElicitationProperty;
  if (p.type === 'string' && Array.isArray(p.enum)) return { ...p, enum: (p.enum as string[]).filter(keep) } as ElicitationProperty;
  const items = p.items as Record<string, unknown> | undefined;
  if (p.type === 'array' && items) {
    if (Array.isArray(items.anyOf))
      return { ...p, items: { anyOf: (items.anyOf as Option[]).filter((o) => keep(o.const)) } } as ElicitationProperty;
    if (Array.isArray(items.enum)) return { ...p, items: { ...items, enum: (items.enum as string[]).filter(keep) } } as ElicitationProperty;
  }
  return property;
}

/** A text property without what only text has (lengths, format), to be shown as a select. */
function withoutFormat(property: ElicitationProperty): Record<string, unknown> {
  const { minLength: _min, maxLength: _max, format: _format, ...rest } = property as Record<string, unknown>;
  return rest;
}

/** Whether a value is one of the options a property still offers (true for a property without options). */
function offered(property: ElicitationProperty, value: unknown): boolean {
  const p = property as Record<string, unknown>;
  const items = (p.items ?? {}) as Record<string, unknown>;
  const options = Array.isArray(p.oneOf)
    ? (p.oneOf as Option[]).map((o) => o.const)
    : Array.isArray(p.enum)
      ? (p.enum as string[])
      : Array.isArray(items.anyOf)
        ? (items.anyOf as Option[]).map((o) => o.const)
        : Array.isArray(items.enum)
          ? (items.enum as string[])
          : undefined;
  if (options === undefined) return true;
  return Array.isArray(value) ? value.every((v) => options.includes(v as string)) : options.includes(value as string);
}

/**
 * The form a question sends in this context, with its schema text (what is pinned): the compiled form,
 * fitted to the question's view. Throws an Error naming the question when the view is not an object.
 */
export function renderForm(question: CompiledQuestion, context: unknown): { requestedSchema: ElicitationSchema; schemaText: string } {
  if (question.mode !== 'form' || question.form === undefined) return question;
  const view = question.form({ context });
  if (view === undefined) return question;
  if (typeof view !== 'object' || view === null)
    throw new Error(`the form of question '${question.key}' returned ${JSON.stringify(view)}, not { defaults?, offer?, choices? }`);
  const shape = question.schema.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;
  const properties: Record<string, ElicitationProperty> = {};
  let changed = false;
  for (const [field, property] of Object.entries(question.requestedSchema.properties)) {
    const choices = view.choices?.[field];
    let fitted =
      choices !== undefined && (property as { type?: unknown }).type === 'string'
        ? ({
            ...withoutFormat(property),
            oneOf: choices.map(({ const: value, title }) => ({ const: value, title })),
          } as ElicitationProperty)
        : narrowed(property, view.offer?.[field]);
    const value = view.defaults?.[field];
    if (value !== undefined && shape[field]?.safeParse(value).success && offered(fitted, value))
      fitted = { ...fitted, default: value } as ElicitationProperty;
    const own = (fitted as { default?: unknown }).default;
    if (own !== undefined && !offered(fitted, own)) {
      const { default: _dropped, ...rest } = fitted as Record<string, unknown>;
      fitted = rest as ElicitationProperty;
    }
    properties[field] = fitted;
    if (fitted !== property) changed = true;
  }
  // a view that changes no field (no defaults that fit, no options narrowed) sends the compiled form,
  // whose schema text is already made
  if (!changed) return question;
  const requestedSchema = { ...question.requestedSchema, properties };
  return { requestedSchema, schemaText: canonicalJson(requestedSchema) };
}
