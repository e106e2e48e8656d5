// 2025-era clients over HTTP that cannot be asked (legacy-asked-over-http.test.ts has those that can): a client
// that declared no elicitation gets a question that declares a model fallback put to the model through the
// tool result, and any other question ends the call with a tool error naming the capability it lacks; a request
// without the session id its initialize was answered with gets an error saying so. Lists and questionless calls
// work as for any client. The real v1 client (`@modelcontextprotocol/sdk`, 2025-11-25) over real HTTP.
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { orderPizza } from './fixtures/pizza-fallback-tool.ts';
import { closeAll, connectLegacy, startServer } from './support/http-host.ts';
import { rawRequest } from './support/raw-request.ts';

afterEach(closeAll);

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };

describe('a 2025-11-25 client over HTTP that cannot be asked', () => {
  it('lists the tools, and gets a tool error naming the capability it did not declare when a question has no fallback', async () => {
    const server = await startServer({ tools: [greetTool, orderPizza] });
    const client = await connectLegacy(server.url);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet', 'order_pizza']);
    const result = (await client.callTool({ name: 'greet', arguments: { greeting: 'Hello' } }, CallToolResultSchema)) as Result;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/elicitation/);
    expect(result.content[0]?.text).not.toMatch(/stateless HTTP/);
  });

  it('is told to send back its session id when a request carries none', async () => {
    const server = await startServer({ tools: [greetTool] });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: { greeting: 'Hi' } } });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    const answer = await rawRequest(server.url, { headers, body });
    const text = /"text":"((?:[^"\\]|\\.)*)"/.exec(answer.body)?.[1] ?? answer.body;
    expect(text).toContain(
      "The tool 'greet' needs to ask the user (elicitation/create), but this request from a client speaking MCP 2025-11-25 carries no Mcp-Session-Id of this server",
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
