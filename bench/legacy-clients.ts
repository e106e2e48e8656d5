// The clients of bench/legacy-http.bench.ts: one conversation of the bench's tool (legacy-tool.ts: asks whom to
// greet, answered "Ada", ends "Hello, Ada!") in each era, as raw JSON-RPC over node:http on keep-alive
// connections, so that the client costs little beside the servers and the same HTTP client drives both eras
// (the official v2 client's per-request schema parsing, abort signals and fetch cost about as much as a
// server: light-client.ts). Every answer is checked, so a broken call cannot pass as a fast one.
//   2026-07-28: the call answers input_required with a requestState; the call again with inputResponses
//     answers the result (two POSTs; light-client.ts's `_meta`).
//   2025-11-25: initialize (and notifications/initialized) once, answered with an Mcp-Session-Id; the call's
//     POST is answered with an SSE stream, on which elicitation/create comes; the answer is POSTed (202) to the
//     instance given for it while the stream stays open, and the stream goes on to the result.
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { MODERN_META } from './light-client.ts';

const TOOL = 'name_greeting';
const ARGUMENTS = { greeting: 'Hello' };
const QUESTION = 'Whom should I say "Hello" to?';
const ANSWER = { name: 'Ada' };
const GREETING = 'Hello, Ada!';
const LEGACY_VERSION = '2025-11-25';

type Message = {
  id?: string | number;
  method?: string;
  params?: { message?: string };
  result?: {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, { params?: { message?: string } }>;
    structuredContent?: { text?: string };
    protocolVersion?: string;
  };
  error?: unknown;
};

/** An instance as a client reaches it: its URL, and keep-alive connections of this client to it. */
export interface Target {
  url: URL;
  agent: Agent;
}

/** A target for `url` with a keep-alive agent of its own (two connections: a call's stream, and an answer beside it). */
export const targetOf = (url: URL): Target => ({ url, agent: new Agent({ keepAlive: true, maxSockets: 2 }) });

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
}

/**
 * POSTs `message` to `target`; each JSON-RPC message of the response (a JSON body, or each `data:` of an event
 * stream, as it comes) goes to `onMessage`. `done` resolves when the response has ended; rejects when
 * `onMessage` throws, `cut` is called (the request is then cut) or the connection fails.
 */
function post(
  target: Target,
  headers: Record<string, string>,
  message: unknown,
  onMessage: (message: Message) => void,
): { done: Promise<Reply>; cut(error: Error): void } {
  const body = JSON.stringify(message);
  let cut: (error: Error) => void = () => {};
  const done = new Promise<Reply>((resolve, reject) => {
    const req = request(
      target.url,
      { method: 'POST', agent: target.agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const stream = res.headers['content-type']?.startsWith('text/event-stream') === true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (!stream) return;
          try {
            for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
              const data = /^data: ?(.*)$/m.exec(text.slice(0, end))?.[1];
              text = text.slice(end + 2);
              if (data !== undefined) onMessage(JSON.parse(data) as Message);
            }
          } catch (error) {
            req.destroy(error as Error);
          }
        });
        res.on('end', () => {
          try {
            if (!stream && text !== '') onMessage(JSON.parse(text) as Message);
            resolve({ status: res.statusCode ?? 0, headers: res.headers });
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
    cut = (error) => req.destroy(error);
  });
  return { done, cut };
}

const fail = (what: string, got: unknown): never => {
  throw new Error(`${what}: ${JSON.stringify(got).slice(0, 400)}`);
};

const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': TOOL,
};

let nextId = 0;

/** A 2026-07-28 POST of tools/call with `params` beside the tool's name, arguments and `_meta`; resolves with its one answer. */
async function modernCall(target: Target, params: Record<string, unknown>): Promise<Message> {
  let answer: Message | undefined;
  const message = {
    jsonrpc: '2.0',
    id: ++nextId,
    method: 'tools/call',
    params: { name: TOOL, arguments: ARGUMENTS, _meta: MODERN_META, ...params },
  };
  const reply = await post(target, MODERN_HEADERS, message, (got) => {
    if (got.id === message.id) answer = got;
  }).done;
  if (reply.status !== 200 || answer === undefined) return fail(`a 2026-07-28 tools/call answered HTTP ${reply.status}`, answer);
  return answer;
}

/** One 2026-07-28 conversation on `target`: input_required, then the call with the answer. Resolves with its wall ms. */
export async function modernConversation(target: Target): Promise<number> {
  const start = performance.now();
  const asked = await modernCall(target, {});
  const requestState = asked.result?.requestState;
  if (asked.result?.resultType !== 'input_required' || typeof requestState !== 'string') return fail('expected input_required', asked);
  const [key, request] = Object.entries(asked.result.inputRequests ?? {})[0] ?? [];
  if (key === undefined || request?.params?.message !== QUESTION) return fail('expected the question', asked);
  const done = await modernCall(target, { requestState, inputResponses: { [key]: { action: 'accept', content: ANSWER } } });
  const ms = performance.now() - start;
  if (done.result?.structuredContent?.text !== GREETING) return fail(`expected '${GREETING}'`, done);
  return ms;
}

const legacyHeaders = (session?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(session !== undefined && { 'mcp-protocol-version': LEGACY_VERSION, 'mcp-session-id': session }),
});

/**
 * A 2025-11-25 client's start on `target`, as the official client makes it: initialize (declaring elicitation,
 * without a protocol version header: none is agreed yet), then notifications/initialized. Resolves with the
 * session id the server answered with.
 */
export async function legacyInitialize(target: Target): Promise<string> {
  const params = {
    protocolVersion: LEGACY_VERSION,
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'roundtrip-bench', version: '0' },
  };
  let answer: Message | undefined;
  const reply = await post(target, legacyHeaders(), { jsonrpc: '2.0', id: ++nextId, method: 'initialize', params }, (got) => {
    answer = got;
  }).done;
  const session = reply.headers['mcp-session-id'];
  if (reply.status !== 200 || typeof session !== 'string' || answer?.result?.protocolVersion !== LEGACY_VERSION)
    return fail(`initialize answered HTTP ${reply.status}, session ${String(session)}`, answer);
  const initialized = await post(target, legacyHeaders(session), { jsonrpc: '2.0', method: 'notifications/initialized' }, () => {}).done;
  if (initialized.status !== 202) return fail('notifications/initialized answered', initialized.status);
  return session;
}

/**
 * One 2025-11-25 conversation of a client whose session is `session`: the call on `call`'s SSE stream, the
 * answer to its elicitation/create POSTed to `answerTo` (the same instance, or another that relays it).
 * Resolves with its wall ms: until the stream has ended with the result and the answer's POST is answered.
 */
export async function legacyConversation(call: Target, answerTo: Target, session: string): Promise<number> {
  const start = performance.now();
  const id = ++nextId;
  let answered: Promise<Reply> | undefined;
  let result: Message | undefined;
  const headers = legacyHeaders(session);
  const stream = post(call, headers, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: TOOL, arguments: ARGUMENTS } }, (got) => {
    if (got.method === 'elicitation/create') {
      if (answered !== undefined || got.params?.message !== QUESTION) fail('expected the question once', got);
      answered = post(answerTo, headers, { jsonrpc: '2.0', id: got.id, result: { action: 'accept', content: ANSWER } }, () => {}).done;
      // a refused answer leaves the call waiting for one: its stream is cut then
      void answered.then(
        ({ status }) => status !== 202 && stream.cut(new Error(`the answer was not taken: HTTP ${status}`)),
        (error: Error) => stream.cut(error),
      );
    } else if (got.id === id) result = got;
    else if (got.method === undefined) fail('an answer to another request', got);
  });
  const reply = await stream.done;
  if (answered === undefined) return fail('the call ended without asking', result);
  const answerReply = await answered;
  const ms = performance.now() - start;
  if (reply.status !== 200 || !reply.headers['content-type']?.startsWith('text/event-stream'))
    return fail(`the call answered HTTP ${reply.status}, not an event stream`, reply.headers);
  if (answerReply.status !== 202) return fail('the answer was not taken (202)', answerReply.status);
  // the answer reached the instance it was sent to: the call's own, or another (which relayed it)
  const [holder, taker] = [reply.headers['roundtrip-instance'], answerReply.headers['roundtrip-instance']];
  if (holder === undefined || (holder === taker) !== (call === answerTo))
    return fail('the answer reached the wrong instance', { holder, taker });
  if (result?.result?.structuredContent?.text !== GREETING) return fail(`expected '${GREETING}'`, result);
  return ms;
}

/** A 2025-11-25 client's initialize and one conversation on one instance, as a client that starts afresh for it makes them. */
export async function legacyInitializeAndConversation(target: Target): Promise<number> {
  const start = performance.now();
  const session = await legacyInitialize(target);
  await legacyConversation(target, target, session);
  return performance.now() - start;
}
