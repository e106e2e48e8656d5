import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RoundtripConfigError } from '@roundtrip/mcp';
import type { HttpPipeline } from '../http-pipeline.ts';
import { jsonRpcErrorResponse } from '../http-responses.ts';
import { hostForUrl } from '../loopback-host.ts';
import { memoLast } from '../memo-last.ts';
import type { RequestHead } from '../request-head.ts';
import { answerOnNode } from './answer-on-node.ts';
import { headFlawOf } from './head-flaw.ts';
import type { ListenAddress } from './listen-address.ts';
import { readLimitedBody } from './read-limited-body.ts';

/** A request being answered: what it is (described only when asked), for the log of a shutdown that had to cut it. */
interface InFlight {
  request: IncomingMessage;
  response: ServerResponse;
  /** A `subscriptions/listen` stream: open until the client leaves, so a shutdown ends it rather than waits. */
  listening: boolean;
}

/** What a shutdown did: the requests it cut after the drain time (empty when all finished). */
export interface ShutdownReport {
  cut: string[];
  /** How many requests were in flight when it began. */
  waitedFor: number;
}

export interface NodeHttpListener {
  /** The address bound (the port chosen when 0 was asked for). */
  address: ListenAddress;
  /** How many requests are being answered now. */
  inFlight(): number;
  /** What the requests in flight are, e.g. `tools/call refund_order`. */
  describeInFlight(): string[];
  /** Stops accepting: the listening socket closes, a request on a kept-alive connection gets 503. */
  stopAccepting(): void;
  /**
   * Stops accepting, ends `subscriptions/listen` streams, waits up to `drainTimeoutMs` for the other
   * requests in flight, then closes every connection.
   */
  shutdown(drainTimeoutMs: number): Promise<ShutdownReport>;
}

function listenError(error: NodeJS.ErrnoException, where: string): RoundtripConfigError {
  const why =
    error.code === 'EADDRINUSE'
      ? 'the port is in use; stop what uses it, or give another port'
      : error.code === 'EACCES'
        ? 'permission denied (ports below 1024 need privileges); give a port from 1024 up'
        : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
          ? 'this machine has no such address; give one of its own, 127.0.0.1 or 0.0.0.0'
          : error.message;
  return new RoundtripConfigError('--http', `cannot listen on ${where}: ${why} (${error.code ?? 'error'})`, {
    code: 'unavailable',
    cause: error,
  });
}

/** The absolute URL of a request target, as a web `Request`'s `url` gives it (one that is not a path is refused: head-flaw.ts). */
const hrefOf = memoLast((target: string) => new URL(target, 'http://localhost').href);

/**
 * The request's method, URL and headers, without its body: what `screen` and `admit` look at, read off
 * the message (no web `Request` built: undici's cost more than the checks). A header node:http joined
 * from several lines reads as `Headers.get` gives it, the values joined by `, `.
 */
function headOf(request: IncomingMessage): RequestHead {
  const { headers } = request;
  return {
    method: request.method ?? 'GET',
    url: hrefOf(request.url ?? '/'),
    headers: {
      get: (name) => {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
  };
}

/** The web `Request` of the message's head (no body), for an authenticator: built only when there is one. */
function webRequestOf(request: IncomingMessage, head: RequestHead): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new Request(head.url, { method: head.method, headers });
}

/**
 * Writes a response given before the body was read (or all of it): when the body has not all arrived,
 * the connection is closed after the response rather than kept to drain it.
 */
async function writeResponse(request: IncomingMessage, target: ServerResponse, response: Response): Promise<void> {
  const headers = Object.fromEntries(response.headers);
  if (!request.complete) headers.connection = 'close';
  target.writeHead(response.status, headers);
  target.end(Buffer.from(await response.arrayBuffer()));
}

function describe(request: IncomingMessage): string {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value.slice(0, 100) : undefined;
  };
  return [header('mcp-method') ?? `${request.method} ${(request.url ?? '/').slice(0, 100)}`, header('mcp-name')].filter(Boolean).join(' ');
}

/**
 * Serves `pipeline` on node:http at `address`. Nothing of a body is read before the request is known
 * to be wanted: each request is screened on its method, path and headers first (Host, Origin, shutting
 * down, a declared size over the limit, the metadata document, the path, the bearer token); only then
 * is its body read, counted against the limit as it arrives (413 and the connection closed once it
 * grows over), and the request answered (`answerOnNode`: SSE streamed with backpressure, the request's
 * work aborted when the client hangs up). `makePipeline` is called once
 * the port is known, before any request is read.
 */
export async function listenNodeHttp(
  address: ListenAddress,
  maxRequestBytes: number,
  makePipeline: (bound: ListenAddress) => HttpPipeline,
  onError: (error: Error) => void,
): Promise<{ listener: NodeHttpListener; pipeline: HttpPipeline }> {
  const inFlight = new Set<InFlight>();
  let pipeline: HttpPipeline | undefined;
  let stopping = false;
  let drained: () => void = () => {};

  const handle = async (request: IncomingMessage, response: ServerResponse, screened: HttpPipeline): Promise<void> => {
    const head = headOf(request);
    // a method a web Request cannot carry (TRACE, TRACK) is refused by admit with every other method but POST
    const refusal = screened.screen(head, headFlawOf(request));
    if (refusal !== undefined) return writeResponse(request, response, refusal);
    const admission = await screened.admit(head, () => webRequestOf(request, head));
    if (admission.refusal !== undefined) return writeResponse(request, response, admission.refusal);
    const body = await readLimitedBody(request, maxRequestBytes);
    if (!body.ok) {
      if (body.reason === 'too_large') await writeResponse(request, response, screened.bodyTooLarge(head));
      return;
    }
    const { chunks } = body;
    await answerOnNode(screened, head, request, response, chunks.length <= 1 ? chunks[0] : Buffer.concat(chunks), admission.authInfo);
  };

  const server: Server = createServer((request, response) => {
    const entry: InFlight = { request, response, listening: request.headers['mcp-method'] === 'subscriptions/listen' };
    inFlight.add(entry);
    response.once('close', () => {
      inFlight.delete(entry);
      if (stopping && inFlight.size === 0) drained();
    });
    handle(request, response, pipeline!).catch((error: unknown) => {
      onError(error instanceof Error ? error : new Error(String(error)));
      if (response.headersSent) return response.destroy();
      const failed = jsonRpcErrorResponse(500, -32603, 'Internal server error');
      let stamped = failed;
      try {
        stamped = pipeline!.stampOutside(failed, headOf(request));
      } catch {
        // the request's headers were what failed: the 500 goes out as it is
      }
      writeResponse(request, response, stamped).catch(onError);
    });
  });

  const where = `${hostForUrl(address.host)}:${address.port}`;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error as NodeJS.ErrnoException, where)));
    server.listen(address.port, address.host, () => resolve());
  });
  server.on('error', onError);
  const bound: ListenAddress = { host: address.host, port: (server.address() as AddressInfo).port };
  try {
    pipeline = makePipeline(bound);
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  const screened = pipeline;
  let closed: Promise<void> | undefined;
  const stopAccepting = () => {
    if (closed) return;
    stopping = true;
    screened.stopAccepting();
    closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
  };

  const listener: NodeHttpListener = {
    address: bound,
    inFlight: () => inFlight.size,
    describeInFlight: () => [...inFlight].map((entry) => describe(entry.request)),
    stopAccepting,
    shutdown: async (drainTimeoutMs) => {
      stopAccepting();
      const waitedFor = inFlight.size;
      for (const entry of inFlight) if (entry.listening) entry.response.destroy();
      if (inFlight.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => (drained = resolve)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, drainTimeoutMs))),
        ]);
        clearTimeout(timer);
      }
      const cut = [...inFlight].map((entry) => describe(entry.request));
      server.closeAllConnections();
      await screened.close();
      await closed;
      return { cut, waitedFor };
    },
  };
  return { listener, pipeline: screened };
}
