// Keeps the leases of the effects this ledger claimed alive while they run: one timer for all of them,
// running only while at least one is held, one statement a tick for every key held.
import type { EffectKey } from '../effect-ledger.ts';

export interface LeaseRenewal {
  /** Renews this key's lease from now on, until it is released. */
  hold(key: EffectKey): void;
  /** Stops renewing this key's lease (its outcome was written, or could not be). */
  release(key: EffectKey): void;
  /** Stops renewing every lease; the timer is gone. */
  stop(): void;
}

const id = (key: EffectKey) => `${key.run}\u0000${key.effect}`;

/**
 * Calls `renew` with every held key each `everyMs` milliseconds, never two at once (a slow tick is
 * not overlapped by the next). A failed tick is passed to `onError` and the next tick tries again.
 * The timer does not keep the process alive.
 */
export function createLeaseRenewal(
  renew: (keys: readonly EffectKey[]) => Promise<void>,
  everyMs: number,
  onError: (error: unknown, keys: readonly EffectKey[]) => void,
): LeaseRenewal {
  const held = new Map<string, EffectKey>();
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;

  const tick = async () => {
    if (ticking || held.size === 0) return;
    ticking = true;
    const keys = [...held.values()];
    try {
      await renew(keys);
    } catch (error) {
      onError(error, keys);
    } finally {
      ticking = false;
    }
  };
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };

  return {
    hold(key) {
      held.set(id(key), key);
      if (!timer) {
        timer = setInterval(() => void tick(), everyMs);
        timer.unref();
      }
    },
    release(key) {
      held.delete(id(key));
      if (held.size === 0) stopTimer();
    },
    stop() {
      held.clear();
      stopTimer();
    },
  };
}
