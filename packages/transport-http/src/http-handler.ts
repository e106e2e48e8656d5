import type { HttpHandler, HttpHandlerOptions } from './http-handler-options.ts';
import { createHttpPipeline } from './http-pipeline.ts';

/**
 * Serves an engine's tools, prompts and resources over stateless Streamable HTTP, as a web-standard
 * `fetch(Request) → Response` handler for Workers, Deno, Bun, Hono or Node (see `runHttpServer` in
 * `@roundtrip/transport-http/node`). Every request is answered on its own, by whichever instance gets
 * it: the conversation travels in the sealed requestState, so instances sharing a keyring (and an
 * effect ledger) serve any round.
 *
 * In order, each request is: checked for its Host (400 unless a plain `host[:port]`, sent once) and its
 * Host and Origin names (403), refused while shutting down (503) or when its declared body is over the
 * limit (413, unread); with authentication, served the RFC 9728 metadata at
 * `/.well-known/oauth-protected-resource[/mcp]`; anything but the MCP path gets 404, any method but POST
 * 405 (`Allow: POST`); with authentication, checked for its bearer token (401 with `WWW-Authenticate`
 * naming that metadata); its body read, counted against the limit (413), and parsed (400 when it is not
 * JSON, its size logged, never its content); then the SDK's `createMcpHandler` answers it (a plain 2026-07-28
 * `tools/call` is answered straight from the engine, as the SDK would answer it: direct-tool-call.ts), states bound
 * to the token's `sub` (or to `principal` without authentication), client strings its refusals repeat
 * cut at 120 characters. 2026-07-28 clients get `input_required` rounds, and progress as an SSE stream when
 * they ask for it; a client that hangs up cancels the work of its request. 2025-era clients are served
 * statelessly: a question with a model fallback is put to the model, any other question ends the call
 * with an error naming their revision and what to use instead.
 *
 * Throws RoundtripConfigError for an option it cannot serve with (no principal nor authentication, an
 * allow-list entry that is not a host name, a limit that is not a number of bytes).
 *
 * @example
 * ```ts
 * const handler = createHttpHandler({ engine, name: 'orders', version: '1.0.0', principal: 'ada' });
 * export default { fetch: (request: Request) => handler.fetch(request) };
 * ```
 */
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  const pipeline = createHttpPipeline(options);
  return { fetch: pipeline.fetch, close: pipeline.close };
}
