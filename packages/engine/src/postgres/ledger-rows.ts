// A row of roundtrip_effects as the ledger reads it, and the values it writes there.
import type { EffectKey, EffectOutcome, EffectRecord } from '../effect-ledger.ts';
import { lockHeld } from './owner-lock.ts';

type JsonValue = Extract<EffectOutcome, { ok: true }>['value'];

/**
 * The columns SELECT_RECORD reads: times as float8 (JavaScript numbers), `expired` and `leased` from the
 * database's clock, `disconnected` when the owner lock a running claim names is held by no session.
 */
export interface EffectRow {
  state: string;
  started_at: number;
  finished_at: number | null;
  ok: boolean | null;
  value: string | null;
  error: string | null;
  expired: boolean;
  leased: boolean;
  disconnected: boolean;
}

export const SELECT_RECORD = `
  SELECT state, started_at::float8 AS started_at, finished_at::float8 AS finished_at, ok, value, error,
         (lease_until IS NOT NULL AND lease_until < clock_timestamp()) AS expired,
         (lease_until IS NOT NULL AND lease_until >= clock_timestamp()) AS leased,
         (state = 'running' AND owner_lock IS NOT NULL AND NOT ${lockHeld('owner_lock')}) AS disconnected
    FROM roundtrip_effects WHERE run = $1 AND effect = $2`;

export function decodeRecord(row: EffectRow, shown: string, key: EffectKey): EffectRecord {
  const malformed = (what: string) =>
    new Error(
      `The effect ledger at ${shown} holds a malformed record for run "${key.run}", effect "${key.effect}" (${what}). ` +
        'Delete that row from roundtrip_effects; the ledger only writes well-formed rows.',
    );
  if (row.state === 'running') {
    const startedAt = row.started_at;
    // a connection that ended is known for certain; a lease that passed may be a stall
    if (row.disconnected) return { state: 'running', startedAt, abandoned: true, disconnected: true };
    if (row.expired) return { state: 'running', startedAt, abandoned: true, leaseLapsed: true };
    return row.leased ? { state: 'running', startedAt, alive: true } : { state: 'running', startedAt };
  }
  if (row.state !== 'done') throw malformed(`state ${JSON.stringify(row.state)}`);
  if (row.finished_at === null) throw malformed('done without finished_at');
  const base = { state: 'done', startedAt: row.started_at, finishedAt: row.finished_at } as const;
  if (row.ok === false) return { ...base, outcome: { ok: false, error: row.error ?? '' } };
  if (row.ok !== true || row.value === null) throw malformed('done without a value or an error');
  let value: JsonValue;
  try {
    // JSON.parse only ever yields JSON values
    value = JSON.parse(row.value) as JsonValue;
  } catch (error) {
    throw malformed(`value is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { ...base, outcome: { ok: true, value } };
}

export function encodeValue(value: JsonValue, shown: string, key: EffectKey): string {
  const text: string | undefined = JSON.stringify(value);
  if (text === undefined) {
    throw new Error(
      `The effect ledger at ${shown} cannot record the output of run "${key.run}", effect "${key.effect}": it is not JSON. ` +
        'Have the effect return plain JSON (objects, arrays, strings, numbers, booleans, null).',
    );
  }
  return text;
}

/** PostgreSQL text cannot hold U+0000: an error message that has one is kept with U+FFFD in its place. */
export function encodeError(message: string): string {
  return message.replaceAll('\u0000', '\uFFFD');
}
