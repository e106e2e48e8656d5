// V8 runs a function in its interpreter (and its baseline compiler) until the function has run enough,
// then has TurboFan optimize it. "Enough" is tuned for web pages, whose code mostly runs a few times. A
// server runs the same few paths for every request, and each round of ours runs more distinct code than a
// hand-written SDK handler (XState, the engine, the sealing): with V8's defaults much of it ran
// unoptimized for the first thousand or so conversations, and on Node 22 some of it still after 4,000.
// Optimizing at a quarter of V8's threshold, measured end to end over stdio (BENCHMARKS.md, "Tier-up"):
// CPU per conversation 0.76 – 0.77 of the SDK peer's just started instead of 1.07 – 1.11 (Node 20), and
// 0.58 – 0.65 warm instead of 1.06 – 1.21 (Node 22). The knob changed between V8 versions: Node 20's V8 11
// counts an interrupt budget in bytes of bytecode run, from V8 12 (Node 22, 24) a count of invocations.
import { setFlagsFromString } from 'node:v8';

/**
 * What {@link tierUpSooner} did: set V8 to optimize hot code sooner; left V8's threshold as the command
 * line sets it; or nothing, on a runtime whose `node:v8` sets no flags (it threw) or whose V8 it does not know.
 */
export type TierUpDecision = 'sooner' | 'kept_by_command_line' | 'unavailable';

/** The threshold flag of a V8 major version and the value we set: a quarter of V8's default. */
function thresholdOf(v8Major: number): { flag: string; name: RegExp } | undefined {
  // V8 11 (Node 20): the interrupt budget, 67,584 bytes of bytecode by default
  if (v8Major === 11) return { flag: '--interrupt-budget=16896', name: /^--interrupt[-_]budget(=.*)?$/ };
  // V8 12 and 13 (Node 22, 24): the invocations before TurboFan, 3,000 by default
  if (v8Major === 12 || v8Major === 13)
    return { flag: '--invocation-count-for-turbofan=750', name: /^--invocation[-_]count[-_]for[-_]turbofan(=.*)?$/ };
  return undefined;
}

/**
 * Has V8 optimize hot functions at a quarter of its usual threshold for the rest of this process's life,
 * unless the command line sets that threshold itself (`node --interrupt-budget=67584 …` on Node 20,
 * `node --invocation-count-for-turbofan=3000 …` from Node 22, keeps V8's default). For a server that owns
 * its process: set at start. Not undone. A V8 this does not know (before 11, after 13) is left alone.
 *
 * @example
 * if (!options.stdio) tierUpSooner();
 */
export function tierUpSooner(
  execArgv: readonly string[] = process.execArgv,
  v8Version: string = process.versions.v8 ?? '',
): TierUpDecision {
  const threshold = thresholdOf(Number(v8Version.split('.')[0]));
  if (!threshold) return 'unavailable';
  if (execArgv.some((arg) => threshold.name.test(arg))) return 'kept_by_command_line';
  try {
    setFlagsFromString(threshold.flag);
  } catch {
    // a runtime whose node:v8 has no V8 under it may throw here: this is a tuning, not a reason to stop
    return 'unavailable';
  }
  return 'sooner';
}
