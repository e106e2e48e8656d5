import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import type { Engine } from '@roundtrip/engine';
import { createProtocolServer } from './create-protocol-server.ts';

export interface ServerFactoryOptions {
  /** The engine whose tools, prompts and resources are served. */
  engine: Engine;
  /** Server name and version, as hosts see them. */
  name: string;
  version: string;
  /** Instructions for the model, sent to hosts that show them. */
  instructions?: string;
  /**
   * Who the states are bound to: one identity for the whole server (a stdio server's OS user), or
   * one per instance from the SDK's construction context (e.g. from `authInfo` on HTTP).
   */
  principal: string | ((context: McpRequestContext) => string);
  /**
   * How many rounds the SDK's legacy shim drives one 2025-era request through (each one real
   * `elicitation/create`) before giving up. Pass the engine's `maxRounds` so that both eras stop at
   * the same point. @defaultValue the SDK's default (8)
   */
  legacyMaxRounds?: number;
  /**
   * How long a 2025-era host may take to answer one question. On those revisions the request is held
   * open while the user answers (the state never leaves the server, so its lifetime does not apply);
   * a host that has not answered by then has the question withdrawn and the request ended with an
   * error saying so. Keep it under the host's own request timeout (60 s in the official clients).
   * @defaultValue 50000 (50 seconds)
   */
  legacyAnswerTimeoutMs?: number;
  /** Receives protocol errors the SDK reports out of band (a malformed message, a failed notification). */
  onError?: (error: Error) => void;
}

/**
 * The SDK server factory that serves an engine: give it to `serveStdio` (from
 * `@modelcontextprotocol/server/stdio`, any `Transport` through its `transport` option) or to
 * `createMcpHandler` for HTTP. Each instance serves one era: 2026-07-28 clients get `input_required`
 * results; 2025-era hosts get real `elicitation/create` requests through the SDK's legacy shim.
 * Only the kinds the engine has definitions for are declared as capabilities. A refused or expired
 * requestState is the JSON-RPC error -32602 on every method.
 *
 * @example
 * import { serveStdio } from '@modelcontextprotocol/server/stdio';
 *
 * const engine = createEngine({ tools: [refundOrder], keyring, audience: 'orders' });
 * serveStdio(createServerFactory({ engine, name: 'orders', version: '1.0.0', principal: 'ada' }), { transport });
 */
export function createServerFactory(options: ServerFactoryOptions): (context: McpRequestContext) => Server {
  const onError = options.onError ?? (() => {});
  return (context) =>
    createProtocolServer({
      engine: options.engine,
      name: options.name,
      version: options.version,
      ...(options.instructions ? { instructions: options.instructions } : {}),
      principal: typeof options.principal === 'function' ? options.principal(context) : options.principal,
      era: context.era,
      ...(options.legacyMaxRounds !== undefined && { legacyMaxRounds: options.legacyMaxRounds }),
      ...(options.legacyAnswerTimeoutMs !== undefined && { legacyAnswerTimeoutMs: options.legacyAnswerTimeoutMs }),
      onError,
    });
}
