import type { IncomingMessage } from 'node:http';

/** A body read whole, one grown over the limit (the rest left unread), or one the client never finished. */
export type LimitedBody = { ok: true; chunks: Buffer[] } | { ok: false; reason: 'too_large' | 'gone' };

/**
 * Reads `request`'s body, counting the bytes as they arrive: once they grow over `limit`, reading stops
 * and the rest is left unread (the caller answers 413 and closes the connection), so no more than
 * `limit` bytes of one request are ever held, with or without a declared length.
 */
export function readLimitedBody(request: IncomingMessage, limit: number): Promise<LimitedBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const settle = (result: LimitedBody) => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received <= limit) {
        chunks.push(chunk);
        return;
      }
      request.pause();
      chunks.length = 0;
      settle({ ok: false, reason: 'too_large' });
    };
    const onEnd = () => settle({ ok: true, chunks });
    const onGone = () => settle({ ok: false, reason: 'gone' });
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('close', onGone);
  });
}
