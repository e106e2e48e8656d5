// What a demo server wrote to stderr, read as it arrives: the whole log so far, and a wait for the next
// complete line matching a pattern. Shared by the client that starts the server as a process
// (connect-demo-client.ts) and the tests that run it in their own process on in-memory stdio.

export interface ServerLogReader {
  /** Adds what the server wrote (a chunk of its stderr). */
  append(chunk: Buffer | string): void;
  /** Everything written so far. */
  log(): string;
  /**
   * The first complete line matching `pattern`, from character `from` of the log (default: any line so far or
   * to come); rejects after `timeoutMs` (default 2000), naming the pattern.
   */
  waitForLog(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<string>;
}

export function createServerLogReader(): ServerLogReader {
  let log = '';
  const waiters = new Set<() => void>();
  return {
    append: (chunk) => {
      log += chunk.toString();
      for (const check of waiters) check();
    },
    log: () => log,
    waitForLog: (pattern, { from = 0, timeoutMs = 2000 } = {}) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const complete = log.slice(from, log.lastIndexOf('\n') + 1);
          const line = complete.split('\n').find((l) => pattern.test(l));
          if (line === undefined) return;
          finish();
          resolve(line);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`the server wrote no line matching ${pattern} to stderr within ${timeoutMs} ms`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
  };
}
