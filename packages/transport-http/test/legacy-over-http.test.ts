// 2025-era clients over stateless HTTP. The SDK serves each of their requests on a fresh instance that
// cannot send elicitation/create (there is no connection to send it on), so: a question that declares
// a model fallback is put to the model through the tool result, and any other question ends the call
// with a tool error naming the client's revision and what to use instead. Lists and questionless
// calls work as for any client. The real v1 client (`@modelcontextprotocol/sdk`, 2025-11-25) over real HTTP.
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { orderPizza } from './fixtures/pizza-fallback-tool.ts';
import { closeAll, connectLegacy, startServer } from './support/http-host.ts';

afterEach(closeAll);

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };

describe('a 2025-11-25 client over stateless HTTP', () => {
  it('lists the tools, and gets a tool error naming its revision when a question has no fallback', async () => {
    const server = await startServer({ tools: [greetTool, orderPizza] });
    const client = await connectLegacy(server.url);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet', 'order_pizza']);
    const result = (await client.callTool({ name: 'greet', arguments: { greeting: 'Hello' } }, CallToolResultSchema)) as Result;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      "The tool 'greet' needs to ask the user (elicitation/create), but this client speaks MCP 2025-11-25 over stateless HTTP, " +
        'where the server cannot send it requests of its own: every request is answered by whichever instance receives it, with no ' +
        'connection to ask the user on. Use a client that speaks MCP 2026-07-28 (it answers the questions in its next request), or ' +
        'connect to this server over stdio.',
    );
    expect(server.logs).toContainEqual(
      expect.objectContaining({ target: 'tool greet', message: expect.stringContaining("cannot ask 'who'") }),
    );
  });

  it('puts a question with a model fallback to the model, and completes when it calls again with the answer', async () => {
    const server = await startServer({ tools: [orderPizza] });
    const client = await connectLegacy(server.url);
    const first = (await client.callTool({ name: 'order_pizza', arguments: {} }, CallToolResultSchema)) as Result;
    expect(first.isError).toBeFalsy();
    const text = first.content.map((block) => block.text).join('\n');
    expect(text).toMatch(/^Question 'size': Which size\?$/m);
    const continuation = /^- "continuation": "([^"]+)"$/m.exec(text)?.[1];
    expect(continuation).toMatch(/^rt1\./);
    const done = (await client.callTool(
      { name: 'order_pizza', arguments: { answers: { size: { size: 'large' } }, continuation } },
      CallToolResultSchema,
    )) as Result;
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'Ordered a large pizza.' }] });
  });
});
