import { z } from 'zod';
import { definitionError } from './definition-error.ts';
import type { ElicitationProperty, ElicitationSchema } from './wire-shapes.ts';

/** A zod object schema whose fields an elicitation form can express. */
export type AnswerSchema = z.ZodObject;

const STRING_FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
const ANNOTATIONS = ['title', 'description'] as const;

type JsonSchemaNode = Record<string, unknown>;

/**
 * Turns a zod object schema into the restricted `requestedSchema` of a form elicitation (a flat object
 * of strings, numbers, booleans and string enums). Refuses, naming the field and the fix, any schema
 * a form cannot express. `where` names the ask in the message ("tool 'x', state 'y', ask 'z'").
 *
 * A `pattern` is left out of the form (forms have no regex) and enforced when the answer is checked.
 */
export function toElicitationSchema(schema: AnswerSchema, where: string): ElicitationSchema {
  if (!(schema instanceof z.ZodObject)) {
    throw definitionError(
      where,
      'unexpressible_schema',
      'the answer schema is not a zod object.',
      'Use z.object({ … }) of strings, numbers, booleans and enums.',
    );
  }
  let json: JsonSchemaNode;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw' }) as JsonSchemaNode;
  } catch (error) {
    throw definitionError(
      where,
      'unexpressible_schema',
      `the answer schema cannot be written as JSON Schema (${(error as Error).message}).`,
      'Use strings, numbers, booleans and enums only.',
    );
  }
  const properties: Record<string, ElicitationProperty> = {};
  for (const [field, node] of Object.entries((json.properties ?? {}) as Record<string, JsonSchemaNode>)) {
    properties[field] = toProperty(field, node, where);
  }
  const required = Array.isArray(json.required) ? (json.required as string[]) : [];
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

function toProperty(field: string, node: JsonSchemaNode, where: string): ElicitationProperty {
  const refuse = (what: string): never => {
    throw definitionError(
      where,
      'unexpressible_schema',
      `field '${field}' is ${what}, which an elicitation form cannot express.`,
      'Forms hold flat strings, numbers, integers, booleans, string enums and arrays of string enums; split the question or ask for a string and parse it.',
    );
  };
  const annotations: Record<string, unknown> = {};
  for (const key of ANNOTATIONS) if (typeof node[key] === 'string') annotations[key] = node[key];
  const allowOnly = (allowed: readonly string[]) => {
    for (const key of Object.keys(node)) {
      if (!allowed.includes(key) && !ANNOTATIONS.includes(key as (typeof ANNOTATIONS)[number]) && key !== 'pattern') {
        refuse(`constrained with '${key}'`);
      }
    }
  };
  const pick = (keys: readonly string[]) => Object.fromEntries(keys.filter((k) => node[k] !== undefined).map((k) => [k, node[k]]));
  const type = node.type;
  if (Array.isArray(type)) return refuse(`a union of ${type.join(' and ')}`);
  switch (type) {
    case 'boolean':
      allowOnly(['type', 'default']);
      return { type: 'boolean', ...annotations, ...pick(['default']) } as ElicitationProperty;
    case 'number':
    case 'integer':
      allowOnly(['type', 'minimum', 'maximum', 'default']);
      return { type, ...annotations, ...pick(['minimum', 'maximum', 'default']) } as ElicitationProperty;
    case 'string':
      if (Array.isArray(node.enum)) {
        allowOnly(['type', 'enum', 'default']);
        return { type: 'string', ...annotations, enum: node.enum as string[], ...pick(['default']) } as ElicitationProperty;
      }
      allowOnly(['type', 'minLength', 'maxLength', 'format', 'default']);
      if (node.format !== undefined && !STRING_FORMATS.has(String(node.format))) refuse(`a string of format '${String(node.format)}'`);
      return { type: 'string', ...annotations, ...pick(['minLength', 'maxLength', 'format', 'default']) } as ElicitationProperty;
    case 'array': {
      const items = node.items as JsonSchemaNode | undefined;
      if (items?.type !== 'string' || !Array.isArray(items.enum)) return refuse('an array of something other than string enum values');
      allowOnly(['type', 'items', 'minItems', 'maxItems', 'default']);
      return {
        type: 'array',
        ...annotations,
        items: { type: 'string', enum: items.enum as string[] },
        ...pick(['minItems', 'maxItems', 'default']),
      } as ElicitationProperty;
    }
    case 'object':
      return refuse('a nested object');
    case undefined:
      if (Array.isArray(node.enum)) return refuse('an enum of non-string values');
      return refuse('of no single primitive type (a union, literal or unknown)');
    default:
      return refuse(`of type '${String(type)}'`);
  }
}
