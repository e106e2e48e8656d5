// A 2026-07-28 tools/call is answered straight from the engine (src/direct-tool-call.ts) only where the SDK would
// answer it the same: each case is sent twice to one server, once as it is and once with a progressToken in its
// `_meta` (which sends it through the SDK's handler; these tools report no progress, so the SDK answers with one
// JSON body), and the two answers must be the same bytes, head included (but the sealed requestState, which is new
// every round). Through the web-standard handler and over node:http; and a client that hangs up aborts the work.
import { Server } from '@modelcontextprotocol/server';
import {
  createEngine,
  createKeyring,
  createMemoryLedger,
  defineQuestions,
  defineTool,
  type EngineLogEntry,
  generateKey,
} from '@roundtrip/engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, setup } from 'xstate';
import { z } from 'zod';
import { createGatedSteps } from '../../mcp/test/fixtures/booking-definitions.ts';
import { greetingEmailPrompt } from '../../mcp/test/fixtures/greeting-definitions.ts';
import { makeRefundTool } from '../../mcp/test/fixtures/refund-definitions.ts';
import { createHttpHandler } from '../src/index.ts';
import { closeAll, startServer } from './support/http-host.ts';
import { rawRequest } from './support/raw-request.ts';

afterEach(closeAll);

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

/** A finished tool whose result is of another shape than text alone: flagged an error, structured, with an image after the text. */
const noQuestions = defineQuestions<object>()({});
/** How many times each such tool's result was made: once a call. */
const finished = new Map<string, number>();
const resultTool = (name: string, image: boolean) =>
  defineTool({
    name,
    description: 'Answers at once',
    input: z.object({}),
    questions: noQuestions,
    machine: setup({}).createMachine({ id: name, initial: 'done', states: { done: { type: 'final' } } }),
    result: () => {
      finished.set(name, (finished.get(name) ?? 0) + 1);
      return {
        text: 'No such order.',
        isError: true,
        structured: { found: false },
        ...(image && { content: [{ type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' }] }),
      };
    },
  });

type Case = { headers?: Record<string, string>; params?: Record<string, unknown>; body?: Record<string, unknown> };

/** A tools/call as the light client sends it, `params` over the defaults, `body` over the whole message. */
function call(name: string, { headers = {}, params = {}, body = {} }: Case = {}) {
  return {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...headers,
    },
    message: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {}, _meta: META, ...params }, ...body },
  };
}

/** The same message through the SDK's handler: a progressToken added to its `_meta`. */
function throughSdk(message: { params: { _meta: object } }) {
  return { ...message, params: { ...message.params, _meta: { ...message.params._meta, progressToken: 'p' } } };
}

/** An answer with its sealed requestState (new every round) blanked, for comparing. */
const sameBytes = (text: string) => text.replace(/"requestState":"rt1\.[^"]+"/, '"requestState":"…"');

function engineOf(logs: EngineLogEntry[] = []) {
  return createEngine({
    tools: [makeRefundTool([]), resultTool('flagged', false), resultTool('pictured', true)],
    keyring: createKeyring([generateKey()]),
    audience: 'direct',
    ledger: createMemoryLedger(),
    log: (entry) => logs.push(entry),
  });
}

/** The first round's requestState of refund_order on `send`. */
async function askedState(send: (message: object, headers: Record<string, string>) => Promise<string>): Promise<string> {
  const first = call('refund_order', { params: { arguments: { order_id: 'A-1' } } });
  return (JSON.parse(await send(first.message, first.headers)) as { result: { requestState: string } }).result.requestState;
}

/** Every case, as `[title, tool, case]`; `state` is a requestState the server sealed. */
const cases = (state: string): Array<[string, string, Case]> => [
  ['the first round (input_required)', 'refund_order', { params: { arguments: { order_id: 'A-1' } } }],
  [
    'a decline (complete)',
    'refund_order',
    { params: { arguments: { order_id: 'A-1' }, requestState: state, inputResponses: { confirm: { action: 'decline' } } } },
  ],
  [
    'an answer its schema refuses (asked again)',
    'refund_order',
    {
      params: {
        arguments: { order_id: 'A-1' },
        requestState: state,
        inputResponses: { confirm: { action: 'accept', content: { confirm: 'yes' } } },
      },
    },
  ],
  ['a requestState that does not open', 'refund_order', { params: { arguments: { order_id: 'A-1' }, requestState: 'rt1.nope.AAAA' } }],
  ['a requestState for other arguments', 'refund_order', { params: { arguments: { order_id: 'B-2' }, requestState: state } }],
  ['a requestState that is not a string', 'refund_order', { params: { arguments: { order_id: 'A-1' }, requestState: 42 } }],
  ['an unknown tool', 'refund_orders', {}],
  ['a name the SDK reads as a base64 header value', '=?base64?cmVmdW5k?=', {}],
  ['arguments the tool refuses', 'refund_order', { params: { arguments: { order_id: 5 } } }],
  ['arguments that are not an object', 'refund_order', { params: { arguments: 'A-1' } }],
  ['a result flagged an error, structured', 'flagged', {}],
  ['a result with an image', 'pictured', {}],
  [
    'a client that cannot be asked (-32021)',
    'refund_order',
    { params: { arguments: { order_id: 'A-1' }, _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': {} } } },
  ],
  [
    'a name header that disagrees with the body',
    'refund_order',
    { headers: { 'mcp-name': 'other' }, params: { arguments: { order_id: 'A-1' } } },
  ],
  ['no protocol version header', 'refund_order', { headers: { 'mcp-protocol-version': '' }, params: { arguments: { order_id: 'A-1' } } }],
  [
    'an envelope without its protocol version',
    'refund_order',
    { params: { arguments: { order_id: 'A-1' }, _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } } },
  ],
  ['a string id', 'refund_order', { body: { id: 'seven' }, params: { arguments: { order_id: 'A-1' } } }],
  ['an id that is not an integer', 'refund_order', { body: { id: 1.5 }, params: { arguments: { order_id: 'A-1' } } }],
  ['no id (a notification)', 'refund_order', { body: { id: undefined }, params: { arguments: { order_id: 'A-1' } } }],
];

describe('a 2026-07-28 tools/call answered from the engine, as the SDK answers it', () => {
  it('through the web-standard handler: the same status, headers and body in every case', async () => {
    const handler = createHttpHandler({ engine: engineOf(), name: 'direct', version: '1.2.3', principal: 'ada', instance: 'i-1' });
    const send = async (message: object, headers: Record<string, string>) => {
      const headersWithOrigin = { ...headers, host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' };
      const body = JSON.stringify(message);
      const answer = await handler.fetch(new Request('http://127.0.0.1:8787/mcp', { method: 'POST', headers: headersWithOrigin, body }));
      return JSON.stringify({ status: answer.status, headers: [...answer.headers], body: sameBytes(await answer.text()) });
    };
    const state = await askedState(async (message, headers) => JSON.parse(await send(message, headers)).body);
    for (const [title, tool, sent] of cases(state)) {
      const { headers, message } = call(tool, sent);
      expect(await send(message, headers), title).toBe(await send(throughSdk(message), headers));
    }
    await handler.close();
  });

  it('over node:http: the same status, head and body in every case', async () => {
    const server = await startServer({ tools: [makeRefundTool([]), resultTool('flagged', false), resultTool('pictured', true)] });
    const host = `127.0.0.1:${server.url.port}`;
    const send = async (message: object, headers: Record<string, string>) => {
      const answer = await rawRequest(server.url, { headers: { ...headers, host }, body: JSON.stringify(message) });
      const { date: _date, ...head } = answer.headers;
      return JSON.stringify({ status: answer.status, head, body: sameBytes(answer.body) });
    };
    const state = await askedState(async (message, headers) => JSON.parse(await send(message, headers)).body);
    for (const [title, tool, sent] of cases(state)) {
      const { headers, message } = call(tool, sent);
      expect(await send(message, headers), title).toBe(await send(throughSdk(message), headers));
    }
  });
});

describe('a server without tools', () => {
  it('answers a tools/call as the SDK does (method not found)', async () => {
    const engine = createEngine({
      prompts: [greetingEmailPrompt],
      keyring: createKeyring([generateKey()]),
      audience: 'direct',
      ledger: createMemoryLedger(),
    });
    const handler = createHttpHandler({ engine, name: 'direct', version: '1.2.3', principal: 'ada' });
    const send = async (message: object, headers: Record<string, string>) => {
      const request = new Request('http://127.0.0.1:8787/mcp', {
        method: 'POST',
        headers: { ...headers, host: '127.0.0.1:8787' },
        body: JSON.stringify(message),
      });
      const answer = await handler.fetch(request);
      return JSON.stringify({ status: answer.status, headers: [...answer.headers], body: await answer.text() });
    };
    const { headers, message } = call('greet');
    const direct = await send(message, headers);
    expect(direct).toBe(await send(throughSdk(message), headers));
    expect(direct).toContain('-32601');
    await handler.close();
  });
});

describe('the direct way', () => {
  it('serves the plain cases without an SDK server, and the others with one', async () => {
    // each SDK server is connected to a transport for its one exchange: none is for a call answered directly
    const connects = vi.spyOn(Server.prototype, 'connect');
    const handler = createHttpHandler({ engine: engineOf(), name: 'direct', version: '1.2.3', principal: 'ada' });
    const send = async ({ headers, message }: { headers: Record<string, string>; message: object }) => {
      const request = new Request('http://127.0.0.1:8787/mcp', {
        method: 'POST',
        headers: { ...headers, host: '127.0.0.1:8787' },
        body: JSON.stringify(message),
      });
      return (await handler.fetch(request)).text();
    };
    const servers = async (sent: () => Promise<unknown>) => {
      connects.mockClear();
      await sent();
      return connects.mock.calls.length;
    };
    const state = (
      JSON.parse(await send(call('refund_order', { params: { arguments: { order_id: 'A-1' } } }))) as { result: { requestState: string } }
    ).result.requestState;
    const all = cases(state);
    const plain = all.filter(([title]) =>
      /first round|decline|refuses \(asked|does not open|other arguments|unknown tool|tool refuses|flagged|string id/.test(title),
    );
    expect(plain).toHaveLength(9);
    for (const [title, tool, sent] of plain) {
      expect(await servers(() => send(call(tool, sent))), title).toBe(0);
      const { headers, message } = call(tool, sent);
      expect(await servers(() => send({ headers, message: throughSdk(message) })), `${title}, with a progressToken`).toBe(1);
    }
    // an outcome of another shape is encoded by the SDK, from what the engine reached (it does not run again)
    for (const [title, tool, sent] of all.filter(([title]) => /image|-32021/.test(title)))
      expect(await servers(() => send(call(tool, sent))), title).toBe(1);
    finished.clear();
    await send(call('pictured'));
    expect(finished.get('pictured')).toBe(1);
    connects.mockRestore();
    await handler.close();
  });
});

describe('a direct call whose client hangs up', () => {
  it('has its work aborted, as a call through the SDK does', async () => {
    const steps = createGatedSteps();
    let started: () => void = () => {};
    const gathering = new Promise<void>((resolve) => (started = resolve));
    const engine = createEngine({
      tools: [steps.tool],
      keyring: createKeyring([generateKey()]),
      audience: 'direct',
      ledger: createMemoryLedger(),
      inspectActors: (event) => {
        if (event.type === '@xstate.actor' && (event.actorRef as AnyActorRef).id === 'gather') started();
      },
    });
    const handler = createHttpHandler({ engine, name: 'direct', version: '1.2.3', principal: 'ada' });
    const { headers, message } = call('gated_steps');
    const hangUp = new AbortController();
    const request = new Request('http://127.0.0.1:8787/mcp', {
      method: 'POST',
      headers: { ...headers, host: '127.0.0.1:8787' },
      body: JSON.stringify(message),
      signal: hangUp.signal,
    });
    const answer = handler.fetch(request);
    await gathering;
    hangUp.abort();
    expect(await steps.aborted).toBe('gather');
    expect((await answer).status).toBe(499);
    await handler.close();
  });
});
