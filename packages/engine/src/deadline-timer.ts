// One timer for every round that waits for its machine with a deadline (settle-actor.ts). A round settles
// in milliseconds and its deadline is seconds away, so a timer of its own was set and cleared for every
// wait; here a wait is an entry in a set, and the one timer is set for the earliest deadline, and again
// for the next when it fires. It holds the process open only while someone waits, as a timer per wait did.
// A timer set through another setTimeout than the current one (a test's fake timers installed or removed
// since) is left to itself, and a new one is set through the current one.

interface Deadline {
  /** When the wait ends, in performance.now() ms. */
  readonly at: number;
  readonly expire: () => void;
}

type Timer = ReturnType<typeof setTimeout>;

const waiting = new Set<Deadline>();
let timer: Timer | undefined;
/** The deadline `timer` fires for (Infinity when none is set), and the setTimeout that set it. */
let timerAt = Number.POSITIVE_INFINITY;
let timerSetWith: typeof setTimeout | undefined;

/** Fires for the deadlines that have come, earliest first (as timers of their own would), and sets the timer for the next. */
function fire(): void {
  // the deadline the timer was set for has come, whatever performance.now() says (fake timers may move
  // setTimeout's clock and not performance's; the default fakes of vitest and Jest move both)
  const now = Math.max(performance.now(), timerAt);
  timer = undefined;
  timerAt = Number.POSITIVE_INFINITY;
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
  if (timer !== undefined && timerSetWith === setTimeout) {
    if (timerAt <= at) return;
    clearTimeout(timer);
  }
  const set: Timer = setTimeout(
    () => {
      // a timer replaced since (by an earlier deadline, or through another setTimeout) has nothing left to do
      if (timer === set) fire();
    },
    Math.max(0, at - performance.now()),
  );
  timer = set;
  timerAt = at;
  timerSetWith = setTimeout;
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
