// Turns on the SQLite ledger's one connection. An effect that runs in the ledger's transaction keeps that
// transaction open across its awaits; every other use of the connection meanwhile (a claim, an outcome, a
// read, another effect's transaction) would run inside it, and be rolled back or committed with it. So
// while a transaction is open, the others wait here, first come first served.

export interface ConnectionTurns {
  /** True while someone holds the connection (a transaction is open, or about to be). */
  readonly busy: boolean;
  /**
   * Resolves when the connection is this caller's; it then holds it until it calls `give`. Rejects with
   * `tooLong()` if that takes more than `timeoutMs`.
   */
  take(timeoutMs: number, tooLong: () => unknown): Promise<void>;
  /** Hands the connection to the next waiter, or frees it. */
  give(): void;
  /** Runs `work` (synchronous) now if the connection is free, else in its turn, as `take` waits. */
  inTurn<T>(timeoutMs: number, tooLong: () => unknown, work: () => T): T | Promise<T>;
}

export function createConnectionTurns(): ConnectionTurns {
  let held = false;
  const waiters: Array<() => void> = [];
  const turns: ConnectionTurns = {
    get busy() {
      return held;
    },
    take(timeoutMs, tooLong) {
      if (!held) {
        held = true;
        return Promise.resolve();
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const at = waiters.indexOf(turn);
          if (at >= 0) waiters.splice(at, 1);
          reject(tooLong());
        }, timeoutMs);
        timer.unref?.();
        const turn = () => {
          clearTimeout(timer);
          resolve();
        };
        waiters.push(turn);
      });
    },
    give() {
      // handed over directly: the connection stays held, so nobody slips in before the next waiter runs
      const next = waiters.shift();
      if (next) next();
      else held = false;
    },
    inTurn(timeoutMs, tooLong, work) {
      if (!held) return work();
      return turns.take(timeoutMs, tooLong).then(() => {
        try {
          return work();
        } finally {
          turns.give();
        }
      });
    },
  };
  return turns;
}
