import { clipped } from './client-echo.ts';

/** The response header naming the instance that answered, when the server is given a name for itself. */
export const INSTANCE_HEADER = 'Roundtrip-Instance';

/**
 * The methods the MCP endpoint serves, as every 405's `Allow` and a preflight's
 * `Access-Control-Allow-Methods` name them: stateless Streamable HTTP takes each message as a POST (there
 * is no GET stream, and no session to DELETE).
 */
export const MCP_ENDPOINT_METHODS = 'POST';

/** JSON-RPC's "Parse error", as a stdio server answers a line that is not JSON. */
const PARSE_ERROR = -32700;

/** JSON-RPC's "Invalid Request", as a stdio server answers a line over its limit. */
const INVALID_REQUEST = -32600;
/** The SDK's code for transport-level refusals (wrong path, method, shutting down). */
const SERVER_ERROR = -32000;

/** A JSON-RPC error response with no request id (none was read), as the SDK's own HTTP refusals are. */
export function jsonRpcErrorResponse(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

/**
 * 413 for a body over the limit: its size when the request declared it (then nothing of it was read),
 * the limit, and what the client and the operator can do. A body sent without a length is refused once
 * it grows over the limit, the rest unread. The connection is closed, since the body was not read off it.
 */
export function requestTooLargeResponse(limit: number, declared: number | undefined): Response {
  const what =
    declared === undefined
      ? `over this server's limit of ${limit} bytes. It was refused as it grew over the limit; the rest was not read.`
      : `${declared} bytes, over this server's limit of ${limit} bytes. Nothing of it was read.`;
  return jsonRpcErrorResponse(
    413,
    INVALID_REQUEST,
    `Request too large: ${what} Send less in one request (shorter arguments or answers), or have the server's operator raise its limit (ROUNDTRIP_MAX_REQUEST_BYTES).`,
    { Connection: 'close' },
  );
}

/** 404 for a path that is not the MCP endpoint (nor, with authentication, the metadata document). */
export function notFoundResponse(path: string, mcpPath: string): Response {
  const shown = path.length > 100 ? `${path.slice(0, 100)}…` : path;
  return jsonRpcErrorResponse(404, SERVER_ERROR, `Not found: this server answers MCP at ${mcpPath}, not at ${JSON.stringify(shown)}`);
}

/**
 * 405 for any method but POST on the MCP endpoint, whichever part of the server refuses it (the same
 * `Allow` and sentence everywhere).
 */
export function methodNotAllowedResponse(method: string): Response {
  return jsonRpcErrorResponse(
    405,
    SERVER_ERROR,
    `Method not allowed: ${clipped(method)}. This MCP endpoint is stateless Streamable HTTP: send each JSON-RPC message as a ` +
      'POST (there is no GET stream, and no session to DELETE).',
    { Allow: MCP_ENDPOINT_METHODS },
  );
}

/** 400 for a header sent more than once that a request may carry once (Host, Authorization): which one counts would be a guess. */
export function repeatedHeaderResponse(name: 'Host' | 'Authorization'): Response {
  return jsonRpcErrorResponse(400, SERVER_ERROR, `Bad Request: the ${name} header was sent more than once. Send it once.`);
}

/** 400 for a JSON body that is not JSON (or cannot be read): the same words as a stdio server's, nothing of the body repeated. */
export function notJsonResponse(unreadable = false): Response {
  return jsonRpcErrorResponse(
    400,
    PARSE_ERROR,
    unreadable
      ? 'Parse error: the request body could not be read (the connection failed while it was sent). Send the request again.'
      : 'Parse error: the request body is not JSON. Send one JSON-RPC message as the body, in UTF-8 JSON.',
  );
}

/** 503 for a request that reaches an instance that is shutting down: the client may send it again. */
export function shuttingDownResponse(): Response {
  return jsonRpcErrorResponse(
    503,
    SERVER_ERROR,
    'Service unavailable: this server instance is shutting down. Send the request again; another instance, or this one restarted, answers it.',
    { Connection: 'close', 'Retry-After': '1' },
  );
}

/**
 * The response with `set` applied to its headers: on the response itself when its headers can be changed
 * (a response made with `new Response`, as the SDK's and ours are), else on a copy (a response from
 * `fetch`, or `Response.error()`, has immutable headers). Changing them in place spares each answer a
 * second Headers, Response and body stream.
 */
export function withHeaders(response: Response, set: (headers: Headers) => void): Response {
  try {
    set(response.headers);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    set(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** The response with the instance header added (see {@link withHeaders}). */
export function withInstanceHeader(response: Response, instance: string | undefined): Response {
  return instance === undefined ? response : withHeaders(response, (headers) => headers.set(INSTANCE_HEADER, instance));
}
