// Which 2025-era POSTs the legacy bridge takes (legacy-bridge.ts) instead of the SDK's stateless fallback:
// answers to the server's requests, and calls that may ask from a client whose session says it can be asked;
// and the session id an `initialize` answer gets, carrying what the client declared (legacy-session.ts).
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { RelayedAnswer } from '@roundtrip/engine';
import { ASKING_METHODS, type LegacyBridge, type LegacyCall } from './legacy-bridge.ts';
import { canBeAsked, decodeLegacySession, encodeLegacySession } from './legacy-session.ts';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON-RPC response: an id, a result or an error, no method. */
const isAnswer = (message: unknown): message is RelayedAnswer =>
  isObject(message) && message.method === undefined && 'id' in message && ('result' in message || 'error' in message);

/** The bridge's answer to a 2025-era POST it takes; undefined for one the SDK serves. */
export async function routeLegacy(
  bridge: LegacyBridge,
  request: Request,
  body: unknown,
  authInfo: AuthInfo | undefined,
): Promise<Response | undefined> {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length > 0 && messages.every(isAnswer)) return bridge.deliver(messages);
  if (!isObject(body) || typeof body.method !== 'string' || !ASKING_METHODS.has(body.method)) return undefined;
  if (typeof body.id !== 'string' && typeof body.id !== 'number') return undefined;
  const session = decodeLegacySession(request.headers.get('mcp-session-id'));
  if (!session || !canBeAsked(session)) return undefined;
  return bridge.serve(request, body as unknown as LegacyCall, session, authInfo);
}

/** The JSON-RPC message of an answer sent as JSON or as the data of one SSE event. */
function messageOf(text: string): unknown {
  const data = text.trimStart().startsWith('{') ? text : /^data: ?(.*)$/m.exec(text)?.[1];
  try {
    return data === undefined ? undefined : JSON.parse(data);
  } catch {
    return undefined;
  }
}

/**
 * The SDK's answer to a 2025-era `initialize`, with an `Mcp-Session-Id` that carries what the client declared
 * and the revision agreed on: the client sends it back on every request, so any instance can ask it.
 */
export async function withLegacySession(response: Response, body: unknown): Promise<Response> {
  if (!isObject(body) || body.method !== 'initialize' || !isObject(body.params) || response.status !== 200) return response;
  const text = await response.text();
  const answer = messageOf(text);
  const agreed = isObject(answer) && isObject(answer.result) ? answer.result.protocolVersion : undefined;
  const { capabilities, clientInfo } = body.params;
  const id =
    typeof agreed === 'string'
      ? encodeLegacySession(
          {
            protocolVersion: agreed,
            capabilities: isObject(capabilities) ? capabilities : {},
            clientInfo: isObject(clientInfo)
              ? { name: String(clientInfo.name ?? 'unknown'), version: String(clientInfo.version ?? '0') }
              : { name: 'unknown', version: '0' },
          },
          crypto.getRandomValues(new Uint8Array(9)),
        )
      : undefined;
  const headers = new Headers(response.headers);
  if (id !== undefined) headers.set('mcp-session-id', id);
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}
