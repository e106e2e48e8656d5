// Author functions that may be `async`: an async one runs as an invoked actor the round waits for; a sync
// one runs as a guard or an action, where a Promise it returns by mistake cannot be waited for; what an
// error thrown by one says.

/** The function was declared `async`: the flow runs it as an invoked actor, which the round waits for. */
export const isAsyncFunction = (fn: unknown): boolean =>
  typeof fn === 'function' && (fn as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'AsyncFunction';

/** For sync checks and shows run as guards and actions: a Promise there cannot be waited for. */
export function notAPromise<T>(value: T | Promise<T>, what: string): T {
  if (value instanceof Promise) {
    void value.catch(() => undefined);
    throw new TypeError(
      `${what} returned a Promise, but it is not declared async, so it ran where nothing can wait for it. Write it as an async function (async (…) => …): it then runs as an invoked actor the round waits for.`,
    );
  }
  return value;
}

/** What an error thrown by an author's function says in the round's error and the log. */
export const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
