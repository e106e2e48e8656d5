// What a condition or a template may read: `input.<argument>`, `<form>.<field>` and `<load step>.<…>`, with each one's kind.
import { z } from 'zod';

/** What a field holds, as far as conditions care; `any`: a loaded value, whose type is known only at run time. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'enum' | 'array' | 'any';

/** One path a condition may test. */
export interface KnownPath {
  readonly kind: FieldKind;
  /** The choices of an `enum` field, or the items an `array` field may hold (a multi-select). */
  readonly options?: readonly string[];
  /** Informational: any form may be unasked, so every path can be missing at run time. */
  readonly optional: boolean;
}

/**
 * The paths a flow's conditions may test, by full path (`input.topic`, `when.attendees`), in the order to
 * list them; `order.*` stands for every path under a load step's value.
 */
export type KnownPaths = ReadonlyMap<string, KnownPath>;

/** What `known` says of `path`: its own entry, or the `<step>.*` of the load step it is under. */
export function knownPath(known: KnownPaths, path: string): KnownPath | undefined {
  return known.get(path) ?? known.get(`${path.slice(0, path.indexOf('.'))}.*`);
}

/** The paths to suggest: every known one, a load step's as `order.…`. */
export const listedPaths = (known: KnownPaths): string[] =>
  [...known.keys()].map((path) => (path.endsWith('.*') ? `${path.slice(0, -1)}…` : path));

/** The kind of one field, from the JSON Schema its zod schema writes. */
function pathInfo(schema: z.ZodType): KnownPath {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    json = {};
  }
  const optional = schema.safeParse(undefined).success;
  const constants = (list: unknown): string[] | undefined =>
    Array.isArray(list) && list.every((o) => typeof (o as { const?: unknown })?.const === 'string')
      ? list.map((o) => (o as { const: string }).const)
      : undefined;
  const options = Array.isArray(json.enum) ? (json.enum as string[]) : (constants(json.oneOf) ?? constants(json.anyOf));
  if (options) return { kind: 'enum', options, optional };
  switch (json.type) {
    case 'number':
    case 'integer':
      return { kind: 'number', optional };
    case 'boolean':
      return { kind: 'boolean', optional };
    case 'array': {
      const items = (json.items ?? {}) as Record<string, unknown>;
      const itemOptions = Array.isArray(items.enum) ? (items.enum as string[]) : (constants(items.oneOf) ?? constants(items.anyOf));
      return itemOptions ? { kind: 'array', options: itemOptions, optional } : { kind: 'array', optional };
    }
    default:
      return { kind: 'string', optional };
  }
}

/** Every path a flow can read: the input's arguments, the fields of every form, and anything under a load step's name. */
export function knownPaths(
  input: z.ZodObject,
  forms: ReadonlyMap<string, Readonly<Record<string, z.ZodType>>>,
  loads: readonly string[] = [],
): KnownPaths {
  const paths = new Map<string, KnownPath>();
  for (const [key, schema] of Object.entries(input instanceof z.ZodObject ? input.shape : {}))
    paths.set(`input.${key}`, pathInfo(schema as z.ZodType));
  for (const [form, fields] of forms) {
    // a field that is not a zod schema is reported where the forms are collected
    for (const [field, schema] of Object.entries(fields)) if (schema instanceof z.ZodType) paths.set(`${form}.${field}`, pathInfo(schema));
  }
  // a loaded value is JSON of a shape known only at run time: any path under it, any test
  for (const step of loads) paths.set(`${step}.*`, { kind: 'any', optional: true });
  return paths;
}

/** The known paths a template or condition of a step can have values for: the input's, and those of `steps` (answered or loaded before it). */
export function pathsOfSteps(known: KnownPaths, names: ReadonlySet<string>): KnownPaths {
  return new Map([...known].filter(([path]) => path.startsWith('input.') || names.has(path.slice(0, path.indexOf('.')))));
}
