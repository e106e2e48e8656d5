// Claiming, keeping and completing an effect's record in the PostgreSQL ledger: the claim inserts a `running` row under this
// server's owner and lease (and its owner lock's key), or reads the row another claim made; the completion records
// the outcome on a running row, or inserts it done when the row was pruned meanwhile; the leases of the claims this
// server runs are renewed every third of their length.
import type { QueryResult } from 'pg';
import type { EffectKey, EffectRecord } from '../effect-ledger.ts';
import { createLeaseRenewal } from './lease-renewal.ts';
import { messageOf } from './ledger-errors.ts';
import { claimLock, type OwnerLock } from './owner-lock.ts';

const CLAIM_EFFECT = `INSERT INTO roundtrip_effects (run, effect, state, started_at, owner, lease_until, owner_lock)
      VALUES ($1, $2, 'running', $3, $4, clock_timestamp() + make_interval(secs => $5 / 1000.0), ${claimLock('$6')})
 ON CONFLICT (run, effect) DO NOTHING
 RETURNING owner_lock IS NOT NULL AS locked`;

/** A key completed without a claim (pruned meanwhile) is recorded as started when it finished; one already done keeps its first outcome. */
export const COMPLETE_EFFECT = `INSERT INTO roundtrip_effects (run, effect, state, started_at, finished_at, ok, value, error)
      VALUES ($1, $2, 'done', $3, $3, $4, $5, $6)
 ON CONFLICT (run, effect) DO UPDATE
        SET state = 'done', finished_at = excluded.finished_at, ok = excluded.ok, value = excluded.value,
            error = excluded.error, lease_until = NULL
      WHERE roundtrip_effects.state = 'running'`;

export interface ClaimParts {
  query: <TRow extends object>(what: string, text: string, values: unknown[]) => Promise<QueryResult<TRow>>;
  readRecord: (key: EffectKey, what: string) => Promise<EffectRecord | undefined>;
  ownerLock: OwnerLock | undefined;
  leases: { hold(key: EffectKey): void };
  owner: string;
  leaseMs: number;
  shown: string;
}

/** 'claimed', or the record another claim made. */
export async function claimEffect(parts: ClaimParts, key: EffectKey, at: number, described: string): Promise<'claimed' | EffectRecord> {
  const { query, readRecord, ownerLock, leases, owner, leaseMs, shown } = parts;
  const what = `claim ${described} (the effect was not started)`;
  // a row pruned between the insert and the read (only done rows are, after retainMs) is claimed again
  for (let attempt = 0; attempt < 3; attempt++) {
    const lock = ownerLock?.key() ?? null;
    const inserted = await query<{ locked: boolean }>(what, CLAIM_EFFECT, [key.run, key.effect, at, owner, leaseMs, lock]);
    if (inserted.rowCount === 1) {
      leases.hold(key);
      // the lock this ledger thought it held is not held: its connection is gone (the claim holds by its lease)
      if (lock !== null && inserted.rows[0]?.locked === false) ownerLock?.lost(lock);
      return 'claimed';
    }
    const record = await readRecord(key, what);
    if (record) return record;
  }
  throw new Error(
    `The effect ledger at ${shown} could not ${what}: its row kept disappearing between the insert and the read. Check that nothing else deletes rows from roundtrip_effects.`,
  );
}

const RENEW_LEASES = `UPDATE roundtrip_effects SET lease_until = clock_timestamp() + make_interval(secs => $4 / 1000.0)
  WHERE owner = $1 AND state = 'running' AND (run, effect) IN (SELECT * FROM unnest($2::text[], $3::text[]))`;

/** Renews the leases of the effects this server runs; a renewal that fails is said (they read as abandoned after leaseMs). */
export function renewedLeases(query: ClaimParts['query'], owner: string, leaseMs: number, warn: (message: string) => void) {
  return createLeaseRenewal(
    async (keys) => {
      const values = [owner, keys.map((k) => k.run), keys.map((k) => k.effect), leaseMs];
      await query('renew the leases of the effects this server runs', RENEW_LEASES, values);
    },
    Math.max(1, Math.floor(leaseMs / 3)),
    (error, keys) =>
      warn(
        `${messageOf(error)} ${keys.length} effect${keys.length === 1 ? '' : 's'} of this server still run; unless a renewal succeeds within ${leaseMs} ms, other servers read ${keys.length === 1 ? 'it' : 'them'} as abandoned (outcome unknown).`,
      ),
  );
}
