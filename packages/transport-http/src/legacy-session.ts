// The session of a 2025-era client over HTTP, kept by the client, not the server: what it declared at
// `initialize` (its revision, capabilities and name) travels in the `Mcp-Session-Id` the server answers with,
// which the client sends on every later request, so that whichever instance receives a call knows how the
// client can be asked, without memory shared between instances. Not a secret and not trusted for anything but
// that: a client can declare what it likes at initialize anyway; who it is comes from its token.
import { decodeBase64url, encodeBase64url } from './base64url.ts';

/** What a 2025-era client declared at initialize. */
export interface LegacySession {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string };
}

const PREFIX = 'rt1s.';
/** A longer session id is not made: the client then gets none (and cannot be asked over HTTP). */
const MAX_LENGTH = 4096;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The `Mcp-Session-Id` for what the client declared; undefined when it would be too long for a header. */
export function encodeLegacySession(session: LegacySession, nonce: Uint8Array): string | undefined {
  const body = encodeBase64url(encoder.encode(JSON.stringify({ ...session, n: encodeBase64url(nonce) })));
  const id = `${PREFIX}${body}`;
  return id.length <= MAX_LENGTH ? id : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What an `Mcp-Session-Id` of ours says; undefined for any other header value. */
export function decodeLegacySession(header: string | null): LegacySession | undefined {
  if (header === null || !header.startsWith(PREFIX) || header.length > MAX_LENGTH) return undefined;
  const bytes = decodeBase64url(header.slice(PREFIX.length));
  if (!bytes) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || typeof parsed.protocolVersion !== 'string' || !isObject(parsed.capabilities)) return undefined;
  const info = isObject(parsed.clientInfo) ? parsed.clientInfo : {};
  return {
    protocolVersion: parsed.protocolVersion,
    capabilities: parsed.capabilities,
    clientInfo: {
      name: typeof info.name === 'string' ? info.name : 'unknown',
      version: typeof info.version === 'string' ? info.version : '0',
    },
  };
}

/** Whether the client declared a way to be asked: elicitation, sampling or roots. */
export const canBeAsked = (session: LegacySession): boolean =>
  ['elicitation', 'sampling', 'roots'].some((capability) => capability in session.capabilities);
