import { z } from 'zod';
import type { ToolInputSchema } from './wire-shapes.ts';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** The JSON Schema of an argument or output schema, as lists carry it (without `$schema`); frozen, since every listing shares it. */
export function jsonSchemaOf(schema: z.ZodObject, io: 'input' | 'output'): ToolInputSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as ToolInputSchema;
  return deepFreeze(json);
}
