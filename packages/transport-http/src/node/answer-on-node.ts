// A request read off node:http answered through the pipeline, and its answer written back: what the SDK's
// `toNodeHandler` does, without the copies it makes. The body is read already (the listener counts it
// against the limit as it comes), so it goes in as bytes, for the pipeline to parse (the SDK is handed
// the JSON: it neither clones the request nor reads the body again). A plain 2026-07-28 tools/call is
// answered without a web `Request` or `Response` at all (the pipeline's `serve`, direct-tool-call.ts), and
// every JSON answer is written at once with its length; only an SSE stream is written chunk by chunk. The request's AbortSignal, which aborts
// its work when the client hangs up, is handed to the SDK as the web `Request`'s `signal` without undici
// following it: undici ties a signal given to `new Request` to its own through a WeakRef and a
// FinalizationRegistry, which V8's scavenges keep alive with all they reach until a full collection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { HttpPipeline } from '../http-pipeline.ts';
import type { RequestHead } from '../request-head.ts';

/** A web `Request` whose `signal` is `signal` itself, not one undici made to follow it. */
function requestWithSignal(url: string, init: RequestInit, signal: AbortSignal): Request {
  const request = new Request(url, init);
  // an own property over the prototype's getter, read by the SDK as any `request.signal`
  Object.defineProperty(request, 'signal', { value: signal });
  return request;
}

/**
 * The message's headers as web `Headers`, as node:http parsed them (a header it keeps once, such as
 * Content-Type or Host, is the first one sent; `set-cookie` once per value; HTTP/2 pseudo-headers left out).
 */
function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  const parsed = request.headers;
  for (const name in parsed) {
    const value = parsed[name];
    if (value === undefined || name.startsWith(':')) continue;
    if (typeof value === 'string') headers.set(name, value);
    else for (const item of value) headers.append(name, item);
  }
  return headers;
}

/** Writes `answer` on `response`, a stream chunk by chunk as the client takes it, until it ends or the client leaves. */
async function writeAnswer(answer: Response, response: ServerResponse, gone: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (answer.body === null) {
    response.writeHead(answer.status, headers).end();
    return;
  }
  // a JSON answer is whole once made: written at once with its length, as a direct answer is
  if (!answer.headers.get('content-type')?.startsWith('text/event-stream')) {
    const bytes = Buffer.from(await answer.arrayBuffer());
    headers['content-length'] = String(bytes.byteLength);
    response.writeHead(answer.status, headers).end(bytes);
    return;
  }
  response.writeHead(answer.status, headers);
  let wake: (() => void) | undefined;
  const resume = () => {
    wake?.();
    wake = undefined;
  };
  response.on('drain', resume);
  gone.addEventListener('abort', resume, { once: true });
  try {
    for await (const chunk of answer.body) {
      if (gone.aborted) break;
      // a full socket waits for 'drain' or the client leaving; one that left already waits for nothing
      if (!response.write(chunk) && !gone.aborted) await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch {
    // the answer's stream failed, or was cancelled as the client left: end what was sent
  } finally {
    response.off('drain', resume);
    gone.removeEventListener('abort', resume);
    response.end();
  }
}

/**
 * Answers `request`, its body the bytes read (`body`, `undefined` when there were none), through `pipeline`
 * with what `admit` let in (`authInfo`), and writes the answer on `response`; the request's work is aborted
 * when the client hangs up before the answer is written. A web `Request` that cannot be made of the message
 * throws, for the listener to answer 500 (the Host and the target were checked plain already).
 */
export async function answerOnNode(
  pipeline: HttpPipeline,
  head: RequestHead,
  request: IncomingMessage,
  response: ServerResponse,
  body: Buffer | undefined,
  authInfo: AuthInfo | undefined,
): Promise<void> {
  const gone = new AbortController();
  let written = false;
  response.once('close', () => {
    if (!written) gone.abort();
  });
  // a client that left while its body was read closed the response already: its work is not started for no one
  if (response.destroyed) gone.abort();
  const web = () => {
    const method = request.method ?? 'GET';
    const init: RequestInit = { method, headers: headersOf(request) };
    if (method !== 'GET' && method !== 'HEAD' && body !== undefined) init.body = body;
    return requestWithSignal(`http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`, init, gone.signal);
  };
  const answer = await pipeline.serve(head, authInfo, body, gone.signal, web);
  try {
    if (answer instanceof Response) await writeAnswer(answer, response, gone.signal);
    else
      response.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) }).end(answer.body);
  } finally {
    written = true;
  }
}
