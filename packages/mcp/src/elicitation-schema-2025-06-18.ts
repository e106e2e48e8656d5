// The form a 2025-06-18 host can show. That revision's `requestedSchema` holds only flat primitive
// properties: a string (title, description, minLength, maxLength, format), a number or integer
// (minimum, maximum), a boolean (with a default), and a string enum whose labels go in `enumNames`.
// There are no titled `oneOf` selects, no multi selects (arrays) and no defaults except on booleans;
// those arrived with 2025-11-25.

/** A property of a form as the engine renders it (the 2026-07-28 shape), read loosely. */
type Property = Readonly<Record<string, unknown>>;

/** A requestedSchema a 2025-06-18 host accepts, or why one cannot be made. */
export type FittedSchema =
  | { ok: true; schema: { type: 'object'; properties: Record<string, Property>; required?: string[] } }
  | { ok: false; field: string; what: string };

const ANNOTATIONS = ['title', 'description'] as const;

/** The keys of `property` that are in `allowed`, in that order; the rest are left out. */
function only(property: Property, allowed: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(allowed.filter((key) => property[key] !== undefined).map((key) => [key, property[key]]));
}

/** One property in the 2025-06-18 shape, or what it is when that revision cannot express it. */
function fitProperty(property: Property): { ok: true; property: Property } | { ok: false; what: string } {
  switch (property.type) {
    case 'boolean':
      return { ok: true, property: only(property, ['type', ...ANNOTATIONS, 'default']) };
    case 'number':
    case 'integer':
      return { ok: true, property: only(property, ['type', ...ANNOTATIONS, 'minimum', 'maximum']) };
    case 'string': {
      if (Array.isArray(property.enum)) return { ok: true, property: only(property, ['type', ...ANNOTATIONS, 'enum']) };
      if (Array.isArray(property.oneOf)) {
        const options = property.oneOf as ReadonlyArray<{ const?: unknown; title?: unknown }>;
        if (!options.every((option) => typeof option.const === 'string')) return { ok: false, what: 'a select with non-string options' };
        return {
          ok: true,
          property: {
            ...only(property, ['type', ...ANNOTATIONS]),
            enum: options.map((option) => option.const as string),
            enumNames: options.map((option) => (typeof option.title === 'string' ? option.title : (option.const as string))),
          },
        };
      }
      return { ok: true, property: only(property, ['type', ...ANNOTATIONS, 'minLength', 'maxLength', 'format']) };
    }
    case 'array':
      return { ok: false, what: 'a multi-select' };
    default:
      return { ok: false, what: `of type ${JSON.stringify(property.type)}` };
  }
}

/**
 * Rewrites a form's requestedSchema for a 2025-06-18 host: a titled single select (`oneOf` of
 * `{ const, title }`) becomes `enum` with `enumNames`, defaults other than a boolean's are left out
 * (the form starts empty instead), and a multi select cannot be expressed at all.
 */
export function fitSchemaFor20250618(schema: unknown): FittedSchema {
  const source = (typeof schema === 'object' && schema !== null ? schema : {}) as {
    properties?: Record<string, Property>;
    required?: unknown;
  };
  const properties: Record<string, Property> = {};
  for (const [field, property] of Object.entries(source.properties ?? {})) {
    const fitted = fitProperty(property);
    if (!fitted.ok) return { ok: false, field, what: fitted.what };
    properties[field] = fitted.property;
  }
  const required = Array.isArray(source.required) ? (source.required as string[]) : [];
  return { ok: true, schema: required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties } };
}
