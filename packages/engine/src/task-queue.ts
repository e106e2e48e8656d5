// Where the work of tasks (SEP-2663) runs when several processes serve one task store: a job queue hands each
// task's work to one process at a time, keeps a lease on it while it runs, gives it to another process when the
// one running it dies, and stops it wherever it runs when the task is cancelled. createPostgresTaskQueue
// (@roundtrip/engine/postgres) is one, on pg-boss; without a queue a task's work runs in the process that
// started it.

/** Runs one task's work to where it settles (done, parked on questions, failed) or until `signal` fires. */
export type TaskWork = (taskId: string, signal: AbortSignal) => Promise<void>;

/** A job queue for task work, shared by every process that serves the same task store. */
export interface TaskQueue {
  /**
   * Asks for the task's work to run on some process. At most one job per task is queued or running at a
   * time: asking again while one is, does nothing.
   */
  dispatch(taskId: string): Promise<void>;
  /**
   * Starts taking jobs in this process: `work` runs each. A job whose `work` rejects is given to a process
   * again (the work was handed back); one whose `work` resolves is done. Resolves once jobs are taken;
   * `stop` stops taking new ones (the running ones run on until they settle or their signal fires).
   */
  work(work: TaskWork): Promise<{ stop(): Promise<void> }>;
  /**
   * Stops the task's work wherever it runs (its signal fires there) and drops a job not started yet.
   * Resolves to 'running' when a process is running it (that process records the task cancelled once the
   * work stopped), 'none' when no job was running (the caller records it cancelled).
   */
  cancel(taskId: string): Promise<'running' | 'none'>;
}
