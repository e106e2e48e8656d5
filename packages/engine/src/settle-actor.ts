import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { afterDeadline } from './deadline-timer.ts';

/** How an actor came to rest, or why it did not within the time it was given. */
export type SettleResult = 'settled' | 'timeout' | 'aborted';

/**
 * Settled: the machine is done or failed, or no invoked child is still running (eventless
 * transitions run synchronously, so an active machine without running children waits for events).
 */
function isSettled(snapshot: AnyMachineSnapshot): boolean {
  if (snapshot.status !== 'active') return true;
  const children = snapshot.children as Record<string, AnyActorRef | undefined>;
  for (const id in children) if (children[id]?.getSnapshot().status === 'active') return false;
  return true;
}

/** The actor is settled now: no need to wait. */
export const settledNow = (actor: AnyActorRef): boolean => isSettled(actor.getSnapshot() as AnyMachineSnapshot);

/**
 * One wait for an actor to settle: the observer of its snapshots and the listener of the abort signal itself,
 * so a wait holds no closures of its own but the deadline's (a task's work waits for its whole life).
 */
class Settling {
  private readonly signal: AbortSignal | undefined;
  private readonly observe: ((snapshot: AnyMachineSnapshot) => void) | undefined;
  private readonly resolve: (result: SettleResult) => void;
  private readonly cancelDeadline: () => void;
  /** Unset only while subscribing (an actor that ended meanwhile would say so at once). */
  private subscription: { unsubscribe(): void } | undefined;

  constructor(
    actor: AnyActorRef,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    observe: ((snapshot: AnyMachineSnapshot) => void) | undefined,
    resolve: (result: SettleResult) => void,
  ) {
    this.signal = signal;
    this.observe = observe;
    this.resolve = resolve;
    this.cancelDeadline = afterDeadline(timeoutMs, () => this.finish('timeout'));
    this.subscription = actor.subscribe(this);
    if (signal?.aborted) this.finish('aborted');
    else signal?.addEventListener('abort', this, { once: true });
  }

  next(snapshot: AnyMachineSnapshot): void {
    this.observe?.(snapshot);
    if (isSettled(snapshot)) this.finish('settled');
  }

  error(): void {
    this.finish('settled');
  }

  complete(): void {
    this.finish('settled');
  }

  /** The signal aborted. */
  handleEvent(): void {
    this.finish('aborted');
  }

  private finish(result: SettleResult): void {
    this.cancelDeadline();
    this.subscription?.unsubscribe();
    this.signal?.removeEventListener('abort', this);
    this.resolve(result);
  }
}

/**
 * Waits until the actor settles, at most `timeoutMs`, or until `signal` aborts. `observe` sees each snapshot
 * the actor emits while it waits, before it is checked (a task's work watches its progress words so, on the
 * one subscription).
 */
export function settleActor(
  actor: AnyActorRef,
  timeoutMs: number,
  signal?: AbortSignal,
  observe?: (snapshot: AnyMachineSnapshot) => void,
): Promise<SettleResult> {
  if (isSettled(actor.getSnapshot() as AnyMachineSnapshot)) return Promise.resolve('settled');
  return new Promise((resolve) => void new Settling(actor, timeoutMs, signal, observe, resolve));
}
