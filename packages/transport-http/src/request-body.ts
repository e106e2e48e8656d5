// A request's body, read once by the transport (on Node by the listener, elsewhere from the web `Request`),
// counted against the limit as it arrives and parsed here, so that the SDK is handed JSON and never reads
// or parses a body itself: a body that is not JSON is refused with its size in the log, never a piece of it.

/** A body read whole (`undefined` when there was none), one grown over the limit, or one that could not be read. */
export type BodyRead = { ok: true; bytes: Uint8Array | undefined } | { ok: false; reason: 'too_large' | 'unreadable' };

/**
 * Reads a web `Request`'s body, counting the bytes as they arrive: once they grow over `limit`, reading
 * stops and the rest is cancelled unread, so no more than `limit` bytes of one request are ever held.
 */
export async function readWebBody(request: Request, limit: number): Promise<BodyRead> {
  if (request.body === null) return { ok: true, bytes: undefined };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > limit) {
        reader.cancel().catch(() => {});
        return { ok: false, reason: 'too_large' };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  if (chunks.length <= 1) return { ok: true, bytes: chunks[0] };
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** A body's JSON, or its size when it is empty or not JSON. */
export type ParsedBody = { ok: true; value: unknown } | { ok: false; bytes: number };

// as the SDK reads a body: UTF-8, a byte order mark dropped, malformed sequences replaced
const utf8 = new TextDecoder();

/** Parses a body as the SDK would (UTF-8, a byte order mark dropped): its JSON, or its size in bytes when there is none. */
export function parseJsonBody(bytes: Uint8Array | undefined): ParsedBody {
  try {
    return { ok: true, value: JSON.parse(bytes === undefined ? '' : utf8.decode(bytes)) };
  } catch {
    return { ok: false, bytes: bytes?.byteLength ?? 0 };
  }
}
