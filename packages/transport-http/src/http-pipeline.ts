import { type AuthInfo, createMcpHandler, type McpRequestContext } from '@modelcontextprotocol/server';
import type { EngineLogEntry } from '@roundtrip/engine';
import { createServerFactory } from '@roundtrip/mcp';
import { bearerChallengeResponse } from './bearer-challenge.ts';
import { createHostOriginCheck } from './host-origin-check.ts';
import { HttpConfigError } from './http-config-error.ts';
import type { HttpHandlerOptions } from './http-handler-options.ts';
import {
  jsonRpcErrorResponse,
  notFoundResponse,
  requestTooLargeResponse,
  shuttingDownResponse,
  withInstanceHeader,
} from './http-responses.ts';
import { protectedResourceMetadataResponse, protectedResourceMetadataUrl } from './protected-resource-metadata.ts';
import { statelessLegacyEngine } from './stateless-legacy-engine.ts';

/** 4 MiB: a stdio server's default line limit, and the SDK's default body limit. */
const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/**
 * The handler in two steps, for a runtime that reads the body itself before the handler sees it
 * (Node's adapter): `screen` looks at the method, path and headers alone (Host, Origin, shutting down,
 * a declared body size), `serve` does the rest. `fetch` is both.
 */
export interface HttpPipeline {
  screen(request: Request): Response | undefined;
  serve(request: Request): Promise<Response>;
  fetch(request: Request): Promise<Response>;
  /** Refuses requests from now on (503), without touching those in flight. */
  stopAccepting(): void;
  /** Ends the exchanges still in flight. */
  close(): Promise<void>;
}

function checkedLimit(value: number | undefined): number {
  const limit = value ?? DEFAULT_MAX_REQUEST_BYTES;
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new HttpConfigError(
      'maxRequestBytes',
      `maxRequestBytes is ${String(value)}; give a whole number of bytes, such as 4194304 (4 MiB)`,
    );
  }
  return limit;
}

/** Builds the pipeline behind {@link createHttpHandler}; throws HttpConfigError for options it cannot serve with. */
export function createHttpPipeline(options: HttpHandlerOptions): HttpPipeline {
  const log = options.log ?? (() => {});
  const { authentication } = options;
  const mcpPath = options.path ?? '/mcp';
  const limit = checkedLimit(options.maxRequestBytes);
  if (authentication === undefined && (options.principal === undefined || options.principal.trim() === '')) {
    throw new HttpConfigError(
      'principal',
      'give a principal (the identity every requestState is bound to, as ROUNDTRIP_PRINCIPAL on stdio), or authentication so that each token’s sub is',
    );
  }
  const checkHostAndOrigin = createHostOriginCheck(options.hostOrigin);
  const resourceMetadataUrl = authentication && protectedResourceMetadataUrl(authentication.resource);
  // the principal of each authenticated request, by the AuthInfo the SDK hands the factory as it was given
  const principals = new WeakMap<AuthInfo, string>();
  const principalOf = (context: McpRequestContext): string => {
    if (authentication === undefined) return options.principal!.trim();
    const principal = context.authInfo && principals.get(context.authInfo);
    // unreachable through fetch: a request without a verified token never reaches the MCP handler
    if (principal === undefined) throw new Error('no verified principal for this request; it must not be served');
    return principal;
  };
  const onError = (error: Error) => log({ level: 'warn', event: 'protocol', message: error.message });
  const common = {
    name: options.name,
    version: options.version,
    ...(options.instructions !== undefined && { instructions: options.instructions }),
    principal: principalOf,
    onError,
  };
  const modern = createServerFactory({ engine: options.engine, ...common });
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
  const stamp = (response: Response) => withInstanceHeader(response, options.instance);
  const refuse = (entry: Omit<EngineLogEntry, 'level'>, response: Response) => {
    log({ level: 'warn', ...entry });
    return stamp(response);
  };

  const screen = (request: Request): Response | undefined => {
    const verdict = checkHostAndOrigin(request);
    if (!verdict.ok) return refuse({ event: 'request_refused', message: verdict.reason }, verdict.response);
    if (!accepting) return stamp(shuttingDownResponse());
    const declared = request.headers.get('content-length');
    const size = declared === null ? undefined : Number(declared);
    if (size !== undefined && size > limit) {
      return refuse(
        {
          event: 'request_too_large',
          message: `a ${request.method} body of ${size} bytes refused unread: over the limit of ${limit} bytes`,
        },
        requestTooLargeResponse(limit, size),
      );
    }
    return undefined;
  };

  const serve = async (request: Request): Promise<Response> => {
    try {
      return await serveScreened(request);
    } catch (error) {
      // the SDK handler answers its own failures; this is one after close() or a bug of ours
      if (!accepting) return stamp(shuttingDownResponse());
      log({ level: 'error', event: 'http_error', message: `${request.method} ${new URL(request.url).pathname} failed`, error });
      return stamp(jsonRpcErrorResponse(500, -32603, 'Internal server error'));
    }
  };

  const serveScreened = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (authentication) {
      const metadata = protectedResourceMetadataResponse(request, {
        resource: authentication.resource,
        authorizationServers: [authentication.authenticator.issuer],
        scopesSupported: authentication.authenticator.requiredScopes,
        resourceName: authentication.resourceName ?? options.name,
      });
      if (metadata) return stamp(metadata);
    }
    if (path !== mcpPath && path !== `${mcpPath}/`) return stamp(notFoundResponse(path, mcpPath));
    let authInfo: AuthInfo | undefined;
    if (authentication && resourceMetadataUrl) {
      const result = await authentication.authenticator.authenticate(request);
      if (!result.ok)
        return refuse({ event: 'auth_refused', message: result.reason }, bearerChallengeResponse(result, { resourceMetadataUrl }));
      authInfo = result.authInfo;
      principals.set(authInfo, result.principal);
    }
    const response = await mcp.fetch(request, authInfo === undefined ? undefined : { authInfo });
    // only a body that turned out larger than it declared (or sent without a length) gets here
    if (response.status === 413) {
      return refuse(
        { event: 'request_too_large', message: `a ${request.method} body over the limit of ${limit} bytes refused` },
        requestTooLargeResponse(limit, undefined),
      );
    }
    return stamp(response);
  };

  return {
    screen,
    serve,
    fetch: async (request) => screen(request) ?? serve(request),
    stopAccepting: () => {
      accepting = false;
    },
    close: async () => {
      accepting = false;
      await mcp.close();
    },
  };
}
