// V8 runs a function in its interpreter (and its baseline compiler) until the function has run enough,
// then has TurboFan optimize it. "Enough" is tuned for web pages, whose code mostly runs a few times. A
// server runs the same few paths for every request, and each round of ours runs more distinct code than a
// hand-written SDK handler (XState, the engine, the sealing): with V8's defaults much of it ran
// unoptimized for the first thousand or so conversations (on Node 22 ours used more CPU than the peer even
// after 4,000).
// Optimizing at a quarter of V8's threshold, measured end to end over stdio (BENCHMARKS.md, "Tier-up"):
// CPU per conversation 0.76 – 0.77 of the SDK peer's just started instead of 1.07 – 1.11 (Node 20), and
// 0.73 – 0.84 warm instead of 1.13 – 1.21 (Node 22). The price is TurboFan's work brought forward: on 2
// cores, with the client beside it, Node 20's V8 (which compiles on all its workers at once) made
// conversations 51 – 300 of a fresh server 1.2 – 1.75 times slower before they became faster (the main
// thread's CPU was lower: the compiles took the cores); from Node 22 TurboFan is kept to one thread, and no
// range was slower (with one V8 worker, `node --v8-pool-size=1`, neither was Node 20's from the 11th). A
// long-lived server gains; `node --interrupt-budget=67584` keeps V8's default on Node 20. The knob changed
// between V8 versions: V8 11 counts an interrupt budget in bytes of bytecode run, V8 12 invocations. V8 13
// (Node 24) is left alone: it delays TurboFan further by an "efficiency mode" (a hot function of the tests
// optimized after 10,869 calls there, against 3,011 on V8 12), and nothing was measured end to end on it.
import { setFlagsFromString } from 'node:v8';

/**
 * What {@link tierUpSooner} did: set V8 to optimize hot code sooner; left V8's threshold as the command
 * line sets it; or nothing, on a runtime whose `node:v8` sets no flags (it threw) or whose V8 it does not know.
 */
export type TierUpDecision = 'sooner' | 'kept_by_command_line' | 'unavailable';

/** The flags we set on a V8 major version, and the names of those that leave it all as the command line says. */
function tuningOf(v8Major: number): { flags: string[]; names: RegExp } | undefined {
  // V8 11 (Node 20): the interrupt budget, 67,584 bytes of bytecode by default
  if (v8Major === 11) return { flags: ['--interrupt-budget=16896'], names: /^--interrupt[-_]budget(=.*)?$/ };
  // V8 12 (Node 22): the invocations before TurboFan, 3,000 by default; and TurboFan on one thread
  // at a time (V8's default is as many as it has workers), so that the sooner compiles do not take the cores
  // the requests and their client need: on 2 cores that slowed conversations 100 – 400 by a fifth
  if (v8Major === 12)
    return {
      flags: ['--invocation-count-for-turbofan=750', '--concurrent-turbofan-max-threads=1'],
      names: /^--(invocation[-_]count[-_]for[-_]turbofan|concurrent[-_]turbofan[-_]max[-_]threads)(=.*)?$/,
    };
  return undefined;
}

/**
 * Has V8 optimize hot functions at a quarter of its usual threshold for the rest of this process's life (from
 * Node 22, TurboFan also compiles on one thread at a time), unless the command line sets one of those flags
 * itself (`node --interrupt-budget=67584 …` on Node 20, `node --invocation-count-for-turbofan=3000 …` or
 * `--concurrent-turbofan-max-threads=…` from Node 22 keep V8's settings). For a server that owns its process:
 * set at start. Not undone. A V8 other than 11 and 12 (Node 20 and 22) is left alone.
 *
 * @example
 * const tierUp = tierUpSooner(process.execArgv, process.versions.v8); // what tuneV8ForServing does
 */
export function tierUpSooner(execArgv: readonly string[], v8Version: string): TierUpDecision {
  const tuning = tuningOf(Number(v8Version.split('.')[0]));
  if (!tuning) return 'unavailable';
  if (execArgv.some((arg) => tuning.names.test(arg))) return 'kept_by_command_line';
  try {
    for (const flag of tuning.flags) setFlagsFromString(flag);
  } catch {
    // a runtime whose node:v8 has no V8 under it may throw here: this is a tuning, not a reason to stop
    return 'unavailable';
  }
  return 'sooner';
}
