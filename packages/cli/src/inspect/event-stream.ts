// Server-Sent Events to every open page: each new round as one `round` event and each task's latest change
// as one `task` event, a comment every 15 s so idle connections stay open, and every stream ended when the
// inspector stops.
import type { ServerResponse } from 'node:http';

const HEARTBEAT_MS = 15_000;

export interface EventStream {
  /** Keeps `response` open as an event stream until the page goes or the inspector stops. */
  attach(response: ServerResponse): void;
  /** Sends `data` (as JSON) to every open page. */
  send(event: string, data: unknown): void;
  /** Ends every stream. */
  close(): void;
}

export function createEventStream(): EventStream {
  const open = new Set<ServerResponse>();
  const heartbeat = setInterval(() => {
    for (const response of open) response.write(': ping\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    attach(response) {
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      response.write(': connected\n\n');
      open.add(response);
      response.on('close', () => open.delete(response));
    },
    send(event, data) {
      const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const response of open) response.write(frame);
    },
    close() {
      clearInterval(heartbeat);
      for (const response of open) response.end();
      open.clear();
    },
  };
}
