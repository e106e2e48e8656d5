// 2025-era clients over HTTP that declared elicitation are asked as over stdio: real `elicitation/create`
// requests on the SSE stream of the call's POST, each answered by a POST of the client's own, and the call
// ends with the result on the same stream. The session id the server answers initialize with carries what the
// client declared, so the call can land on a fresh handler. Real clients over real HTTP: the v1 client
// (`@modelcontextprotocol/sdk`, 2025-11-25) and the v2 client (`@modelcontextprotocol/client`) in each 2025 revision.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { greetingCardResource, greetingEmailPrompt, greetTool } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { makeRefundTool } from '../../mcp/test/fixtures/refund-definitions.ts';
import { closeAll, startServer } from './support/http-host.ts';

afterEach(closeAll);

describe('a 2025-11-25 client over HTTP that declared elicitation', () => {
  it('is asked with elicitation/create on the call’s stream, and gets the result once it answers', async () => {
    const server = await startServer({ tools: [greetTool] });
    const client = new V1Client({ name: 'v1-http-host', version: '0.0.1' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    await client.connect(new V1HttpTransport(server.url));
    const result = await client.callTool({ name: 'greet', arguments: { greeting: 'Hello' } }, CallToolResultSchema);
    expect(asked).toEqual(['Whom should I say "Hello" to?']);
    expect(result).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('Ada') }] });
    await client.close();
  });
});

/** A 2025-era client written by hand over fetch: initialize, then a call whose SSE stream is read event by event. */
function rawLegacyClient(url: URL, protocolVersion: string) {
  const headers = (session?: string) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': protocolVersion,
    ...(session && { 'mcp-session-id': session }),
  });
  return {
    async initialize(capabilities: Record<string, unknown>) {
      const params = { protocolVersion, capabilities, clientInfo: { name: 'raw', version: '1' } };
      const response = await fetch(url, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }),
      });
      await response.text();
      return response.headers.get('mcp-session-id') ?? undefined;
    },
    /** Starts the call; `next()` gives each message of its stream in turn. */
    async call(session: string | undefined, name: string, args: Record<string, unknown>, signal?: AbortSignal) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } });
      const response = await fetch(url, { method: 'POST', headers: headers(session), body, ...(signal && { signal }) });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      return {
        response,
        async next(): Promise<Record<string, unknown>> {
          for (;;) {
            const end = buffer.indexOf('\n\n');
            if (end >= 0) {
              const event = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = /^data: (.*)$/m.exec(event)?.[1];
              if (data) return JSON.parse(data) as Record<string, unknown>;
              continue;
            }
            const { value, done } = await reader.read();
            if (done) throw new Error(`the stream ended; left: ${buffer}`);
            buffer += value;
          }
        },
      };
    },
    answer: (session: string | undefined, message: Record<string, unknown>) =>
      fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify(message) }),
    end: (session: string) => fetch(url, { method: 'DELETE', headers: headers(session) }),
  };
}

describe('the official v2 client in its 2025 era (2025-11-25) over HTTP', () => {
  it('answers the questions through its elicitation handler and gets the result', async () => {
    const server = await startServer({ tools: [greetTool] });
    const client = new Client({ name: 'v2-legacy', version: '0.0.1' }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { name: 'Lin' } };
    });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    const result = await client.callTool({ name: 'greet', arguments: { greeting: 'Hey' } });
    expect(asked).toEqual(['Whom should I say "Hey" to?']);
    expect(result).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('Lin') }] });
    await client.close();
  });
});

describe('the official v2 client on 2025-06-18 over HTTP (its initialize asks for that revision)', () => {
  it('is asked a prompt’s and a resource template’s questions too, with forms of that revision', async () => {
    const server = await startServer({ tools: [greetTool], prompts: [greetingEmailPrompt], resources: [greetingCardResource] });
    // the v2 client offers its latest 2025 revision; asking for 2025-06-18 instead is what an older host does
    const older: typeof fetch = async (input, init) => {
      const body =
        typeof init?.body === 'string' ? init.body.replace('"protocolVersion":"2025-11-25"', '"protocolVersion":"2025-06-18"') : init?.body;
      return fetch(input, { ...init, ...(body !== undefined && { body }) });
    };
    const client = new Client({ name: 'v2-legacy-0618', version: '0.0.1' }, { capabilities: { elicitation: { form: {} } } });
    const modes: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { message: string; mode?: string };
      modes.push(params.mode);
      const content: Record<string, string> = params.message.includes('occasion') ? { occasion: 'birthday' } : { tone: 'warm' };
      return { action: 'accept' as const, content };
    });
    await client.connect(new StreamableHTTPClientTransport(server.url, { fetch: older }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-06-18');
    const prompt = await client.getPrompt({ name: 'greeting_email', arguments: { recipient: 'Ada' } });
    expect(JSON.stringify(prompt.messages)).toContain('warm');
    const card = await client.readResource({ uri: 'greetings://people/Ada' });
    expect(JSON.stringify(card.contents)).toContain('birthday');
    expect(modes).toEqual([undefined, undefined]);
    await client.close();
  });
});

describe('a 2025-06-18 client over HTTP, by hand', () => {
  it('gets a session id at initialize, a form question on the call’s stream under an id of the server’s, 202 for its answer, then the result; DELETE ends the session', async () => {
    const server = await startServer({ tools: [greetTool] });
    const client = rawLegacyClient(server.url, '2025-06-18');
    const session = await client.initialize({ elicitation: {} });
    expect(session).toMatch(/^rt1s\./);
    const call = await client.call(session, 'greet', { greeting: 'Hi' });
    expect(call.response.headers.get('content-type')).toBe('text/event-stream');
    const question = await call.next();
    expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Whom should I say "Hi" to?' } });
    expect((question.params as Record<string, unknown>).mode).toBeUndefined();
    expect(String(question.id)).toMatch(/^[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{12}\.\d+$/);
    const answered = await client.answer(session, {
      jsonrpc: '2.0',
      id: question.id,
      result: { action: 'accept', content: { name: 'Grace' } },
    });
    expect(answered.status).toBe(202);
    expect(await call.next()).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: expect.stringContaining('Grace') }] } });
    expect((await client.end(session!)).status).toBe(200);
  });

  it('cancels the call when the client hangs up; its answer after that is refused and nothing is done with it', async () => {
    const refunds: string[] = [];
    const server = await startServer({ tools: [makeRefundTool(refunds)] });
    const client = rawLegacyClient(server.url, '2025-06-18');
    const session = await client.initialize({ elicitation: {} });
    const hangUp = new AbortController();
    const call = await client.call(session, 'refund_order', { order_id: 'A-1' }, hangUp.signal);
    const question = await call.next();
    expect(question).toMatchObject({ method: 'elicitation/create' });
    hangUp.abort();
    while (!server.logs.some((entry) => entry.event === 'legacy_call_cancelled')) await new Promise((resolve) => setImmediate(resolve));
    const late = await client.answer(session, {
      jsonrpc: '2.0',
      id: question.id,
      result: { action: 'accept', content: { confirm: true } },
    });
    expect(late.status).toBe(404);
    expect(await late.json()).toMatchObject({ error: { message: expect.stringContaining('No call is waiting for the answer to') } });
    expect(refunds).toEqual([]);
  });

  it('refuses an answer under an id the server never sent', async () => {
    const server = await startServer({ tools: [greetTool] });
    const client = rawLegacyClient(server.url, '2025-06-18');
    const session = await client.initialize({ elicitation: {} });
    const answered = await client.answer(session, { jsonrpc: '2.0', id: 3, result: { action: 'accept', content: {} } });
    expect(answered.status).toBe(400);
    expect(await answered.json()).toMatchObject({
      error: { message: 'This server sent no request with id 3: an answer goes under the id of the request it answers.' },
    });
  });

  it('has its question withdrawn when it does not answer in time (ROUNDTRIP_ANSWER_TIMEOUT_MS), and its late answer is refused', async () => {
    const server = await startServer({ tools: [greetTool] }, { ROUNDTRIP_ANSWER_TIMEOUT_MS: '50' });
    const client = rawLegacyClient(server.url, '2025-06-18');
    const session = await client.initialize({ elicitation: {} });
    const call = await client.call(session, 'greet', { greeting: 'Hello' });
    const question = await call.next();
    expect(question).toMatchObject({ method: 'elicitation/create' });
    let ended = await call.next();
    while (ended.id !== 7) ended = await call.next();
    expect(ended).toMatchObject({
      result: {
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('The question was not answered within 50 ms, so this request ended.') }],
      },
    });
    const late = await client.answer(session, { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { name: 'Ada' } } });
    expect(late.status).toBe(404);
  });
});
