// What a server that owns its process does to V8 at start, and what it says of it in its startup line:
// pretenuring off (v8-pretenuring.ts) and hot code optimized sooner (v8-tier-up.ts). Each is left as the
// command line sets it, when it does.
import { type PretenuringDecision, turnOffPretenuring } from './v8-pretenuring.ts';
import { type TierUpDecision, tierUpSooner } from './v8-tier-up.ts';

/** What {@link tuneV8ForServing} did to each of V8's settings it tunes. */
export interface V8Tuning {
  readonly pretenuring: PretenuringDecision;
  readonly tierUp: TierUpDecision;
}

/**
 * Tunes V8 for serving rounds, for the rest of this process's life: turns off allocation-site pretenuring
 * and has hot functions optimized at a quarter of V8's threshold, each unless the command line sets it
 * (`node --allocation-site-pretenuring …`, `node --interrupt-budget=… ` on Node 20,
 * `node --invocation-count-for-turbofan=… ` from Node 22). For a server that owns its process (the stdio
 * server on the process's own stdio, the HTTP server that handles signals): call it at start. Not undone.
 *
 * @example
 * const v8 = options.stdio ? undefined : tuneV8ForServing();
 */
export function tuneV8ForServing(
  execArgv: readonly string[] = process.execArgv,
  /** The version of the V8 being tuned (`process.versions.v8`): the tier-up's flags depend on it. */
  v8Version: string = process.versions.v8 ?? '',
): V8Tuning {
  return { pretenuring: turnOffPretenuring(execArgv), tierUp: tierUpSooner(execArgv, v8Version) };
}
