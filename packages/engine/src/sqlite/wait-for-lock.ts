// Waiting for a SQLite lock without blocking the event loop: SQLite's own busy handler sleeps the
// thread (every request of the process would wait); this tries again on timers instead.

const FIRST_DELAY_MS = 1;
const MAX_DELAY_MS = 50;

/**
 * Runs `work` (sync or async) again and again, with a backoff from 1 ms to 50 ms between tries, while it throws an
 * error `isBusy` accepts; resolves with its first result. After `timeoutMs` the last busy error is
 * passed to `giveUp` and what it returns is thrown. Errors that are not busy errors are thrown at once.
 */
export async function waitForLock<T>(
  work: () => T | Promise<T>,
  isBusy: (error: unknown) => boolean,
  timeoutMs: number,
  giveUp: (error: unknown) => unknown,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delay = FIRST_DELAY_MS;
  for (;;) {
    const left = deadline - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(delay, left))));
    try {
      return await work();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() >= deadline) throw giveUp(error);
    }
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}
