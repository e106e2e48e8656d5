// What the server remembers about one wire request across its rounds. On a 2025-era connection the
// SDK's legacy shim drives one request through several rounds in-process, calling the handler again
// with the requestState the last round returned; the request's AbortSignal is the same object on
// every such call (the shim copies the context), and belongs to that request only. So it keys what
// one request's rounds share, and the memory goes when the request does.

/** One wire request's rounds. */
export interface RequestRounds {
  /**
   * True when `requestState` is exactly the state the previous round of this very request handed to
   * the legacy shim: it never left the server. A state the client sent itself is never held, even
   * on a 2025-era connection (the SDK lifts a `requestState` param from any request).
   */
  isHeld(requestState: unknown): boolean;
  /** Remembers the state this round hands to the legacy shim for the next round. */
  hand(requestState: string | undefined): void;
  /** The next progress value of this request: 1, 2, 3… across all its rounds. */
  nextProgress(): number;
}

interface Remembered {
  handed: string | undefined;
  progress: number;
}

/** The rounds of requests, by each request's AbortSignal. */
export function createRequestRounds(): (signal: AbortSignal) => RequestRounds {
  const bySignal = new WeakMap<AbortSignal, Remembered>();
  return (signal) => {
    let remembered = bySignal.get(signal);
    if (!remembered) {
      remembered = { handed: undefined, progress: 0 };
      bySignal.set(signal, remembered);
    }
    const memory = remembered;
    return {
      isHeld: (requestState) => typeof requestState === 'string' && memory.handed === requestState,
      hand: (requestState) => {
        memory.handed = requestState;
      },
      nextProgress: () => ++memory.progress,
    };
  };
}
