// Sends each round's report to an inspector page (ROUNDTRIP_INSPECT=<its address>), never in the way
// of the server: one request in flight, a bounded queue, a short timeout, and silence while it is down.
import type { EngineLogEntry, RoundReport } from '@roundtrip/engine';

/** Reports waiting to be sent at most; older ones are dropped first. */
const QUEUE_LIMIT = 200;
/** How long one report may take to deliver before it is given up. */
const SEND_TIMEOUT_MS = 2_000;

export interface InspectReporter {
  /** Queues a report; returns at once. */
  report(report: RoundReport): void;
  /** Resolves when the queue is empty (or the inspector failed); for tests and shutdown. */
  flushed(): Promise<void>;
}

/**
 * A reporter posting `{ server, report }` as JSON to `<address>/api/rounds`. A failed delivery logs one
 * warning per outage and drops the queue; the next report tries again.
 */
export function createInspectReporter(
  address: string,
  server: string,
  log: (entry: Omit<EngineLogEntry, 'target'>) => void,
): InspectReporter {
  const endpoint = new URL('/api/rounds', address).href;
  const queue: RoundReport[] = [];
  let sending: Promise<void> | undefined;
  let down = false;
  const drain = async () => {
    while (queue.length > 0) {
      const report = queue.shift()!;
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ server, report }),
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        await response.body?.cancel();
        if (!response.ok) throw new Error(`it answered ${response.status}`);
        if (down) log({ level: 'info', event: 'inspector', message: `inspector at ${address} reachable again` });
        down = false;
      } catch (error) {
        if (!down) {
          log({
            level: 'warn',
            event: 'inspector',
            message: `inspector at ${address} not reachable (${(error as Error).message}); round reports are dropped until it is`,
          });
        }
        down = true;
        queue.length = 0;
      }
    }
  };
  // a report queued between the drain's last check and its end is sent by the next drain, not stranded
  const kick = () => {
    sending ??= drain().finally(() => {
      sending = undefined;
      if (queue.length > 0) kick();
    });
  };
  return {
    report: (report) => {
      if (queue.length >= QUEUE_LIMIT) queue.shift();
      queue.push(report);
      kick();
    },
    flushed: async () => {
      while (sending) await sending;
    },
  };
}
