// Sends each round's report, and each change of a task, to an inspector page (ROUNDTRIP_INSPECT=<its address>),
// never in the way of the server: one request in flight, a bounded queue, a short timeout, and silence while
// it is down.
import type { EngineLogEntry, RoundReport, TaskReport } from '@roundtrip/engine';

/** Reports waiting to be sent at most; older ones are dropped first. */
const QUEUE_LIMIT = 200;
/** How long one report may take to deliver before it is given up. */
const SEND_TIMEOUT_MS = 2_000;

export interface InspectReporter {
  /** Queues a round's report; returns at once. */
  report(report: RoundReport): void;
  /** Queues a task's report (the engine's `inspectTasks`); returns at once. */
  reportTask(report: TaskReport): void;
  /** Resolves when the queue is empty (or the inspector failed); for tests and shutdown. */
  flushed(): Promise<void>;
}

/** One report waiting: where it goes and the body posted there. */
interface Queued {
  readonly kind: 'round' | 'task';
  readonly body: string;
}

/**
 * A reporter posting `{ server, report }` as JSON to `<address>/api/rounds`, and `{ server, task }` to
 * `<address>/api/tasks`. A failed delivery logs one warning per outage and drops the queue; the next report
 * tries again. An inspector from before tasks (404 on /api/tasks) is told no more tasks, said once.
 */
export function createInspectReporter(
  address: string,
  server: string,
  log: (entry: Omit<EngineLogEntry, 'target'>) => void,
): InspectReporter {
  const endpoints = { round: new URL('/api/rounds', address).href, task: new URL('/api/tasks', address).href };
  const queue: Queued[] = [];
  let sending: Promise<void> | undefined;
  let down = false;
  let tasksShown = true;
  const drain = async () => {
    while (queue.length > 0) {
      const { kind, body } = queue.shift()!;
      // queued before the inspector said it shows no tasks
      if (kind === 'task' && !tasksShown) continue;
      try {
        const response = await fetch(endpoints[kind], {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        await response.body?.cancel();
        if (kind === 'task' && response.status === 404) {
          if (tasksShown) {
            const message = `inspector at ${address} shows no tasks (it is older than this server); task reports are not sent to it`;
            log({ level: 'info', event: 'inspector', message });
          }
          tasksShown = false;
        } else if (!response.ok) throw new Error(`it answered ${response.status}`);
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
  const enqueue = (queued: Queued) => {
    if (queue.length >= QUEUE_LIMIT) queue.shift();
    queue.push(queued);
    kick();
  };
  return {
    report: (report) => enqueue({ kind: 'round', body: JSON.stringify({ server, report }) }),
    reportTask: (task) => {
      if (tasksShown) enqueue({ kind: 'task', body: JSON.stringify({ server, task }) });
    },
    flushed: async () => {
      while (sending) await sending;
    },
  };
}
