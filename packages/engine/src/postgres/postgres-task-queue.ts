// The job queue of task work for servers sharing one PostgreSQL database, on pg-boss 12: a job per task (at
// most one queued or running, `exclusive` on the task id), a lease renewed while the work runs (pg-boss's
// heartbeat), so that the task of a server that died goes to another within a minute; a cancel that fires the
// work's signal wherever it runs; jobs announced with NOTIFY, new ones and those a stopping server hands back.
// pg-boss keeps its tables in their own schema.
import type { TaskQueue, TaskWork } from '../task-queue.ts';
import { redactUrl } from './ledger-errors.ts';
import { parsePostgresUrl } from './postgres-url.ts';

export interface PostgresTaskQueueOptions {
  /** The server and database (the task store's): `postgres://user:password@host:5432/database`. */
  url: string;
  /**
   * The schema pg-boss keeps its tables in (created on first start). @defaultValue `<schema>_jobs` when the URL
   * sets a search_path (`?options=-c search_path=<schema>`: deployments kept apart by schema keep their queues
   * apart too), else 'roundtrip_jobs'
   */
  schema?: string;
  /**
   * How long a running task's lease lasts unless renewed (it is renewed every third of it while the work runs):
   * the task of a server that died is taken by another after about this plus `checkIntervalSeconds`. A whole
   * number from 10. @defaultValue 30
   */
  leaseSeconds?: number;
  /**
   * How often leases that ran out, and jobs to take, are looked for (new jobs also arrive by NOTIFY): a whole
   * number from 1. @defaultValue a tenth of `leaseSeconds`, from 1 to 5 (1 with a 10 s lease, 3 with the default
   * 30 s, 5 from 50 s): a short lease is asked for a quick takeover, which a 5 s wait would half undo
   */
  checkIntervalSeconds?: number;
  /** Tasks whose work this server runs at once. @defaultValue 10 */
  concurrency?: number;
  /** Connections at most in the queue's pool (one more listens for NOTIFY). @defaultValue 4 */
  maxConnections?: number;
  /** Where the queue reports what happens outside any call (a lost connection). @defaultValue process.emitWarning */
  onWarning?: (message: string) => void;
}

/** A {@link TaskQueue} on pg-boss in PostgreSQL. */
export interface PostgresTaskQueue extends TaskQueue {
  /** Stops taking jobs and closes the pool, waiting up to 10 s for work still running (then handed back). */
  close(): Promise<void>;
  /** The URL, without its password. */
  readonly url: string;
  /** The schema of pg-boss's tables. */
  readonly schema: string;
  /** How often, in seconds, leases that ran out and jobs to take are looked for. */
  readonly checkIntervalSeconds: number;
}

const QUEUE = 'roundtrip-task';
/** pg-boss's ceiling for one job: a task's work that runs longer is handed to a server again from where it last settled. */
const JOB_CEILING_SECONDS = 86_400;
const LIVE_STATES = new Set(['created', 'retry', 'active']);
interface TaskJob {
  taskId: string;
}

function checkedWhole(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min)
    throw new Error(`createPostgresTaskQueue: '${name}' is ${String(value)}; give a whole number from ${min} (default ${fallback}).`);
  return value;
}

/** A tenth of the lease, from 1 to 5 s: the takeover of a dead server's task waits about the lease plus this. */
const defaultCheckSeconds = (leaseSeconds: number) => Math.min(5, Math.max(1, Math.round(leaseSeconds / 10)));

/** `<schema>_jobs` for the first schema of the URL's search_path, if it sets one; else 'roundtrip_jobs'. */
function queueSchemaOf(url: URL): string {
  const searchPath = /(?:^|\s)-c\s*search_path\s*=\s*"?([A-Za-z_][A-Za-z0-9_]*)/.exec(url.searchParams.get('options') ?? '')?.[1];
  return searchPath ? `${searchPath.toLowerCase()}_jobs` : 'roundtrip_jobs';
}

async function loadPgBoss(): Promise<typeof import('pg-boss')> {
  try {
    return await import('pg-boss');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(
      "Tasks across servers on PostgreSQL need the package 'pg-boss' (version 12), which is not installed. Install it beside 'pg': npm install pg-boss@12",
    );
  }
}

/**
 * Opens the job queue in the PostgreSQL database at `options.url` (creating or migrating pg-boss's schema first:
 * servers that start together take turns). Give it to the engine with the task store on the same database; the
 * engine's `resumeTasks()` starts taking jobs, and `engine.close()` hands the running ones back.
 *
 * @throws Error naming the server (never its password) and what to do, when pg-boss is missing or it cannot connect.
 *
 * @example
 * import { createPostgresTaskQueue, createPostgresTaskStore } from '@roundtrip/engine/postgres';
 *
 * const store = await createPostgresTaskStore({ url: process.env.DATABASE_URL! });
 * const queue = await createPostgresTaskQueue({ url: process.env.DATABASE_URL! });
 * const engine = createEngine({ tools, keyring, audience: 'orders', tasks: { store, queue } });
 * await engine.resumeTasks();
 * // on shutdown: the engine first (its running tasks go back to the queue), then the queue and the store
 * await engine.close();
 * await queue.close();
 * await store.close();
 */
export async function createPostgresTaskQueue(options: PostgresTaskQueueOptions): Promise<PostgresTaskQueue> {
  const leaseSeconds = checkedWhole('leaseSeconds', options.leaseSeconds, 30, 10);
  const checkSeconds = checkedWhole('checkIntervalSeconds', options.checkIntervalSeconds, defaultCheckSeconds(leaseSeconds), 1);
  const concurrency = checkedWhole('concurrency', options.concurrency, 10, 1);
  const maxConnections = checkedWhole('maxConnections', options.maxConnections, 4, 1);
  const parsed = parsePostgresUrl(options.url, 'createPostgresTaskQueue');
  const schema = options.schema ?? queueSchemaOf(parsed);
  const url = redactUrl(parsed);
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message));
  const { PgBoss } = await loadPgBoss();
  const boss = new PgBoss({
    connectionString: options.url,
    schema,
    max: maxConnections,
    application_name: 'roundtrip-tasks',
    useListenNotify: true,
    // how often a lease that ran out is found (its job then goes to another server)
    superviseIntervalSeconds: checkSeconds,
    monitorIntervalSeconds: checkSeconds,
  });
  boss.on('error', (error: Error) => warn(`roundtrip tasks: the job queue at ${url} failed: ${error.message}`));
  boss.on('warning', (warning: { message: string }) => warn(`roundtrip tasks: the job queue at ${url}: ${warning.message}`));
  try {
    await boss.start();
    if (!(await boss.getQueue(QUEUE))) {
      await boss
        .createQueue(QUEUE, {
          policy: 'exclusive',
          heartbeatSeconds: leaseSeconds,
          expireInSeconds: JOB_CEILING_SECONDS,
          // a job fails only when its work was handed back (a server stopping or losing its lease): run it again
          retryLimit: 1000,
          retryDelay: 0,
          deleteAfterSeconds: 3_600,
          notify: true,
        })
        // another server created it at the same moment
        .catch(async (error: unknown) => {
          if (!(await boss.getQueue(QUEUE))) throw error;
        });
    }
  } catch (error) {
    await boss.stop({ graceful: false, close: true }).catch(() => {});
    throw new Error(
      `Could not open the task queue in the PostgreSQL database at ${url} (schema '${schema}'): ${(error as Error).message}. Check that the server is up, the URL is right and its user may create a schema.`,
    );
  }
  let closed = false;
  /** Set once this server stops taking jobs: work that stops then is handed back to the others. */
  let stopping = false;
  return {
    url,
    schema,
    checkIntervalSeconds: checkSeconds,
    async dispatch(taskId) {
      // null: a job for this task is queued or running already
      await boss.send(QUEUE, { taskId } satisfies TaskJob, { singletonKey: taskId });
    },
    async work(work: TaskWork) {
      await boss.work<TaskJob>(
        QUEUE,
        {
          batchSize: 1,
          localConcurrency: concurrency,
          pollingIntervalSeconds: checkSeconds,
          notifyPollingIntervalSeconds: checkSeconds,
          heartbeatRefreshSeconds: Math.max(1, Math.floor(leaseSeconds / 3)),
        },
        async ([job]) => {
          if (!job) return;
          try {
            await work(job.data.taskId, job.signal);
          } catch (error) {
            // work stopped because this server stops: handed back. Recorded as this attempt's failure (a retry,
            // due at once), then the job is touched so that the other servers hear of it by NOTIFY instead of at
            // their next look. Any other failure takes pg-boss's way, the next look (no storm of retries).
            if (!stopping) throw error;
            await boss.fail(QUEUE, job, { message: (error as Error).message });
            await boss.update(QUEUE, undefined, { id: job.id }).catch((woken: unknown) => {
              warn(
                `roundtrip tasks: the job queue at ${url} could not announce task ${job.data.taskId} handed back (${(woken as Error).message}); the other servers take it when they next look for jobs, within ${checkSeconds} s.`,
              );
            });
          }
        },
      );
      return {
        stop: () => {
          stopping = true;
          return boss.offWork(QUEUE, { wait: false });
        },
      };
    },
    async cancel(taskId) {
      const live = (await boss.findJobs<TaskJob>(QUEUE, { key: taskId })).filter((job) => LIVE_STATES.has(job.state));
      if (live.length === 0) return 'none';
      await boss.cancel(
        QUEUE,
        live.map((job) => job.id),
      );
      return live.some((job) => job.state === 'active') ? 'running' : 'none';
    },
    async close() {
      if (closed) return;
      closed = true;
      stopping = true;
      await boss.stop({ graceful: true, timeout: 10_000, close: true });
    },
  };
}
