import { z } from 'zod';
import type { ToolInputSchema } from './wire-shapes.ts';

/** The JSON Schema of an argument or output schema, as lists carry it (without `$schema`). */
export function jsonSchemaOf(schema: z.ZodObject, io: 'input' | 'output'): ToolInputSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as ToolInputSchema;
  return json;
}
