import { ProtocolError, Server, type ServerContext } from '@modelcontextprotocol/server';
import type { ClientCapabilities, Engine } from '@roundtrip/engine';

const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

export interface ProtocolServerOptions {
  engine: Engine;
  name: string;
  version: string;
  instructions?: string;
  principal: string;
  era: 'legacy' | 'modern';
  onError: (error: Error) => void;
}

/**
 * One SDK server instance serving the engine's tools for one era of one connection. Built with the
 * low-level `Server` so that a refused requestState reaches the wire as a JSON-RPC error (McpServer
 * turns every handler throw into an `isError` tool result).
 */
export function createProtocolServer(options: ProtocolServerOptions): Server {
  const { engine } = options;
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {} }, ...(options.instructions ? { instructions: options.instructions } : {}) },
  );
  server.onerror = options.onError;

  server.setRequestHandler('tools/list', async () => ({ tools: engine.listTools() }));

  server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
    const capabilities =
      options.era === 'modern'
        ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_KEY] as ClientCapabilities | undefined)
        : (server.getClientCapabilities() as ClientCapabilities | undefined);
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const outcome = await engine.callTool({
      name: request.params.name,
      arguments: request.params.arguments,
      inputResponses: ctx.mcpReq.inputResponses,
      requestState: ctx.mcpReq.requestState(),
      principal: options.principal,
      capabilities,
      signal: ctx.mcpReq.signal,
      ...(progressToken !== undefined && {
        onProgress: ({ progress, message }) =>
          void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(options.onError),
      }),
    });
    switch (outcome.type) {
      case 'complete':
        return outcome.result;
      case 'input_required':
        return { resultType: 'input_required', inputRequests: outcome.inputRequests, requestState: outcome.requestState };
      case 'error': {
        const { code, message, data } = outcome.error;
        // 2025-era sessions have no -32021; tell the user through the tool result instead
        if (options.era === 'legacy' && code === -32021) return { content: [{ type: 'text', text: message }], isError: true };
        throw new ProtocolError(code, message, data);
      }
    }
  });
  return server;
}
