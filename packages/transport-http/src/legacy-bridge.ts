// A 2025-era call over HTTP that may ask the user: served as over stdio, by a server of its own connected in
// memory to a stand-in for the client, which replays what the client declared at initialize (its session,
// legacy-session.ts) and then the call. What the server sends goes out on the SSE stream of the call's POST:
// progress, the result, and its requests (`elicitation/create`, sampling, roots) under ids that start with this
// process's relay key. The client POSTs each answer as a request of its own, to any instance: the relay hands
// it to the process holding the call (answer-relay.ts), and the server goes on with the next question or the
// result. A client that hangs up cancels the call.
import { type AuthInfo, InMemoryTransport, type JSONRPCMessage, type McpRequestContext, type Server } from '@modelcontextprotocol/server';
import type { AnswerRelay, EngineLogEntry, RelayedAnswer } from '@roundtrip/engine';
import { encodeBase64url } from './base64url.ts';
import type { LegacySession } from './legacy-session.ts';

export interface LegacyBridgeOptions {
  /** Builds the server of one call (the engine's, serving the 2025 era with real questions). */
  factory: (context: McpRequestContext) => Server;
  relay: AnswerRelay;
  /** How often an SSE comment keeps an idle stream open through proxies. */
  keepAliveMs: number;
  log: (entry: EngineLogEntry) => void;
}

/** A request that may ask, as the client sent it. */
export interface LegacyCall {
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
}

export interface LegacyBridge {
  /** Serves the call on an SSE stream, asking the client on it as the server needs. */
  serve(request: Request, call: LegacyCall, session: LegacySession, authInfo: AuthInfo | undefined): Promise<Response>;
  /** Hands the client's answers to the calls waiting for them (here or on another instance): 202, or why not. */
  deliver(answers: readonly RelayedAnswer[]): Promise<Response>;
  /** Ends every call still served here (their clients get no more). */
  close(): Promise<void>;
}

/** The methods whose calls may ask the user. */
export const ASKING_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

const INITIALIZE_ID = 'roundtrip-initialize';
const encoder = new TextEncoder();
const sseEvent = (message: unknown) => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
const keepAliveComment = encoder.encode(': keep-alive\n\n');

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export function createLegacyBridge({ factory, relay, keepAliveMs, log }: LegacyBridgeOptions): LegacyBridge {
  const open = new Set<() => void>();

  async function serve(request: Request, call: LegacyCall, session: LegacySession, authInfo: AuthInfo | undefined) {
    const context: McpRequestContext = { era: 'legacy', requestInfo: request, ...(authInfo !== undefined && { authInfo }) };
    const server = factory(context);
    const [client, served] = InMemoryTransport.createLinkedPair();
    await server.connect(served);
    const nonce = encodeBase64url(crypto.getRandomValues(new Uint8Array(9)));
    const held = new Set<string>();
    const toServer = (message: JSONRPCMessage) =>
      void client.send(message, authInfo === undefined ? undefined : { authInfo }).catch(() => finish());
    let stream!: ReadableStreamDefaultController<Uint8Array>;
    let finished = false;
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      open.delete(hangUp);
      clearInterval(keepAlive);
      request.signal?.removeEventListener('abort', hangUp);
      for (const id of held) relay.release(id);
      try {
        stream.close();
      } catch {}
      void client.close().catch(() => {});
      void server.close().catch(() => {});
    };
    const write = (message: unknown) => {
      if (!finished) stream.enqueue(sseEvent(message));
    };
    // the client hung up (or the server stops): the call is cancelled, as a cancelled stdio request is
    const hangUp = () => {
      if (finished) return;
      const message = `a 2025-era ${call.method} (request ${JSON.stringify(call.id)}) was cancelled: its client closed the connection`;
      log({ level: 'info', event: 'legacy_call_cancelled', message });
      toServer({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: call.id, reason: 'The client closed the connection.' },
      });
      finish();
    };

    client.onmessage = (message) => {
      const fields = message as { id?: string | number; method?: string };
      if (fields.method === undefined) {
        if (fields.id === INITIALIZE_ID) {
          toServer({ jsonrpc: '2.0', method: 'notifications/initialized' });
          toServer({ jsonrpc: '2.0', ...call } as JSONRPCMessage);
        } else if (fields.id === call.id) {
          write(message);
          finish();
        }
        return;
      }
      if (fields.id === undefined) return write(message);
      // a request of the server's: out under an id naming this process, its answer back under the server's own
      const wireId = `${relay.key}.${nonce}.${String(fields.id)}`;
      held.add(wireId);
      relay.hold(wireId, (answer) => {
        held.delete(wireId);
        toServer({ ...answer, jsonrpc: '2.0', id: fields.id } as JSONRPCMessage);
      });
      write({ ...message, id: wireId });
    };
    client.onclose = () => finish();

    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        stream = controller;
      },
      cancel: () => hangUp(),
    });
    open.add(hangUp);
    request.signal?.addEventListener('abort', hangUp, { once: true });
    if (keepAliveMs > 0) {
      keepAlive = setInterval(() => {
        if (!finished) stream.enqueue(keepAliveComment);
      }, keepAliveMs);
      keepAlive.unref?.();
    }
    await client.start();
    toServer({
      jsonrpc: '2.0',
      id: INITIALIZE_ID,
      method: 'initialize',
      params: { protocolVersion: session.protocolVersion, capabilities: session.capabilities, clientInfo: session.clientInfo },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
  }

  async function deliver(answers: readonly RelayedAnswer[]): Promise<Response> {
    const gone: string[] = [];
    for (const answer of answers) {
      const id = answer.id;
      if (typeof id !== 'string' || !id.includes('.')) {
        const message = `This server sent no request with id ${JSON.stringify(id)}: an answer goes under the id of the request it answers.`;
        return jsonResponse(400, { jsonrpc: '2.0', id: null, error: { code: -32600, message } });
      }
      let outcome: 'delivered' | 'gone';
      try {
        outcome = await relay.deliver(id, answer);
      } catch (error) {
        log({ level: 'warn', event: 'answer_not_relayed', message: `the answer to ${id} was not relayed: ${(error as Error).message}` });
        const message = `Your answer could not be passed on to the call that asked for it: ${(error as Error).message}`;
        return jsonResponse(503, { jsonrpc: '2.0', id: null, error: { code: -32603, message } });
      }
      if (outcome === 'gone') gone.push(id);
    }
    if (gone.length === 0) return new Response(null, { status: 202 });
    log({ level: 'info', event: 'answer_unclaimed', message: `no call waits for the answer to ${gone.join(', ')}` });
    const message =
      `No call is waiting for the answer to ${gone.join(', ')}: it ended (answered, cancelled or out of time) or the server holding it stopped. ` +
      'Nothing was done with the answer; call the tool again.';
    return jsonResponse(404, { jsonrpc: '2.0', id: null, error: { code: -32600, message } });
  }

  return {
    serve,
    deliver,
    async close() {
      for (const hangUp of [...open]) hangUp();
    },
  };
}
