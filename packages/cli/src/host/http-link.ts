// The link to a server already running at a URL: the SDK's Streamable HTTP transport, sending the
// person's --header's on every request, over a fetch that notes how the last exchange failed (no server
// at the address, an HTTP status, a reply that is not MCP). The SDK's errors do not always carry that
// (a pinned 2026-07-28 client reports a 404 as "the server did not offer the version"), so failures are
// explained from what was seen on the wire.
import { type FetchLike, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { UrlTarget } from './host-args.ts';

/** How the last request to the server failed. */
export type HttpFailure =
  /** No HTTP answer: refused, no such host, TLS, reset; `code` as Node names it (ECONNREFUSED …). */
  | { readonly kind: 'unreachable'; readonly code?: string; readonly reason: string }
  /** An HTTP status that is not success; its WWW-Authenticate and Location headers, and the start of its body. */
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly statusText: string;
      readonly challenge?: string;
      readonly location?: string;
      readonly body: string;
    }
  /** A success whose body is neither JSON nor an event stream: not an MCP endpoint. */
  | { readonly kind: 'content'; readonly contentType: string };

export interface HttpLink {
  readonly transport: StreamableHTTPClientTransport;
  /** How the last request failed; undefined when it was answered. */
  failure(): HttpFailure | undefined;
}

/** How much of a refusal's body is kept, to show its reason. */
const BODY_KEPT = 2_000;

/** The innermost error with a `code` (fetch wraps the socket's error in `cause`). */
function unreachable(error: unknown): HttpFailure {
  let reason = error instanceof Error ? error.message : String(error);
  let code: string | undefined;
  for (let at: unknown = error; at instanceof Error; at = at.cause) {
    const own = (at as { code?: unknown }).code;
    if (typeof own === 'string') code = own;
    reason = at.message;
  }
  return { kind: 'unreachable', ...(code !== undefined && { code }), reason };
}

const MCP_CONTENT = /^(application\/json|text\/event-stream)\b/i;

/** The transport to `target.url`, with its headers sent on every request. */
export function openHttpLink(target: UrlTarget): HttpLink {
  let failure: HttpFailure | undefined;
  const noting: FetchLike = async (url, init) => {
    // POSTs carry the messages; the 2025 SSE stream's GET may be refused (405) by a stateless server, as it should
    const posting = init?.method === 'POST';
    if (posting) failure = undefined;
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      if (posting && init?.signal?.aborted !== true) failure = unreachable(error);
      throw error;
    }
    if (!posting) return response;
    if (!response.ok) {
      const challenge = response.headers.get('www-authenticate');
      const location = response.headers.get('location');
      failure = {
        kind: 'status',
        status: response.status,
        statusText: response.statusText,
        ...(challenge !== null && { challenge }),
        ...(location !== null && { location }),
        body: (
          await response
            .clone()
            .text()
            .catch(() => '')
        ).slice(0, BODY_KEPT),
      };
    } else if (response.status !== 202 && !MCP_CONTENT.test(response.headers.get('content-type') ?? '')) {
      failure = { kind: 'content', contentType: response.headers.get('content-type') ?? 'no content type' };
    }
    return response;
  };
  const headers = Object.fromEntries(target.headers.map(({ name, value }) => [name, value]));
  return {
    transport: new StreamableHTTPClientTransport(target.url, { requestInit: { headers }, fetch: noting }),
    failure: () => failure,
  };
}
