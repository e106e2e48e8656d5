// Listed input and output schemas say one type per schema: zod 4 writes a nullable field as
// `type: ["string", "null"]`, which the MCP Inspector's portability check warns about (and some clients
// reject); the engine lists `anyOf` instead, at every depth, for every definition.
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { defineTool } from '../src/index.ts';
import { complete, makeEngine } from './support.ts';

const output = z.object({
  status: z.enum(['found', 'missing']).nullable(),
  amount: z.string().nullable(),
  paid: z.boolean().nullable().optional(),
  either: z.union([z.string(), z.number()]).describe('text or a number'),
  lines: z.array(z.object({ note: z.string().nullable() })),
  byId: z.record(z.string(), z.int().nullable()),
});
type Output = z.output<typeof output>;

const FOUND: Output = { status: null, amount: null, paid: null, either: 3, lines: [{ note: null }], byId: { a: null } };

const tool = defineTool({
  name: 'nullable_things',
  description: 'Answers with nullable fields',
  input: z.object({ id: z.string().nullable(), tags: z.array(z.string().nullable()).optional() }),
  machine: setup({ types: { output: {} as Output } }).createMachine({
    id: 'nullable_things',
    initial: 'done',
    states: { done: { type: 'final' } },
    output: () => FOUND,
  }),
  output,
  result: (found) => ({ text: 'found', structured: found }),
  annotations: { readOnlyHint: true },
});

/** Every `type` keyword of a JSON Schema, with where it is. */
function typesIn(schema: unknown, path = '#'): Array<{ path: string; type: unknown }> {
  if (typeof schema !== 'object' || schema === null) return [];
  const found: Array<{ path: string; type: unknown }> = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && (typeof value === 'string' || Array.isArray(value))) found.push({ path, type: value });
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    found.push(...typesIn(value, `${path}/${key}`));
  }
  return found;
}

describe('portable schemas', () => {
  const [listed] = makeEngine([tool]).engine.listTools();

  it('lists no type arrays in the input or output schema, at any depth', () => {
    const arrays = [...typesIn(listed!.inputSchema), ...typesIn(listed!.outputSchema)].filter((t) => Array.isArray(t.type));
    expect(arrays).toEqual([]);
  });

  it('lists a nullable field as anyOf of its type and null, keeping what describes it', () => {
    const properties = listed!.outputSchema!.properties as Record<string, unknown>;
    expect(properties.amount).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(properties.paid).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'null' }] });
    expect(properties.either).toEqual({ description: 'text or a number', anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(properties.lines).toMatchObject({
      items: { properties: { note: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
    });
    expect((listed!.inputSchema.properties as Record<string, unknown>).id).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('still answers with the nulls the output schema allows', async () => {
    const outcome = await makeEngine([tool]).call({ name: 'nullable_things', arguments: { id: null } });
    expect(complete(outcome).result.structuredContent).toEqual(FOUND);
  });
});
