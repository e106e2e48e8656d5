import type { Engine } from '@roundtrip/engine';
import { shownLedgerLocation } from './resolve-ledger-path.ts';
import type { ServerSettings } from './resolve-server-settings.ts';
import type { PretenuringDecision } from './v8-pretenuring.ts';
import type { TierUpDecision } from './v8-tier-up.ts';
import type { V8Tuning } from './v8-tuning.ts';

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** What an engine serves, e.g. `2 tools, 1 prompt, 1 resource`; kinds it has none of are left out. */
export function describeServed(engine: Engine): string {
  const parts = [
    [engine.listTools().length, 'tool'],
    [engine.listPrompts().length, 'prompt'],
    [engine.listResources().length, 'resource'],
    [engine.listResourceTemplates().length, 'resource template'],
  ] as const;
  const served = parts.filter(([n]) => n > 0).map(([n, noun]) => count(n, noun));
  return served.length > 0 ? served.join(', ') : 'no tools, prompts or resources';
}

/** How the startup line says what a server owning its process did to V8's pretenuring (nothing when it did nothing). */
const PRETENURING_SHOWN: Record<PretenuringDecision, string> = {
  turned_off: '; V8 pretenuring off',
  kept_by_command_line: '; V8 pretenuring on, as the command line asks',
  unavailable: '',
};
/** How the startup line says what it did to V8's tier-up (nothing when it did nothing). */
const TIER_UP_SHOWN: Record<TierUpDecision, string> = {
  sooner: '; V8 optimizes hot code sooner',
  kept_by_command_line: "; V8's tier-up as the command line sets it",
  unavailable: '',
};

/**
 * The startup line: what is served, over what (`stdio`, an HTTP address), where the keys came from, the
 * principal, the limits and the ledger, and, for a server that owns its process, what it did to V8 (see
 * tuneV8ForServing).
 */
export function startupMessage(
  name: string,
  version: string,
  engine: Engine,
  settings: ServerSettings,
  over: string,
  v8?: V8Tuning,
): string {
  const { stateTtlSeconds, settleTimeoutMs, maxRounds, maxStateBytes } = settings.limits;
  const limits = `state lifetime ${stateTtlSeconds}s, settle timeout ${settleTimeoutMs} ms, at most ${count(maxRounds, 'round')}, states up to ${maxStateBytes} bytes`;
  const ledger =
    settings.ledgerPath === undefined ? "the code's own effect ledger" : `effect ledger ${shownLedgerLocation(settings.ledgerPath)}`;
  return `${name} ${version} serving ${describeServed(engine)} over ${over} (${settings.keySource}; principal ${settings.principal}; ${limits}; ${ledger}${v8 ? PRETENURING_SHOWN[v8.pretenuring] + TIER_UP_SHOWN[v8.tierUp] : ''})`;
}
