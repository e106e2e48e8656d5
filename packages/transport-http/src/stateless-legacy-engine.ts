import { type ClientCapabilities, type Engine, ErrorCode, type StepOutcome, safeText } from '@roundtrip/engine';
import { decodeLegacySession } from './legacy-session.ts';

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
 * The sentence a 2025-era client over HTTP gets when a round needs the user and it sent no session id of ours
 * (the server answers `initialize` with one that carries what the client declared): what is needed, and how to
 * be asked.
 */
function cannotAskWithoutSession(owner: string, data: unknown, request: Request | undefined): string {
  return (
    `${owner} needs ${whatIsNeeded(data)}, but this request from a client speaking ${revisionOf(request)} carries no ` +
    'Mcp-Session-Id of this server, so the server cannot tell what the client declared at initialize. Use a client that ' +
    'sends back the Mcp-Session-Id its initialize was answered with (and declares elicitation), one that speaks MCP ' +
    '2026-07-28, or connect to this server over stdio.'
  );
}

function rewrite<T>(outcome: StepOutcome<T>, owner: string, request: Request | undefined): StepOutcome<T> {
  if (outcome.type !== 'error' || outcome.error.code !== ErrorCode.MissingRequiredClientCapability) return outcome;
  const { data } = outcome.error;
  return { type: 'error', error: { ...outcome.error, message: cannotAskWithoutSession(owner, data, request) } };
}

/**
 * The engine as a 2025-era request over HTTP meets it when the legacy bridge does not serve it (legacy-routes.ts):
 * a request that cannot ask, or whose client cannot be asked. With a session id of ours, the round sees what the
 * client declared at initialize (a client without elicitation gets the model fallback where every question has
 * one, or the engine's error naming the capability it lacks). Without one, it is run as for a client that declared
 * nothing, and a round that needs the user ends with an error saying the session id is missing and what to do.
 */
export function statelessLegacyEngine(engine: Engine, request: Request | undefined): Engine {
  const session = decodeLegacySession(request?.headers.get('mcp-session-id') ?? null);
  const capabilities = session?.capabilities as ClientCapabilities | undefined;
  const said = <T>(outcome: StepOutcome<T>, owner: string) => (session ? outcome : rewrite(outcome, owner, request));
  // every other method as it is (the engine is a plain object of functions)
  return {
    ...engine,
    callTool: async (call) => said(await engine.callTool({ ...call, capabilities }), `The tool '${safeText(call.name)}'`),
    getPrompt: async (get) => said(await engine.getPrompt({ ...get, capabilities }), `The prompt '${safeText(get.name)}'`),
    readResource: async (read) => said(await engine.readResource({ ...read, capabilities }), `The resource '${safeText(read.uri)}'`),
  };
}
