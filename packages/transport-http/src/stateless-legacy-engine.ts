import { type Engine, ErrorCode, type StepOutcome, safeText } from '@roundtrip/engine';

/** What a round that cannot ask needs, named from the capabilities -32021 lists. */
function whatIsNeeded(data: unknown): string {
  const required = (data as { requiredCapabilities?: Record<string, unknown> } | undefined)?.requiredCapabilities ?? {};
  const needs = [
    'elicitation' in required && 'to ask the user (elicitation/create)',
    'sampling' in required && "the client's model (sampling/createMessage)",
    'roots' in required && "the client's roots (roots/list)",
  ].filter((need): need is string => typeof need === 'string');
  return needs.length > 0 ? needs.join(' and ') : 'input from the client';
}

/** A revision as the client's `MCP-Protocol-Version` header names it, or a description when it names none. */
function revisionOf(request: Request | undefined): string {
  const header = request?.headers.get('mcp-protocol-version') ?? '';
  return /^\d{4}-\d{2}-\d{2}$/.test(header) ? `MCP ${header}` : 'a 2025-era revision of MCP';
}

/**
 * The sentence a 2025-era client over stateless HTTP gets when a round needs the user and no fallback
 * serves: the revision it speaks, why this transport cannot ask it, and what to use instead.
 */
function cannotAskOverStatelessHttp(owner: string, data: unknown, request: Request | undefined): string {
  return (
    `${owner} needs ${whatIsNeeded(data)}, but this client speaks ${revisionOf(request)} over stateless HTTP, where the server ` +
    'cannot send it requests of its own: every request is answered by whichever instance receives it, with no connection ' +
    'to ask the user on. Use a client that speaks MCP 2026-07-28 (it answers the questions in its next request), or ' +
    'connect to this server over stdio.'
  );
}

function rewrite<T>(outcome: StepOutcome<T>, owner: string, request: Request | undefined): StepOutcome<T> {
  if (outcome.type !== 'error' || outcome.error.code !== ErrorCode.MissingRequiredClientCapability) return outcome;
  const { data } = outcome.error;
  return { type: 'error', error: { ...outcome.error, message: cannotAskOverStatelessHttp(owner, data, request) } };
}

/**
 * The engine as a 2025-era request over stateless HTTP meets it. The SDK serves such a request on a
 * fresh instance that never saw the client's `initialize`, and cannot send it `elicitation/create`
 * (there is no connection to send it on); so every round is run as for a client that declared no
 * capabilities: a round whose questions all declare a model fallback is put to the model (the tool
 * result tells it what to ask and how to call again), and any other round that needs the user ends
 * with an error naming the revision and what to do, instead of the engine's "did not declare".
 */
export function statelessLegacyEngine(engine: Engine, request: Request | undefined): Engine {
  // every other method as it is (the engine is a plain object of functions)
  return {
    ...engine,
    callTool: async (call) =>
      rewrite(await engine.callTool({ ...call, capabilities: undefined }), `The tool '${safeText(call.name)}'`, request),
    getPrompt: async (get) =>
      rewrite(await engine.getPrompt({ ...get, capabilities: undefined }), `The prompt '${safeText(get.name)}'`, request),
    readResource: async (read) =>
      rewrite(await engine.readResource({ ...read, capabilities: undefined }), `The resource '${safeText(read.uri)}'`, request),
  };
}
