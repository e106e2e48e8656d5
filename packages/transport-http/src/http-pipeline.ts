import {
  type AuthInfo,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  type McpHandlerRequestOptions,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { createLocalAnswerRelay, type EngineLogEntry } from '@roundtrip/engine';
import { createServerFactory, RoundtripConfigError } from '@roundtrip/mcp';
import { bearerChallengeResponse } from './bearer-challenge.ts';
import { withClientEchoesCut } from './client-echo.ts';
import { isPreflight, preflightResponse, withCrossOriginHeaders } from './cross-origin.ts';
import { createDirectServing, type PlainAnswer, type ThroughSdk } from './direct-serving.ts';
import { directToolCall } from './direct-tool-call.ts';
import { createHostOriginCheck } from './host-origin-check.ts';
import type { HttpHandlerOptions } from './http-handler-options.ts';
import {
  jsonRpcErrorResponse,
  methodNotAllowedResponse,
  notFoundResponse,
  notJsonResponse,
  requestTooLargeResponse,
  shuttingDownResponse,
  withInstanceHeader,
} from './http-responses.ts';
import { createLegacyBridge } from './legacy-bridge.ts';
import { routeLegacy, withLegacySession } from './legacy-routes.ts';
import { decodeLegacySession } from './legacy-session.ts';
import { memoLast } from './memo-last.ts';
import { protectedResourceMetadataResponse, protectedResourceMetadataUrl } from './protected-resource-metadata.ts';
import { type ParsedBody, parseJsonBody, readWebBody } from './request-body.ts';
import type { RequestHead } from './request-head.ts';
import { statelessLegacyEngine } from './stateless-legacy-engine.ts';

/** The first revision without 2025's sessions and server-sent requests: its requests carry it in MCP-Protocol-Version. */
const MODERN_REVISION = '2026-07-28';

/** 4 MiB: a stdio server's default line limit, and the SDK's default body limit. */
const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/**
 * What {@link HttpPipeline.admit} decided from a request's method, path and headers: refused with this
 * response, or let through (with authentication, as the holder of the token `authInfo` describes).
 */
type Admission = { refusal: Response } | { refusal?: undefined; authInfo: AuthInfo | undefined };

/**
 * What a runtime found wrong with a request before the pipeline looks at it, in what the runtime
 * parsed and a web `Request` would not show (node:http keeps the first of two Host or Authorization
 * headers; its URL may be a whole URL instead of a path): the answer, and the reason the log gets.
 */
export interface HeadFlaw {
  response: Response;
  reason: string;
}

/**
 * The handler in steps, for a runtime that reads the body itself (Node's adapter), so that nothing of a
 * body is read before the request is known to be wanted: `screen` (headers sent twice, Host, Origin,
 * shutting down, a declared body size) and `admit` (the metadata document, the path, a CORS preflight,
 * the method, the bearer token) look at the method, path and headers alone (a web `Request`, or a
 * {@link RequestHead} read off the runtime's own request, and `request()` to build the web `Request` an
 * authenticator is handed, only when there is one); `answer` serves the request with what `admit` let in
 * (the principal's `authInfo`) and the bytes of its body, read by the runtime: a JSON body is parsed
 * here and handed to the SDK parsed (it then neither clones the request nor reads its body), one that
 * is not JSON is refused with its size in the log; `serve` is `answer` with the plain 2026-07-28 `tools/call`
 * answered straight from the engine (direct-tool-call.ts), the web `Request` made only for the others.
 * `fetch` is all three, the body read from the `Request`.
 */
export interface HttpPipeline {
  /** `flaw`: what the runtime found wrong with the request's head, refused before anything else. */
  screen(request: RequestHead, flaw?: HeadFlaw): Response | undefined;
  admit(head: RequestHead, request: () => Request): Promise<Admission>;
  answer(request: Request, authInfo: AuthInfo | undefined, body: Uint8Array | undefined): Promise<Response>;
  /**
   * `answer` for a runtime that writes plain answers (Node's adapter): a 2026-07-28 `tools/call` the SDK would
   * serve as it is is answered straight from the engine (direct-tool-call.ts), its headers with it, without a web
   * `Request` or `Response`; anything else through `answer`, with the `Request` made by `request()`. `signal`
   * aborts the call's work (the client hung up).
   */
  serve(
    head: RequestHead,
    authInfo: AuthInfo | undefined,
    body: Uint8Array | undefined,
    signal: AbortSignal,
    request: () => Request,
  ): Promise<PlainAnswer | Response>;
  /** The 413 of a body sent without a length that grew over the limit while it was read, logged. */
  bodyTooLarge(request: RequestHead): Response;
  /**
   * A response made outside the pipeline (the Node listener's 500 when serving threw) with the headers
   * every answer carries: the instance, and the CORS headers when the Host and Origin check lets the request in.
   */
  stampOutside(response: Response, request: RequestHead): Response;
  fetch(request: Request): Promise<Response>;
  /** Refuses requests from now on (503), without touching those in flight. */
  stopAccepting(): void;
  /** Ends the exchanges still in flight. */
  close(): Promise<void>;
}

function checkedLimit(value: number | undefined): number {
  const limit = value ?? DEFAULT_MAX_REQUEST_BYTES;
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new RoundtripConfigError(
      'maxRequestBytes',
      `maxRequestBytes is ${String(value)}; give a whole number of bytes, such as 4194304 (4 MiB)`,
    );
  }
  return limit;
}

/** Builds the pipeline behind {@link createHttpHandler}; throws RoundtripConfigError for options it cannot serve with. */
export function createHttpPipeline(options: HttpHandlerOptions): HttpPipeline {
  const log = options.log ?? (() => {});
  const { authentication } = options;
  const mcpPath = options.path ?? '/mcp';
  const limit = checkedLimit(options.maxRequestBytes);
  if (authentication === undefined && (options.principal === undefined || options.principal.trim() === '')) {
    throw new RoundtripConfigError(
      'principal',
      'give a principal (the identity every requestState is bound to, as ROUNDTRIP_PRINCIPAL on stdio), or authentication so that each token’s sub is',
      { code: 'missing' },
    );
  }
  const checkHostAndOrigin = createHostOriginCheck(options.hostOrigin);
  const resourceMetadataUrl = authentication && protectedResourceMetadataUrl(authentication.resource);
  // the principal of each authenticated request, by the AuthInfo the SDK hands the factory as it was given
  const principals = new WeakMap<AuthInfo, string>();
  const principalFor = (authInfo: AuthInfo | undefined): string => {
    if (authentication === undefined) return options.principal!.trim();
    const principal = authInfo && principals.get(authInfo);
    // unreachable through fetch: a request without a verified token never reaches the MCP handler
    if (principal === undefined) throw new Error('no verified principal for this request; it must not be served');
    return principal;
  };
  const principalOf = (context: McpRequestContext) => principalFor(context.authInfo);
  const onError = (error: Error) => log({ level: 'warn', event: 'protocol', message: error.message });
  const common = {
    name: options.name,
    version: options.version,
    ...(options.instructions !== undefined && { instructions: options.instructions }),
    principal: principalOf,
    onError,
  };
  // the engine as it is: 2026-07-28 requests, and 2025-era calls the legacy bridge serves with real questions
  const modern = createServerFactory({
    engine: options.engine,
    ...common,
    ...(options.legacyAnswerTimeoutMs !== undefined && { legacyAnswerTimeoutMs: options.legacyAnswerTimeoutMs }),
    ...(options.legacyMaxRounds !== undefined && { legacyMaxRounds: options.legacyMaxRounds }),
  });
  const bridge = createLegacyBridge({
    factory: modern,
    relay: options.relay ?? createLocalAnswerRelay(),
    keepAliveMs: options.keepAliveMs ?? 15_000,
    log,
  });
  const factory = (context: McpRequestContext) =>
    context.era === 'modern'
      ? modern(context)
      : createServerFactory({ engine: statelessLegacyEngine(options.engine, context.requestInfo), ...common })(context);
  const mcp = createMcpHandler(factory, {
    legacy: 'stateless',
    onerror: onError,
    maxRequestBodySize: limit,
    responseMode: options.responseMode ?? 'auto',
    ...(options.keepAliveMs !== undefined && { keepAliveMs: options.keepAliveMs }),
  });
  let accepting = true;
  // every response but the Host and Origin check's refusal: the request is from a client or page it let in,
  // so a page is told it may read the answer
  const stamp = (response: Response, request: RequestHead) =>
    withCrossOriginHeaders(withInstanceHeader(response, options.instance), request);
  const refuse = (request: RequestHead, entry: Omit<EngineLogEntry, 'level'>, response: Response) => {
    log({ level: 'warn', ...entry });
    return stamp(response, request);
  };

  const screen = (request: RequestHead, flaw?: HeadFlaw): Response | undefined => {
    if (flaw !== undefined) {
      log({ level: 'warn', event: 'request_refused', message: flaw.reason });
      return withInstanceHeader(flaw.response, options.instance);
    }
    const verdict = checkHostAndOrigin(request);
    if (!verdict.ok) {
      log({ level: 'warn', event: 'request_refused', message: verdict.reason });
      return withInstanceHeader(verdict.response, options.instance);
    }
    if (!accepting) return stamp(shuttingDownResponse(), request);
    const declared = request.headers.get('content-length');
    const size = declared === null ? undefined : Number(declared);
    if (size !== undefined && size > limit) {
      return refuse(
        request,
        {
          event: 'request_too_large',
          message: `a ${request.method} body of ${size} bytes refused unread: over the limit of ${limit} bytes`,
        },
        requestTooLargeResponse(limit, size),
      );
    }
    return undefined;
  };

  const bodyTooLarge = (request: RequestHead) =>
    refuse(
      request,
      {
        event: 'request_too_large',
        message: `a ${request.method} body sent without a length grew over the limit of ${limit} bytes: refused, the rest unread`,
      },
      requestTooLargeResponse(limit, undefined),
    );

  /** The 400 of a body whose connection failed while it was read (a web runtime's stream error), logged. */
  const bodyUnreadable = (request: RequestHead) =>
    refuse(
      request,
      { event: 'request_invalid', message: `a ${request.method} body could not be read: the connection failed while it was sent` },
      notJsonResponse(true),
    );

  /** The answer to a request that failed in our code: 503 once closed, else 500 and the log. */
  const failed = (request: RequestHead, error: unknown): Response => {
    // the SDK handler answers its own failures; this is one after close() or a bug of ours
    if (!accepting) return stamp(shuttingDownResponse(), request);
    log({ level: 'error', event: 'http_error', message: `${request.method} ${new URL(request.url).pathname} failed`, error });
    return stamp(jsonRpcErrorResponse(500, -32603, 'Internal server error'), request);
  };

  // a client asks for the same URL each time
  const pathOf = memoLast((url: string) => new URL(url).pathname);
  const admitted = async (head: RequestHead, request: () => Request): Promise<Admission> => {
    const path = pathOf(head.url);
    if (authentication) {
      const metadata = protectedResourceMetadataResponse(head, {
        resource: authentication.resource,
        authorizationServers: [authentication.authenticator.issuer],
        scopesSupported: authentication.authenticator.requiredScopes,
        resourceName: authentication.resourceName ?? options.name,
      });
      if (metadata) return { refusal: stamp(metadata, head) };
    }
    if (path !== mcpPath && path !== `${mcpPath}/`) return { refusal: stamp(notFoundResponse(path, mcpPath), head) };
    // before the token: a browser sends none with a preflight
    if (isPreflight(head)) return { refusal: stamp(preflightResponse(head), head) };
    // DELETE ends a 2025-era client's session: nothing is kept of it, so any instance acknowledges it
    const endsSession = head.method === 'DELETE' && decodeLegacySession(head.headers.get('mcp-session-id')) !== undefined;
    if (head.method !== 'POST' && !endsSession) return { refusal: stamp(methodNotAllowedResponse(head.method), head) };
    if (!authentication || !resourceMetadataUrl) return { authInfo: undefined };
    const result = await authentication.authenticator.authenticate(request());
    if (!result.ok) {
      return {
        refusal: refuse(head, { event: 'auth_refused', message: result.reason }, bearerChallengeResponse(result, { resourceMetadataUrl })),
      };
    }
    principals.set(result.authInfo, result.principal);
    return { authInfo: result.authInfo };
  };

  const admit = async (head: RequestHead, request: () => Request): Promise<Admission> => {
    try {
      return await admitted(head, request);
    } catch (error) {
      return { refusal: failed(head, error) };
    }
  };

  const answer = async (
    request: Request,
    authInfo: AuthInfo | undefined,
    body: Uint8Array | undefined,
    parsedAlready?: ParsedBody,
    handler = mcp,
  ): Promise<Response> => {
    try {
      // a 2025-era client ending its session (admit let only a session of ours through): nothing is kept of it
      if (request.method === 'DELETE') return stamp(new Response(null, { status: 200 }), request);
      const options: McpHandlerRequestOptions = {};
      if (authInfo !== undefined) options.authInfo = authInfo;
      // any other media type is the SDK's 415, before a body is looked at
      if (isJsonContentType(request.headers.get('content-type'))) {
        const parsed = parsedAlready ?? parseJsonBody(body);
        if (!parsed.ok) {
          const message = `a POST body of ${parsed.bytes} bytes that is not JSON was refused (-32700)`;
          return refuse(request, { event: 'request_invalid', message }, notJsonResponse());
        }
        options.parsedBody = parsed.value;
      }
      // a request whose header names the 2026-07-28 revision (or a later one) is never legacy: the SDK's
      // classification of its body is left to the modern handler, not done twice per request
      const revision = request.headers.get('mcp-protocol-version');
      const modern = revision !== null && revision >= MODERN_REVISION;
      const legacy = !modern && options.parsedBody !== undefined && (await isLegacyRequest(request, options.parsedBody));
      const bridged = legacy ? await routeLegacy(bridge, request, options.parsedBody, authInfo) : undefined;
      if (bridged !== undefined) return stamp(bridged, request);
      let response = await handler.fetch(request, options);
      if (legacy) response = await withLegacySession(response, options.parsedBody);
      return stamp(await withClientEchoesCut(response, request, options.parsedBody), request);
    } catch (error) {
      return failed(request, error);
    }
  };

  // the direct way of a plain 2026-07-28 tools/call (direct-serving.ts); an engine without tools declares none,
  // and the SDK answers a tools/call with -32601 (method not found)
  const servesTools = options.engine.listTools().length > 0;
  const direct = createDirectServing({
    engine: options.engine,
    serverInfo: { name: options.name, version: options.version },
    instance: options.instance,
    principalOf: principalFor,
    stamp,
  });
  /** The SDK's answer to a direct call whose outcome (reached by `engine`) is of another kind than the plain ones. */
  const encodedBySdk =
    (request: () => Request, authInfo: AuthInfo | undefined, parsed: ParsedBody): ThroughSdk =>
    async (engine) => {
      const sdk = createMcpHandler((context) => createServerFactory({ engine, ...common })(context), {
        legacy: 'reject',
        onerror: onError,
        maxRequestBodySize: limit,
        responseMode: options.responseMode ?? 'auto',
      });
      try {
        return await answer(request(), authInfo, undefined, parsed, sdk);
      } finally {
        await sdk.close();
      }
    };

  const serve = async (
    head: RequestHead,
    authInfo: AuthInfo | undefined,
    body: Uint8Array | undefined,
    signal: AbortSignal,
    request: () => Request,
  ): Promise<PlainAnswer | Response> => {
    if (head.method !== 'POST' || !isJsonContentType(head.headers.get('content-type'))) return answer(request(), authInfo, body);
    const parsed = parseJsonBody(body);
    // an SSE stream for every answer (responseMode 'sse') is the SDK's to write
    const call = parsed.ok && accepting && servesTools && options.responseMode !== 'sse' ? directToolCall(head, parsed.value) : undefined;
    if (call === undefined) return answer(request(), authInfo, body, parsed);
    try {
      return await direct.answer(call, head, authInfo, signal, encodedBySdk(request, authInfo, parsed));
    } catch (error) {
      return failed(head, error);
    }
  };

  return {
    screen,
    admit,
    answer,
    serve,
    bodyTooLarge,
    stampOutside: (response, request) =>
      checkHostAndOrigin(request).ok ? stamp(response, request) : withInstanceHeader(response, options.instance),
    fetch: async (request) => {
      const refusal = screen(request);
      if (refusal !== undefined) return refusal;
      const admission = await admit(request, () => request);
      if (admission.refusal !== undefined) return admission.refusal;
      // only a JSON body is read: any other media type is the SDK's 415
      const body = isJsonContentType(request.headers.get('content-type')) ? await readWebBody(request, limit) : undefined;
      if (body === undefined || body.ok) {
        const served = await serve(request, admission.authInfo, body?.bytes, request.signal, () => request);
        return served instanceof Response ? served : new Response(served.body, { status: served.status, headers: served.headers });
      }
      return body.reason === 'too_large' ? bodyTooLarge(request) : bodyUnreadable(request);
    },
    stopAccepting: () => {
      accepting = false;
    },
    close: async () => {
      accepting = false;
      direct.abortAll();
      await bridge.close();
      await mcp.close();
    },
  };
}
