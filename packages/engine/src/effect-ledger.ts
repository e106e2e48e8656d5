import type { JsonValue } from './wire-shapes.ts';

/**
 * Names one effect of one run: `run` is the run id sealed in every state of one conversation (one
 * call, all its rounds); `effect` is the id of the invoke that performs it (e.g. `refund`).
 */
export interface EffectKey {
  readonly run: string;
  readonly effect: string;
}

/** What an effect ended with, as recorded: its output (plain JSON), or the message of the error it threw. */
export type EffectOutcome = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: string };

/**
 * A ledger row: the effect has started (and not finished yet, or its process died), or it is done.
 * A running record may say what the ledger knows, by its own means, of the claim's owner:
 * - `alive`: the owner still holds the claim (a lease not yet passed, a process still running), so the
 *   engine waits for its outcome however long ago `startedAt` looks by this machine's clock;
 * - `abandoned`: the owner ended before recording an outcome (it crashed or was killed); with
 *   `disconnected`, its connection to the ledger's database ended (it crashed, was killed, or lost its
 *   database); with `leaseLapsed`, it stopped renewing its claim (it crashed, stalled, or lost its
 *   database): nobody will complete it, and what the effect did is unknown.
 * With neither, the engine takes a record running for longer than twice the settle timeout (by its own
 * clock) as orphaned.
 */
export type EffectRecord =
  | {
      readonly state: 'running';
      readonly startedAt: number;
      readonly alive?: boolean;
      readonly abandoned?: boolean;
      readonly disconnected?: boolean;
      readonly leaseLapsed?: boolean;
    }
  | { readonly state: 'done'; readonly startedAt: number; readonly finishedAt: number; readonly outcome: EffectOutcome };

/**
 * Where effects that must happen at most once are recorded, keyed by run id and effect id.
 *
 * The engine calls `claim` before an effect runs: exactly one caller, across every process that
 * shares the store, gets `'claimed'` for a key and runs the effect, then calls `complete`. Every
 * other caller gets the existing record: the recorded outcome when done (the effect does not run
 * again), or `running`, in which case the engine polls `read` until the first finishes or the
 * round's time runs out.
 *
 * A shared store (one that several servers use) must make `claim` atomic: insert-if-absent in one
 * transaction or one conditional write (`INSERT … ON CONFLICT DO NOTHING`, a conditional put, `SET NX`).
 * Times are milliseconds since the epoch, from the engine's clock.
 *
 * Implementations here: {@link createMemoryLedger} (one process) and `createSqliteLedger` from
 * `@roundtrip/engine/sqlite` (one file shared by the processes of one machine).
 *
 * A ledger may also offer `runOnceInTransaction` (TransactionalLedger, ledger-transaction.ts): the SQLite
 * and PostgreSQL ledgers do, for effects declared `inLedgerTransaction` (exactly once).
 */
export interface EffectLedger {
  claim(key: EffectKey, now: number): 'claimed' | EffectRecord | Promise<'claimed' | EffectRecord>;
  complete(key: EffectKey, outcome: EffectOutcome, now: number): void | Promise<void>;
  read(key: EffectKey): EffectRecord | undefined | Promise<EffectRecord | undefined>;
}
