import { ProtocolError, Server, type ServerCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import { type ClientCapabilities, type Engine, ErrorCode, type RoundRequest, type StepOutcome } from '@roundtrip/engine';

const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

export interface ProtocolServerOptions {
  engine: Engine;
  name: string;
  version: string;
  instructions?: string;
  principal: string;
  era: 'legacy' | 'modern';
  /** Rounds the SDK's legacy shim drives one 2025-era request through before it gives up. @defaultValue the SDK's (8) */
  legacyMaxRounds?: number;
  onError: (error: Error) => void;
}

/** What the engine serves, as server capabilities: only the kinds it has definitions for. */
function capabilitiesOf(engine: Engine): ServerCapabilities {
  return {
    ...(engine.listTools().length > 0 && { tools: {} }),
    ...(engine.listPrompts().length > 0 && { prompts: {} }),
    ...((engine.listResources().length > 0 || engine.listResourceTemplates().length > 0) && { resources: {} }),
  };
}

/**
 * One SDK server instance serving the engine's tools, prompts and resources for one era of one
 * connection. Transport-neutral: stdio uses it through serveStdio, an HTTP transport can use it
 * through createMcpHandler. Built with the low-level `Server` so that a refused requestState reaches
 * the wire as a JSON-RPC error (McpServer turns every tool handler throw into an `isError` result).
 *
 * `tools/call`, `prompts/get` and `resources/read` answer `input_required` on every era: 2026-07-28
 * clients get it as is, and the SDK's legacy shim turns it into real `elicitation/create` requests
 * for 2025-era hosts.
 */
export function createProtocolServer(options: ProtocolServerOptions): Server {
  const { engine, era } = options;
  const capabilities = capabilitiesOf(engine);
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities,
      ...(options.instructions ? { instructions: options.instructions } : {}),
      ...(options.legacyMaxRounds !== undefined && { inputRequired: { maxRounds: options.legacyMaxRounds } }),
    },
  );
  server.onerror = options.onError;

  /** What every round carries besides its own arguments: answers, state, principal, capabilities, progress. */
  const roundOf = (ctx: ServerContext): RoundRequest => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    return {
      inputResponses: ctx.mcpReq.inputResponses,
      requestState: ctx.mcpReq.requestState(),
      principal: options.principal,
      // per request on 2026-07-28; declared once at initialize before
      capabilities:
        era === 'modern'
          ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_KEY] as ClientCapabilities | undefined)
          : (server.getClientCapabilities() as ClientCapabilities | undefined),
      signal: ctx.mcpReq.signal,
      ...(progressToken !== undefined && {
        onProgress: ({ progress, message }) =>
          void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(options.onError),
      }),
    };
  };

  /** The wire answer of one round: the result, `input_required`, or a JSON-RPC error. */
  const answer = <T>(outcome: StepOutcome<T>) => {
    switch (outcome.type) {
      case 'complete':
        return outcome.result;
      case 'input_required':
        return { resultType: 'input_required' as const, inputRequests: outcome.inputRequests, requestState: outcome.requestState };
      case 'error': {
        const { code, message, data } = outcome.error;
        throw new ProtocolError(code, message, data);
      }
    }
  };

  if (capabilities.tools) {
    server.setRequestHandler('tools/list', async () => ({ tools: engine.listTools() }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const outcome = await engine.callTool({ name: request.params.name, arguments: request.params.arguments, ...roundOf(ctx) });
      // 2025-era sessions have no -32021; tell the user through the tool result instead
      if (outcome.type === 'error' && outcome.error.code === ErrorCode.MissingRequiredClientCapability && era === 'legacy') {
        return { content: [{ type: 'text', text: outcome.error.message }], isError: true };
      }
      return answer(outcome);
    });
  }

  if (capabilities.prompts) {
    server.setRequestHandler('prompts/list', async () => ({ prompts: engine.listPrompts() }));
    server.setRequestHandler('prompts/get', async (request, ctx) =>
      answer(await engine.getPrompt({ name: request.params.name, arguments: request.params.arguments, ...roundOf(ctx) })),
    );
  }

  if (capabilities.resources) {
    server.setRequestHandler('resources/list', async () => ({ resources: engine.listResources() }));
    server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: engine.listResourceTemplates() }));
    server.setRequestHandler('resources/read', async (request, ctx) =>
      answer(await engine.readResource({ uri: request.params.uri, ...roundOf(ctx) })),
    );
  }
  return server;
}
