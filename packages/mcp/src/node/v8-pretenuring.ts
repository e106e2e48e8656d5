// V8 decides for each place in the code that allocates (an allocation site) whether its objects should
// skip the young generation, from how many of them outlive a scavenge ("pretenuring"). A server's rounds
// mislead it: XState's actor of a round lives for the round alone, yet V8 comes to allocate its parts in
// the old generation, where they die young and, until a full collection, keep what they point to alive
// through every scavenge. Measured on the refund's decline round (BENCHMARKS.md, "Pretenuring"):
// 11 – 12 % of what a round allocates survived each scavenge instead of 1.4 %, scavenges paused 2.0 ms
// instead of 0.5, and the round took 28 µs instead of 24 (Node 20; Node 22 alike, 25 against 19.5).
import { setFlagsFromString } from 'node:v8';

/**
 * What {@link turnOffPretenuring} did: turned it off; left it on because the command line names the flag; or
 * nothing, on a runtime whose `node:v8` sets no flags (it threw).
 */
export type PretenuringDecision = 'turned_off' | 'kept_by_command_line' | 'unavailable';

// V8 reads its flags with dashes or underscores, `--no` or `--no-` for false, and an explicit `=true|false`
const PRETENURING_FLAG = /^--(no-?)?allocation[-_]site[-_]pretenuring(=.*)?$/;

/**
 * Turns off V8's allocation-site pretenuring for the rest of this process's life, unless its command line
 * names the flag (`node --allocation-site-pretenuring …` keeps it on; Node refuses V8 flags in
 * NODE_OPTIONS, so the command line is the one place an operator sets it). For a server that owns its
 * process: set at start, before the first round. Not undone.
 *
 * @example
 * const pretenuring = turnOffPretenuring(); // what tuneV8ForServing does, with tierUpSooner
 */
export function turnOffPretenuring(execArgv: readonly string[] = process.execArgv): PretenuringDecision {
  if (execArgv.some((arg) => PRETENURING_FLAG.test(arg))) return 'kept_by_command_line';
  try {
    setFlagsFromString('--no-allocation-site-pretenuring');
  } catch {
    // a runtime whose node:v8 has no V8 under it may throw here: this is a tuning, not a reason to stop
    return 'unavailable';
  }
  return 'turned_off';
}
