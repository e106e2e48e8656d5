// The demo's tools as tools/list gives them to a host: one type per schema, at every depth. The MCP
// Inspector's portability check warned six times on `type: [..., "null"]` in refund_order, order_status
// and report_incident; this fails if that form comes back in any input or output schema.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDemoEngines, demoEngine } from './support/demo-engine.ts';
import { connectInMemory, type InMemoryDemo } from './support/in-memory-demo.ts';

/** Where a schema says `type` with a list of types: `#/properties/amount`. */
function typeArraysIn(schema: unknown, path = '#'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && Array.isArray(value)) found.push(`${path} (${JSON.stringify(value)})`);
    // data, not schemas: a default or an enum value may be anything
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    found.push(...typeArraysIn(value, `${path}/${key}`));
  }
  return found;
}

let demo: InMemoryDemo;
let client: Client;
beforeAll(async () => {
  demo = await connectInMemory((await demoEngine()).engine);
  client = demo.client;
});
afterAll(async () => {
  await demo.close();
  closeDemoEngines();
});

describe('the demo tools as listed', () => {
  it('have no type arrays in any input or output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['book_meeting', 'order_status', 'refund_customer', 'refund_order', 'report_incident']);
    const arrays = tools.flatMap((t) => [
      ...typeArraysIn(t.inputSchema).map((where) => `${t.name} inputSchema ${where}`),
      ...typeArraysIn(t.outputSchema).map((where) => `${t.name} outputSchema ${where}`),
    ]);
    expect(arrays).toEqual([]);
  });

  it('say a nullable field as anyOf of its type and null', async () => {
    const { tools } = await client.listTools();
    const outputOf = (name: string) => tools.find((t) => t.name === name)?.outputSchema?.properties as Record<string, unknown>;
    expect(outputOf('order_status').amount).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(outputOf('refund_order').refunded_at).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(outputOf('report_incident').paged).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'null' }] });
  });

  it('bound the order id and the free-text arguments', async () => {
    const { tools } = await client.listTools();
    const inputOf = (name: string) => tools.find((t) => t.name === name)?.inputSchema.properties as Record<string, unknown>;
    expect(inputOf('order_status').order_id).toMatchObject({ type: 'string', minLength: 1, maxLength: 64 });
    expect(inputOf('refund_order').order_id).toMatchObject({ type: 'string', minLength: 1, maxLength: 64 });
    expect(inputOf('book_meeting').topic).toMatchObject({ maxLength: 120 });
    expect(inputOf('report_incident').summary).toMatchObject({ maxLength: 120 });
  });
});
