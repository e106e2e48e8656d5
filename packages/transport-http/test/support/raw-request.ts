// One HTTP request with every header under the test's control (a Host or Origin of its choosing, a
// declared length, a chunked body), over node:http, and the whole answer read.
import { request as httpRequest } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): unknown;
}

/**
 * `headers` as an object, or as raw lines (`['Host', 'a', 'Host', 'b']`: a header sent more than once, as
 * node:http sends such an array line by line).
 */
export function rawRequest(
  url: URL,
  options: { method?: string; path?: string; headers?: Record<string, string> | string[]; body?: string | Buffer; chunked?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'POST',
        path: options.path ?? url.pathname,
        headers: options.headers ?? {},
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }));
      },
    );
    // the server may answer before it has read the body, and close the connection
    req.on('error', reject);
    if (options.chunked) req.setHeader('transfer-encoding', 'chunked');
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** The body of a 2026-07-28 tools/list, and the headers such a request carries. */
export function modernListTools(headers: Record<string, string> = {}) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
      ...headers,
    },
  };
}

/** A request whose chunked body is begun and never finished: the answer, and whether the request was still open when it came. */
export interface HeldAnswer extends RawAnswer {
  /** True when the whole answer was read while the request's body was still being sent (never ended). */
  readWhileSending: boolean;
}

/**
 * Sends the headers and the first chunk of a chunked body, and keeps the request open (its body never
 * ends): resolves with the answer once it is read whole, then lets go of the connection.
 */
export function heldRequest(
  url: URL,
  options: { path?: string; headers: Record<string, string>; firstChunk: string },
): Promise<HeldAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: options.path ?? url.pathname,
        headers: { ...options.headers, 'transfer-encoding': 'chunked' },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const readWhileSending = !req.writableEnded;
          req.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body), readWhileSending });
        });
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    req.write(options.firstChunk);
  });
}
