import type { AnswerRelay, Engine, EngineLogEntry } from '@roundtrip/engine';
import type { Authentication } from './authentication.ts';
import type { HostOriginOptions } from './host-origin-check.ts';

/** Checks the bearer token of each request: {@link createJwtAuthenticator}'s, or one of your own with the same answers. */
export interface RequestAuthenticator {
  /** Never throws: a refusal is data, with the log reason and the RFC 6750 answer. */
  authenticate(request: Request): Promise<Authentication>;
  /** The issuer of accepted tokens, published as the metadata's `authorization_servers`. */
  readonly issuer: string;
  /** Scopes every token must grant, published as the metadata's `scopes_supported`. */
  readonly requiredScopes: readonly string[];
}

/** Bearer authentication in front of the MCP endpoint. */
export interface HttpAuthentication {
  authenticator: RequestAuthenticator;
  /**
   * This server's resource identifier: the public URL clients reach the MCP endpoint at (e.g.
   * `https://mcp.example.com/mcp`), published in the RFC 9728 metadata and named by every 401's
   * `WWW-Authenticate` (`resource_metadata`). Usually the tokens' audience.
   */
  resource: URL;
  /** A human-readable name for the metadata's `resource_name`. @defaultValue the server's name */
  resourceName?: string;
}

/** What {@link createHttpHandler} serves, and how it guards the endpoint. */
export interface HttpHandlerOptions {
  /** The engine whose tools, prompts and resources are served. */
  engine: Engine;
  /** Server name and version, as clients see them; the name is also the log's prefix. */
  name: string;
  version: string;
  /** Instructions for the model, sent to clients that show them. */
  instructions?: string;
  /**
   * Who states are bound to when there is no authentication (one machine, loopback): one identity for
   * every request, as on stdio. Ignored with `authentication`: the principal is then each token's `sub`.
   */
  principal?: string;
  /** Bearer tokens required on the MCP endpoint; without it, requests are served as `principal`. */
  authentication?: HttpAuthentication;
  /** Host names and page origins allowed besides this machine's (DNS rebinding and cross-site protection). */
  hostOrigin?: HostOriginOptions;
  /**
   * The largest request body, in bytes: a larger one is answered 413 without being read.
   * @defaultValue 4194304 (4 MiB, as a stdio server's ROUNDTRIP_MAX_REQUEST_BYTES)
   */
  maxRequestBytes?: number;
  /** Sent as the `Roundtrip-Instance` header of every response, to tell which instance answered. */
  instance?: string;
  /** The path of the MCP endpoint. @defaultValue '/mcp' */
  path?: string;
  /**
   * How a 2026-07-28 response is shaped: `auto` answers with one JSON body unless the request's work
   * reports progress first (then an SSE stream); `sse` always streams. @defaultValue 'auto'
   */
  responseMode?: 'auto' | 'sse';
  /** Interval of SSE keep-alive comments, in ms; 0 turns them off. @defaultValue the SDK's (15000) */
  keepAliveMs?: number;
  /**
   * Where a 2025-era client's answers to the questions asked on a call's SSE stream go when they reach another
   * instance than the one holding the call: `createPostgresAnswerRelay` (@roundtrip/engine/postgres) on the
   * database the instances share. @defaultValue this process only (createLocalAnswerRelay): one instance
   */
  relay?: AnswerRelay;
  /**
   * How long a 2025-era client may take to answer one question asked over HTTP; then the question is withdrawn
   * and the call ends with an error saying so. Keep it under the client's own request timeout (60 s in the
   * official clients). @defaultValue 50000
   */
  legacyAnswerTimeoutMs?: number;
  /** How many questions one 2025-era call may ask in turn (the engine's maxRounds). @defaultValue the SDK's (8) */
  legacyMaxRounds?: number;
  /** Where refusals (Host, Origin, tokens, sizes) and protocol errors are logged: the operator's log, never the client. */
  log?: (entry: EngineLogEntry) => void;
}

/** The web-standard handler {@link createHttpHandler} returns: the shape Workers, Deno, Bun and Hono take. */
export interface HttpHandler {
  /** Answers one HTTP request. Never throws. */
  fetch(request: Request): Promise<Response>;
  /** Ends the exchanges still in flight and refuses requests from now on (503). */
  close(): Promise<void>;
}
