import { ProtocolError, type Server, type ServerCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import { type ClientCapabilities, type Engine, ErrorCode, type RoundRequest, type StepOutcome, TASKS_EXTENSION } from '@roundtrip/engine';
import { DEFAULT_ANSWER_TIMEOUT_MS } from './answer-timeout.ts';
import { capabilitiesForRevision, fitInputRequests, type UnaskableQuestion, unaskableMessage } from './legacy-elicitation.ts';
import { createRequestRounds } from './request-rounds.ts';
import { RoundtripServer } from './roundtrip-server.ts';
import { declaresTasks, registerTaskMethods } from './task-methods.ts';

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
  /**
   * How long a 2025-era host may take to answer one question while the request is held open; then
   * the question is withdrawn and the request ends with an error saying so. Keep it under the host's
   * own request timeout (60 s in the official clients). @defaultValue 50000 (50 seconds)
   */
  legacyAnswerTimeoutMs?: number;
  onError: (error: Error) => void;
}

/**
 * What the engine serves, as server capabilities: only the kinds it has definitions for, and the tasks
 * extension (SEP-2663) when a tool can answer a task, on 2026-07-28 only (the extension is not defined before).
 */
function capabilitiesOf(engine: Engine, era: 'legacy' | 'modern'): ServerCapabilities {
  return {
    ...(engine.listTools().length > 0 && { tools: {} }),
    ...(engine.listPrompts().length > 0 && { prompts: {} }),
    ...((engine.listResources().length > 0 || engine.listResourceTemplates().length > 0) && { resources: {} }),
    ...(engine.offersCompletions() && { completions: {} }),
    ...(era === 'modern' && engine.offersTasks() && { extensions: { [TASKS_EXTENSION]: {} } }),
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
 *
 * On a 2025-era connection the server holds the request open while the host asks the user, so the
 * state handed from one round to the next never leaves the server and its lifetime is not checked;
 * each question waits at most `legacyAnswerTimeoutMs`, then is withdrawn, and an answer that comes
 * after is ignored and logged; a request with a progressToken is sent progress while a question
 * waits (see RoundtripServer). A 2025-06-18 host gets forms in its own revision's shape. Progress of
 * one request counts up across all its rounds, and nothing is sent for a request once it is cancelled.
 */
export function createProtocolServer(options: ProtocolServerOptions): Server {
  const { engine, era } = options;
  const capabilities = capabilitiesOf(engine, era);
  const roundsOf = createRequestRounds();
  const server = new RoundtripServer(
    { name: options.name, version: options.version },
    {
      capabilities,
      ...(options.instructions ? { instructions: options.instructions } : {}),
      inputRequired: {
        // the shim's per-question timeout: how long a question waits before it is withdrawn
        roundTimeoutMs: options.legacyAnswerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS,
        ...(options.legacyMaxRounds !== undefined && { maxRounds: options.legacyMaxRounds }),
      },
    },
    { asksHost: era === 'legacy', nextProgress: (signal) => roundsOf(signal).nextProgress(), onError: options.onError },
  );
  server.onerror = options.onError;
  // the revision a 2025-era host negotiated at initialize (the deprecated accessor is the way to read it there)
  const legacyRevision = () => (era === 'legacy' ? server.getNegotiatedProtocolVersion() : undefined);

  /** The request's client capabilities: per request on 2026-07-28; declared once at initialize before. */
  const clientCapabilitiesOf = (ctx: ServerContext): ClientCapabilities | undefined =>
    era === 'modern'
      ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_KEY] as ClientCapabilities | undefined)
      : capabilitiesForRevision(server.getClientCapabilities() as ClientCapabilities | undefined, legacyRevision());

  /** What every round carries besides its own arguments: answers, state, principal, capabilities, task consent, progress. */
  const roundOf = (ctx: ServerContext): RoundRequest => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const { signal } = ctx.mcpReq;
    const requestState = ctx.mcpReq.requestState();
    const capabilities = clientCapabilitiesOf(ctx);
    return {
      inputResponses: ctx.mcpReq.inputResponses,
      requestState,
      principal: options.principal,
      capabilities,
      // the client consents to a task answer (SEP-2663): the extension is defined on 2026-07-28 only
      ...(era === 'modern' && declaresTasks(capabilities) && { tasks: true }),
      // only a state this request's previous round handed to the legacy shim never left the server (what the
      // rounds of a request share is looked up only where it is needed: on a 2025-era connection, for progress)
      ...(era === 'legacy' && roundsOf(signal).isHeld(requestState) && { stateHeldByServer: true }),
      signal,
      ...(progressToken !== undefined && {
        onProgress: ({ message }) => {
          // a cancelled request gets nothing more
          if (signal.aborted) return;
          void ctx.mcpReq
            .notify({ method: 'notifications/progress', params: { progressToken, progress: roundsOf(signal).nextProgress(), message } })
            .catch(options.onError);
        },
      }),
    };
  };

  /** A question a 2025-06-18 host cannot be shown ends a prompt or resource request with this JSON-RPC error. */
  const refuse = (text: string, question: UnaskableQuestion, revision: string | undefined): never => {
    throw new ProtocolError(ErrorCode.InternalError, text, { question: question.key, protocolVersion: revision });
  };

  /**
   * The wire answer of one round: the result, `input_required`, a task handle, or a JSON-RPC error. `what` names
   * the request for a question a 2025-06-18 host cannot be shown, and `unaskable` answers that.
   */
  const answer = <T>(
    outcome: StepOutcome<T>,
    ctx: ServerContext,
    what: string,
    unaskable: (text: string, question: UnaskableQuestion, revision: string | undefined) => T = refuse,
  ) => {
    switch (outcome.type) {
      case 'complete':
        return outcome.result;
      case 'input_required': {
        if (era === 'modern') {
          return { resultType: 'input_required' as const, inputRequests: outcome.inputRequests, requestState: outcome.requestState };
        }
        const revision = legacyRevision();
        const fitted = fitInputRequests(outcome.inputRequests, revision);
        if (!fitted.ok) {
          const text = unaskableMessage(what, fitted.question, revision);
          options.onError(new Error(text));
          return unaskable(text, fitted.question, revision);
        }
        roundsOf(ctx.mcpReq.signal).hand(outcome.requestState);
        return { resultType: 'input_required' as const, inputRequests: fitted.inputRequests, requestState: outcome.requestState };
      }
      case 'task':
        // the flat handle of SEP-2663's CreateTaskResult, answered by tools/call only; the SDK's types (2.4.0) do not
        // know it, its tools/call wrapper passes it on as an extension result type (RoundtripServer drops the
        // `content: []` the wrapper adds)
        return { resultType: 'task', ...outcome.task } as unknown as T;
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
      return answer(outcome, ctx, `The tool '${request.params.name}'`, (text) => ({ content: [{ type: 'text', text }], isError: true }));
    });
  }

  if (capabilities.prompts) {
    server.setRequestHandler('prompts/list', async () => ({ prompts: engine.listPrompts() }));
    server.setRequestHandler('prompts/get', async (request, ctx) =>
      answer(
        await engine.getPrompt({ name: request.params.name, arguments: request.params.arguments, ...roundOf(ctx) }),
        ctx,
        `The prompt '${request.params.name}'`,
      ),
    );
  }

  if (capabilities.resources) {
    server.setRequestHandler('resources/list', async () => ({ resources: engine.listResources() }));
    server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: engine.listResourceTemplates() }));
    server.setRequestHandler('resources/read', async (request, ctx) =>
      answer(await engine.readResource({ uri: request.params.uri, ...roundOf(ctx) }), ctx, `The resource '${request.params.uri}'`),
    );
  }

  if (capabilities.extensions?.[TASKS_EXTENSION]) registerTaskMethods(server, engine, options.principal, clientCapabilitiesOf);

  if (capabilities.completions) {
    server.setRequestHandler('completion/complete', async (request) => {
      const { ref, argument, context } = request.params;
      const outcome = await engine.complete({ ref, argument, ...(context && { context }), principal: options.principal });
      if (outcome.type === 'error') {
        const { code, message, data } = outcome.error;
        throw new ProtocolError(code, message, data);
      }
      return outcome.result;
    });
  }
  return server;
}
