import { z } from 'zod';
import type { ToolInputSchema } from './wire-shapes.ts';

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

// The keywords whose values are schemas (or lists or maps of schemas); `enum`, `const`, `default` and
// `examples` hold data and are never rewritten.
const SCHEMAS = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
] as const;
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

/**
 * Rewrites `type: ["string", "null"]` (zod 4 writes nullable and simple unions so) as
 * `anyOf: [{ type: "string" }, { type: "null" }]`, in place, at every depth. Both say the same in
 * JSON Schema, but clients and the MCP Inspector's portability check expect one type per schema.
 */
function portableTypes(node: Node): void {
  for (const key of SCHEMAS) {
    const value = node[key];
    if (isNode(value)) portableTypes(value);
    else if (Array.isArray(value)) for (const item of value) if (isNode(item)) portableTypes(item);
  }
  for (const key of LISTS) {
    const value = node[key];
    if (Array.isArray(value)) for (const item of value) if (isNode(item)) portableTypes(item);
  }
  for (const key of MAPS) {
    const value = node[key];
    if (isNode(value)) for (const item of Object.values(value)) if (isNode(item)) portableTypes(item);
  }
  const { type } = node;
  if (!Array.isArray(type)) return;
  delete node.type;
  if (type.length === 1) {
    node.type = type[0];
    return;
  }
  const choices = type.map((t) => ({ type: t }));
  // a node that already says anyOf keeps it: both must hold
  if (node.anyOf === undefined) node.anyOf = choices;
  else node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), { anyOf: choices }];
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/**
 * The JSON Schema of an argument or output schema, as lists carry it: without `$schema`, one type per
 * schema (nullable fields as `anyOf`), frozen, since every listing shares it.
 */
export function jsonSchemaOf(schema: z.ZodObject, io: 'input' | 'output'): ToolInputSchema {
  // a copy: the rewrite must not reach anything zod keeps (metadata objects)
  const { $schema: _dialect, ...json } = structuredClone(z.toJSONSchema(schema, { io, unrepresentable: 'any' })) as ToolInputSchema;
  portableTypes(json);
  return deepFreeze(json);
}

/** The string values of each property that is an enum of strings (`z.enum([…])`), by property name. */
export function enumValues(schema: object): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const properties = ((schema as { properties?: unknown }).properties ?? {}) as Record<string, { enum?: unknown }>;
  for (const [name, property] of Object.entries(properties)) {
    const values = property?.enum;
    if (Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'string')) out[name] = values;
  }
  return out;
}
