// One timer for every round that waits for its machine with a deadline (settle-actor.ts). A round settles
// in milliseconds and its deadline is seconds away, so a timer of its own was set and cleared for every
// wait; here a wait is an entry in a set, and the one timer is set for the earliest deadline, and again
// for the next when it fires. It holds the process open only while someone waits, as a timer per wait did.

interface Deadline {
  /** When the wait ends, in performance.now() ms. */
  readonly at: number;
  readonly expire: () => void;
}

const waiting = new Set<Deadline>();
let timer: ReturnType<typeof setTimeout> | undefined;
/** The deadline `timer` fires for (Infinity when none is set). */
let timerAt = Number.POSITIVE_INFINITY;

/** Fires for the deadlines that have come, earliest first (as timers of their own would), and sets the timer for the next. */
function fire(): void {
  timer = undefined;
  timerAt = Number.POSITIVE_INFINITY;
  const now = performance.now();
  const due: Deadline[] = [];
  let earliest = Number.POSITIVE_INFINITY;
  for (const deadline of waiting) {
    if (deadline.at <= now) due.push(deadline);
    else if (deadline.at < earliest) earliest = deadline.at;
  }
  due.sort((a, b) => a.at - b.at);
  for (const deadline of due) {
    waiting.delete(deadline);
    deadline.expire();
  }
  if (earliest !== Number.POSITIVE_INFINITY) setFor(earliest);
}

/** Whether the timer holds the process open (Node's timers; elsewhere a timer is a number, and this does nothing). */
function hold(yes: boolean): void {
  const handle = timer as { ref?: () => void; unref?: () => void } | number | undefined;
  if (typeof handle !== 'object') return;
  if (yes) handle.ref?.();
  else handle.unref?.();
}

function setFor(at: number): void {
  if (timer !== undefined) {
    if (timerAt <= at) return;
    clearTimeout(timer);
  }
  timerAt = at;
  timer = setTimeout(fire, Math.max(0, at - performance.now()));
}

/**
 * Calls `expire` once `ms` milliseconds have passed, unless the returned function is called first (it
 * cancels the wait; calling it again, or after `expire`, does nothing).
 *
 * @example
 * const cancel = afterDeadline(10_000, () => finish('timeout'));
 */
export function afterDeadline(ms: number, expire: () => void): () => void {
  const deadline: Deadline = { at: performance.now() + ms, expire };
  if (waiting.size === 0) hold(true);
  waiting.add(deadline);
  setFor(deadline.at);
  return () => {
    // the timer stays set for the deadline it was set for; with no one waiting it holds nothing open
    if (waiting.delete(deadline) && waiting.size === 0) hold(false);
  };
}
