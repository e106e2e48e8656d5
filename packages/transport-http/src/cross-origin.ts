// CORS for browser pages the Host and Origin check lets in (cross-origin resource sharing: what lets a page
// read an answer from another origin). That check decides who may call; this only tells the browser so. A
// page of an allowed origin is answered with its own origin named, a preflight is answered before anything
// else (it carries no token, and no body), and a page of any other origin never gets here: it is refused
// 403 without these headers, so its browser lets it read nothing.
import { INSTANCE_HEADER, MCP_ENDPOINT_METHODS, withHeaders } from './http-responses.ts';
import type { RequestHead } from './request-head.ts';

/** Response headers a page may read besides the safelisted ones: the bearer challenge, the answering instance. */
const EXPOSED_HEADERS = `WWW-Authenticate, ${INSTANCE_HEADER}`;
/** How long a browser may keep a preflight's answer, seconds (Chromium keeps it at most 2 hours). */
const PREFLIGHT_MAX_AGE = '600';

/**
 * Whether a request is a CORS preflight: OPTIONS from a page, naming the method it is about to send.
 * Another OPTIONS request is not one, and is answered as the MCP endpoint answers it.
 */
export function isPreflight(request: RequestHead): boolean {
  return (
    request.method === 'OPTIONS' && request.headers.get('origin') !== null && request.headers.get('access-control-request-method') !== null
  );
}

/**
 * 204 to a preflight from an allowed origin: the origin named, the endpoint's method (POST), and the headers the
 * page asked to send (MCP's own, `Authorization`, or its client's; the origin is what is trusted, not the
 * header names). Call it only for a request the Host and Origin check let through.
 */
export function preflightResponse(request: RequestHead): Response {
  const origin = request.headers.get('origin') ?? '';
  const asked = request.headers.get('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': MCP_ENDPOINT_METHODS,
      ...(asked !== null && asked.trim() !== '' && { 'Access-Control-Allow-Headers': asked }),
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
      Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    },
  });
}

/**
 * The response with the CORS headers of a request from a page added (none for a request without an
 * Origin, which is every client but a browser page): the origin named, `Vary: Origin`, and the headers it
 * may read (set as {@link withHeaders} sets them). Call it only for a request the Host and Origin check
 * let through.
 */
export function withCrossOriginHeaders(response: Response, request: RequestHead): Response {
  const origin = request.headers.get('origin');
  if (origin === null || response.headers.has('access-control-allow-origin')) return response;
  return withHeaders(response, (headers) => {
    headers.set('Access-Control-Allow-Origin', origin);
    headers.append('Vary', 'Origin');
    headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  });
}

/**
 * The CORS headers {@link withCrossOriginHeaders} adds, as plain lower-case headers of an answer that has no
 * `Vary` of its own (none for a request without an Origin).
 */
export function crossOriginHeaders(request: RequestHead): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null) return {};
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' };
}
