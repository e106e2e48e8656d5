// The first thing a round does with a requestState: size cap, open (authenticated decryption), the
// checks of what the state is bound to, and the migration of a state an earlier machine version sealed.
// Nothing of the machine runs before this has passed.
import type { CompiledMachine } from './compile-machine.ts';
import { migrateSnapshot } from './machine-migrations.ts';
import type { RoundRequest, StepContext } from './round-types.ts';
import { openState } from './sealed-state.ts';
import { checkEnvelope, type EnvelopeRejection, type StateBinding, type StateEnvelope } from './state-envelope.ts';

const OPEN_FAILURES = {
  malformed: 'not a sealed Roundtrip state (bad format)',
  unknown_key: 'sealed with a key this server does not hold',
  tampered: 'failed authentication (tampered, truncated or corrupted)',
  header_mismatch: 'header does not match the sealed copy',
} as const;

/** An opened state (with the versions it was migrated through, when it was), or why it was refused. */
export type OpenedRoundState =
  | { ok: true; envelope: StateEnvelope; migratedThrough?: readonly string[] }
  | { ok: false; rejection: EnvelopeRejection };

const reject = (code: EnvelopeRejection['code'], why: EnvelopeRejection['why'], detail: string): OpenedRoundState => ({
  ok: false,
  rejection: { code, why, detail },
});

/**
 * Opens and checks the requestState of `request` (which must carry one). A refusal holds the code the
 * client sees (`data.reason`), and the code and detail for the log only.
 */
export function openRoundState(
  ctx: StepContext,
  request: RoundRequest,
  binding: StateBinding,
  machine: Pick<CompiledMachine, 'machine' | 'id' | 'version' | 'hash' | 'migrations'>,
): OpenedRoundState {
  const raw = request.requestState;
  if (typeof raw !== 'string' || raw.length === 0)
    return reject('invalid', 'not_text', `requestState is ${typeof raw === 'string' ? 'empty' : `a ${typeof raw}, not a string`}`);
  if (raw.length > ctx.maxStateBytes)
    return reject('invalid', 'too_large', `requestState is ${raw.length} bytes, over the ${ctx.maxStateBytes}-byte limit`);
  const opened = openState(ctx.keyring, raw);
  if (!opened.ok) return reject('invalid', opened.reason, OPEN_FAILURES[opened.reason]);
  const checked = checkEnvelope(opened.plaintext, binding, machine, {
    nowSeconds: Math.floor(ctx.now() / 1000),
    maxRounds: ctx.maxRounds,
    expiry: request.stateHeldByServer ? 'held' : 'checked',
  });
  if (!checked.ok || checked.migrateFrom === undefined || !machine.migrations) return checked;
  // sealed by an earlier version: migrate the snapshot; the questions it pinned still count by key and hash
  const migrated = migrateSnapshot(machine.machine, machine.version, machine.migrations, checked.envelope.snapshot);
  if (!migrated.ok) return reject('outdated', 'migration_failed', migrated.detail);
  return { ok: true, envelope: { ...checked.envelope, snapshot: migrated.snapshot }, migratedThrough: migrated.path };
}
