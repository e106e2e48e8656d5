// The fields of a form, read from a JSON Schema object: an elicitation's `requestedSchema` (strings,
// numbers, booleans, single and multi selects) or a tool's `inputSchema`, whose other shapes (nested
// objects, nullable values…) are typed as JSON.

type TextFormat = 'email' | 'uri' | 'date' | 'date-time';

/** One option of a select: the value sent, and what the person sees. */
export interface Option {
  readonly value: string;
  readonly title: string;
}

type FieldKind =
  | { readonly kind: 'text'; readonly format?: TextFormat; readonly minLength?: number; readonly maxLength?: number }
  | { readonly kind: 'number'; readonly integer: boolean; readonly minimum?: number; readonly maximum?: number }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'choice'; readonly options: readonly Option[] }
  | { readonly kind: 'choices'; readonly options: readonly Option[]; readonly minItems?: number; readonly maxItems?: number }
  | { readonly kind: 'json' };

export type Field = FieldKind & {
  readonly key: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
  /** The schema's `default`, when it has one. */
  readonly default?: unknown;
};

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const FORMATS = new Set<string>(['email', 'uri', 'date', 'date-time']);

/** `{ const, title }` options of a `oneOf`/`anyOf`, or undefined when the list is something else. */
function titledOptions(list: unknown): Option[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const options: Option[] = [];
  for (const item of list) {
    if (!isNode(item) || typeof item.const !== 'string') return undefined;
    options.push({ value: item.const, title: text(item.title) ?? item.const });
  }
  return options;
}

/** Options of a plain `enum` (titled by the legacy `enumNames` when present), or undefined. */
function enumOptions(node: Node): Option[] | undefined {
  if (!Array.isArray(node.enum) || !node.enum.every((value) => typeof value === 'string')) return undefined;
  const names = Array.isArray(node.enumNames) ? node.enumNames : [];
  return (node.enum as string[]).map((value, i) => ({ value, title: text(names[i]) ?? value }));
}

/** Drops bounds that only say "any safe integer" (what z.int() writes): they mean no bound to a person. */
const bound = (value: unknown) =>
  count(value) === undefined || value === Number.MIN_SAFE_INTEGER || value === Number.MAX_SAFE_INTEGER ? undefined : (value as number);

function kindOf(node: Node): FieldKind {
  switch (node.type) {
    case 'string': {
      const options = enumOptions(node) ?? titledOptions(node.oneOf) ?? titledOptions(node.anyOf);
      if (options) return { kind: 'choice', options };
      const format = text(node.format);
      return {
        kind: 'text',
        ...(format && FORMATS.has(format) && { format: format as TextFormat }),
        ...(count(node.minLength) !== undefined && { minLength: count(node.minLength) }),
        ...(count(node.maxLength) !== undefined && { maxLength: count(node.maxLength) }),
      };
    }
    case 'number':
    case 'integer':
      return {
        kind: 'number',
        integer: node.type === 'integer',
        ...(bound(node.minimum) !== undefined && { minimum: bound(node.minimum) }),
        ...(bound(node.maximum) !== undefined && { maximum: bound(node.maximum) }),
      };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array': {
      const items = isNode(node.items) ? node.items : {};
      const options = enumOptions(items) ?? titledOptions(items.anyOf) ?? titledOptions(items.oneOf);
      if (!options) return { kind: 'json' };
      return {
        kind: 'choices',
        options,
        ...(count(node.minItems) !== undefined && { minItems: count(node.minItems) }),
        ...(count(node.maxItems) !== undefined && { maxItems: count(node.maxItems) }),
      };
    }
    case undefined: {
      const options = titledOptions(node.oneOf) ?? titledOptions(node.anyOf) ?? enumOptions(node);
      return options ? { kind: 'choice', options } : { kind: 'json' };
    }
    default:
      return { kind: 'json' };
  }
}

/** The fields of an object schema, in the order of its properties. */
export function readFields(schema: unknown): Field[] {
  if (!isNode(schema) || !isNode(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : []);
  return Object.entries(schema.properties).map(([key, value]) => {
    const node = isNode(value) ? value : {};
    const title = text(node.title);
    const description = text(node.description);
    return {
      ...kindOf(node),
      key,
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      required: required.has(key),
      ...('default' in node && { default: node.default }),
    };
  });
}
