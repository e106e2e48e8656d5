import type { EffectLedger } from './effect-ledger.ts';
import type { EngineEvent } from './engine-events.ts';

/** What an effect needs to know about the round it runs in. One per request; `inflight` is shared by the engine. */
export interface EffectScope {
  readonly run: string;
  readonly ledger: EffectLedger;
  /** Effects of this process still running, so a concurrent duplicate waits for the first without polling. */
  readonly inflight: Map<string, Promise<unknown>>;
  readonly now: () => number;
  /** A record left `running` for longer than this is taken as orphaned: its outcome is unknown. */
  readonly orphanAfterMs: number;
  /** The round's log (the entry is built only when the engine has one). */
  readonly log: (event: EngineEvent) => void;
}

// keyed by the actor system of one request's root actor; every invoked child receives that system.
// An entry lives only while its round runs: left in place, the scope (which reaches the system through
// its log closure) kept each round's whole graph alive until a full GC, measurably slowing every round.
const scopes = new WeakMap<object, EffectScope>();

/** Gives the round's effects their scope; call the returned function when the round ends. */
export function setEffectScope(system: object, scope: EffectScope): () => void {
  scopes.set(system, scope);
  return () => scopes.delete(system);
}

/** Ends the scope of the round whose actor system this is (what setEffectScope's returned function does). */
export function clearEffectScope(system: object): void {
  scopes.delete(system);
}

export function effectScopeOf(system: object): EffectScope | undefined {
  return scopes.get(system);
}

/** An effect a round waits for that another request started: its invoke id, and when it started if the ledger says. */
export interface AwaitedEffect {
  readonly effect: string;
  readonly since?: number;
}

// keyed by the round's actor system, like the scopes; plain data only, so an entry holds nothing of the round
const awaited = new WeakMap<object, AwaitedEffect>();

/**
 * Notes that the round of `system` waits for an effect another request started, so that a round that runs
 * out of time meanwhile can say so (run-step.ts); call the returned function when the wait ends.
 */
export function awaitEffect(system: object, effect: AwaitedEffect): () => void {
  awaited.set(system, effect);
  return () => {
    if (awaited.get(system) === effect) awaited.delete(system);
  };
}

/** The effect the round of `system` waits for now, if it waits for one started elsewhere. */
export function awaitedEffect(system: object): AwaitedEffect | undefined {
  return awaited.get(system);
}
