import type { EffectKey, EffectLedger, EffectOutcome, EffectRecord } from './effect-ledger.ts';

/** An effect ledger in this process's memory, with a `size` for tests and a cap on what it keeps. */
export interface MemoryLedger extends EffectLedger {
  readonly size: number;
}

export interface MemoryLedgerOptions {
  /** Done records kept at most; the oldest are forgotten first. @defaultValue 10000 */
  maxRecords?: number;
}

const id = (key: EffectKey) => `${key.run}\u0000${key.effect}`;

/**
 * Records effects in memory: enough for one process and for tests. Records are lost when the
 * process ends, so a retry served after a restart would run an effect again: use
 * `createSqliteLedger` from `@roundtrip/engine/sqlite` (or a shared store) where that matters.
 *
 * @example
 * const engine = createEngine({ tools, keyring, audience: 'orders', ledger: createMemoryLedger() });
 */
export function createMemoryLedger(options: MemoryLedgerOptions = {}): MemoryLedger {
  const maxRecords = options.maxRecords ?? 10_000;
  const records = new Map<string, EffectRecord>();
  const forgetOldest = () => {
    for (const [key, record] of records) {
      if (records.size <= maxRecords) return;
      if (record.state === 'done') records.delete(key);
    }
  };
  return {
    get size() {
      return records.size;
    },
    claim(key: EffectKey, now: number) {
      const existing = records.get(id(key));
      if (existing) return existing;
      records.set(id(key), { state: 'running', startedAt: now });
      return 'claimed' as const;
    },
    complete(key: EffectKey, outcome: EffectOutcome, now: number) {
      const existing = records.get(id(key));
      if (existing?.state === 'done') return; // the first outcome stands
      const startedAt = existing?.startedAt ?? now;
      records.set(id(key), { state: 'done', startedAt, finishedAt: now, outcome });
      forgetOldest();
    },
    read: (key: EffectKey) => records.get(id(key)),
  };
}
