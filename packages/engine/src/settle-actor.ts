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
  return new Promise((resolve) => {
    const finish = (result: SettleResult) => {
      cancelDeadline();
      subscription.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = () => finish('aborted');
    const cancelDeadline = afterDeadline(timeoutMs, () => finish('timeout'));
    const subscription = actor.subscribe({
      next: (snapshot) => {
        observe?.(snapshot as AnyMachineSnapshot);
        if (isSettled(snapshot as AnyMachineSnapshot)) finish('settled');
      },
      error: () => finish('settled'),
      complete: () => finish('settled'),
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
