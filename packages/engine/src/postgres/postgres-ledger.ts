// The effect ledger in PostgreSQL, so that servers on several machines agree on which effects ran.
//
// A dead owner (a process or a machine that died while its effect ran) is found two ways, never by pid:
// - an owner lock (owner-lock.ts): one session advisory lock per ledger, on one connection of its own,
//   whose key every claim records. A process that dies, on any host, drops its connection and the lock
//   with it, so its running claims read as abandoned at once, in pg_locks, on every server. One connection
//   per ledger, not one per effect: a burst of effects pins nothing of the pool;
// - a lease, for what the lock cannot see: a machine that vanished without closing its connections (the
//   server notices only when TCP gives up) or a process stalled while its connection stays open. Each claim
//   carries an owner token and `lease_until`, renewed on a timer while the effect runs; a `running` row
//   whose lease has passed reads as abandoned. A lease rides out a connection blip shorter than itself,
//   works through a transaction-pooling proxy (PgBouncer, most managed poolers), where a session lock does
//   not stay with one session (`ownerLock: false` there), and a row says who claimed it and until when.
// The cost: a process stalled longer than the lease, or one whose lock connection alone was lost, reads as
// abandoned while it still runs. That is the safe side: abandoned means "outcome unknown, check first",
// never "run it again". The lease is timed by the database's clock, the one clock every machine shares, so
// skewed machine clocks do not matter.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { EffectKey, EffectLedger, EffectOutcome, EffectRecord } from '../effect-ledger.ts';
import type { TransactionalLedger } from '../ledger-transaction.ts';
import { COMPLETE_EFFECT, claimEffect, renewedLeases } from './ledger-claim.ts';
import { redactUrl } from './ledger-errors.ts';
import { openLedgerDatabase } from './ledger-opening.ts';
import { decodeRecord, type EffectRow, encodeError, encodeValue, SELECT_RECORD } from './ledger-rows.ts';
import { explainPoolError, openPool } from './open-pool.ts';
import { runInPostgresTransaction } from './postgres-transaction.ts';
import { parsePostgresUrl } from './postgres-url.ts';

export interface PostgresLedgerOptions {
  /** The server and database: `postgres://user:password@host:5432/database` (`postgresql://` too; query parameters such as `sslmode` pass to the driver). */
  url: string;
  /** How long a claim holds without renewal; renewed every third of it while the effect runs. @defaultValue 30000 */
  leaseMs?: number;
  /**
   * Hold a session advisory lock on one connection of its own (beside the pool) while the ledger is open,
   * and name it in every claim, so that a claim whose server died or lost its database reads as abandoned
   * at once on every server, instead of when its lease passes. Set it to false behind a transaction-pooling
   * proxy (PgBouncer in transaction mode, most managed poolers' pooled ports), where a session lock does not
   * stay with one session: a dead owner is then found when its lease passes. @defaultValue true
   */
  ownerLock?: boolean;
  /** Connections at most in this server's pool. @defaultValue 10 */
  maxConnections?: number;
  /** How long a call waits for a connection (a new one, or a free one of the pool) before failing. @defaultValue 5000 */
  connectTimeoutMs?: number;
  /** How long one statement may run on the server before it is cancelled (PostgreSQL's statement_timeout). @defaultValue 5000 */
  statementTimeoutMs?: number;
  /** How long one statement may wait for a row lock (PostgreSQL's lock_timeout), e.g. a concurrent claim of the same key. @defaultValue 2000 */
  lockTimeoutMs?: number;
  /**
   * How long done records are kept after they finish, in milliseconds. Older ones are pruned when the
   * ledger opens and then at most once per hour (or once per `retainMs`, if shorter) while it completes
   * effects. Running records are never pruned. `Infinity` keeps everything. At least one hour, and keep it
   * longer than the state lifetime (`ROUNDTRIP_STATE_TTL`): a done record pruned while a state that led to
   * it can still be sent again would let that replay run the effect a second time. @defaultValue 7 days
   */
  retainMs?: number;
  /** Clock for pruning, in milliseconds since the epoch. Record times come from the engine's `now` arguments. @defaultValue Date.now */
  now?: () => number;
  /** Where the ledger reports what happens outside any call (a lease it could not renew, a lost idle connection). @defaultValue process.emitWarning */
  onWarning?: (message: string) => void;
}

/**
 * An {@link EffectLedger} backed by PostgreSQL. Every call returns a Promise.
 *
 * It runs effects declared `inLedgerTransaction` in its own transaction (`runOnceInTransaction`, see
 * TransactionalLedger): a connection of its pool, `BEGIN`, the claim, the effect's statements (through
 * `postgresTransaction(tx)`), the outcome, `COMMIT`. Such an effect holds a pooled connection and its
 * claim's row lock while it runs: between its statements the transaction may stay idle for at most
 * `statementTimeoutMs` (the server ends it then, and nothing of it is kept), and a concurrent duplicate
 * waits for it at most `lockTimeoutMs`, then fails saying so. Keep it short.
 */
export interface PostgresLedger extends EffectLedger, TransactionalLedger {
  claim(key: EffectKey, now: number): Promise<'claimed' | EffectRecord>;
  /** Records the outcome of a claimed effect. The first outcome recorded for a key is kept; later ones are ignored. */
  complete(key: EffectKey, outcome: EffectOutcome, now: number): Promise<void>;
  read(key: EffectKey): Promise<EffectRecord | undefined>;
  /** Stops renewing leases and closes the pool. Later calls fail; closing again does nothing. */
  close(): Promise<void>;
  /** The URL, without its password. */
  readonly url: string;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const MAX_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Opens the effect ledger in the PostgreSQL database at `options.url`, migrating its tables
 * (`roundtrip_effects`, `roundtrip_ledger_migrations`) to this version first: instances that start
 * together take turns. `claim` inserts only if the key is absent (`INSERT … ON CONFLICT DO NOTHING`), so
 * exactly one caller across every server sharing the database gets `'claimed'`; the outcome is written
 * into the same row.
 *
 * A claim names the ledger's owner lock (a session advisory lock it holds on a connection of its own;
 * see `ownerLock`) and holds a lease that this ledger renews while the effect runs. A `running` record
 * whose owner lock no session holds any more (its server died, or lost its database) reads as `abandoned`
 * at once, one whose lease has passed (its server vanished or stalled for longer than `leaseMs`) too, so a
 * retry learns that the outcome is unknown instead of waiting for it; one whose lease holds and whose
 * owner is connected reads as `alive`, so a retry waits for it whatever this machine's clock says. The
 * owner lock takes one connection beside the pool. Nothing waits without a bound:
 * the pool, each statement and each lock wait have timeouts, and a call that runs out says which.
 *
 * @throws Error naming the server (never its password) and what to do, when it cannot connect or migrate.
 *
 * @example
 * import { createPostgresLedger } from '@roundtrip/engine/postgres';
 *
 * const ledger = await createPostgresLedger({ url: process.env.DATABASE_URL! });
 * const engine = createEngine({ tools, keyring, audience: 'orders', ledger });
 * // on shutdown
 * await ledger.close();
 */
export async function createPostgresLedger(options: PostgresLedgerOptions): Promise<PostgresLedger> {
  const url = parsePostgresUrl(options.url, 'createPostgresLedger');
  const shown = redactUrl(url);
  const duration = (name: string, value: number, min: number) => checkedDuration(name, value, min, shown);
  const leaseMs = duration('leaseMs', options.leaseMs ?? 30_000, 3);
  const maxConnections = duration('maxConnections', options.maxConnections ?? 10, 1);
  const settings = {
    connectTimeoutMs: duration('connectTimeoutMs', options.connectTimeoutMs ?? 5000, 1),
    statementTimeoutMs: duration('statementTimeoutMs', options.statementTimeoutMs ?? 5000, 1),
    lockTimeoutMs: duration('lockTimeoutMs', options.lockTimeoutMs ?? 2000, 1),
  };
  const retainMs = duration('retainMs', options.retainMs ?? 7 * DAY_MS, HOUR_MS);
  const clock = options.now ?? Date.now;
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, 'RoundtripLedgerWarning'));
  const owner = `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`;
  const explain = (error: unknown) => explainPoolError(error, settings);
  const pool = openPool({
    url: options.url,
    shown,
    bounds: settings,
    maxConnections,
    applicationName: 'roundtrip-ledger',
    what: 'The effect ledger',
    warn,
  });

  const pruneIntervalMs = Math.min(retainMs, MAX_PRUNE_INTERVAL_MS);
  let lastPrunedAt = Number.NEGATIVE_INFINITY;
  /** Deletes done records older than retainMs, if the last prune was long enough ago. */
  const pruneIfDue = async (): Promise<void> => {
    if (retainMs === Number.POSITIVE_INFINITY) return;
    const at = clock();
    if (at - lastPrunedAt < pruneIntervalMs) return;
    lastPrunedAt = at;
    await pool.query("DELETE FROM roundtrip_effects WHERE state = 'done' AND finished_at < $1", [Math.floor(at - retainMs)]);
  };

  const ownerLock = await openLedgerDatabase({
    pool,
    url: options.url,
    shown,
    settings,
    lock: options.ownerLock !== false,
    warn,
    explain,
    prune: pruneIfDue,
  });

  const query = async <TRow extends object>(what: string, text: string, values: unknown[]) => {
    try {
      return await pool.query<TRow>(text, values);
    } catch (error) {
      throw new Error(`The effect ledger at ${shown} could not ${what} ${explain(error)}`, { cause: error });
    }
  };
  const leases = renewedLeases(query, owner, leaseMs, warn);
  let pruning: Promise<void> = Promise.resolve();

  let closed = false;
  const assertOpen = () => {
    if (closed) throw new Error(`The effect ledger at ${shown} is closed; create a new one with createPostgresLedger to use it again.`);
  };
  const describeKey = (key: EffectKey) => `run "${key.run}", effect "${key.effect}"`;
  const readRecord = async (key: EffectKey, what: string) => {
    const { rows } = await query<EffectRow>(what, SELECT_RECORD, [key.run, key.effect]);
    return rows[0] ? decodeRecord(rows[0], shown, key) : undefined;
  };

  const schedulePrune = () => {
    // in the background: a large delete must not hold up the round that completed
    pruning = pruning.then(() =>
      pruneIfDue().catch((error: unknown) => warn(`The effect ledger at ${shown} could not prune done records ${explain(error)}`)),
    );
  };
  const transactionParts = { pool, shown, owner, assertOpen, explain, afterComplete: schedulePrune };

  return {
    url: shown,
    async claim(key, now) {
      assertOpen();
      return claimEffect({ query, readRecord, ownerLock, leases, owner, leaseMs, shown }, key, toMillis(now), describeKey(key));
    },
    async complete(key, outcome, now) {
      assertOpen();
      const at = toMillis(now);
      try {
        const value = outcome.ok ? encodeValue(outcome.value, shown, key) : null;
        // a key completed without a claim (pruned meanwhile) is recorded as started when it finished;
        // a key already done keeps its first outcome
        await query(
          `record the outcome of ${describeKey(key)} (the effect ran; its record stays "running" and reads as abandoned once its lease passes)`,
          COMPLETE_EFFECT,
          [key.run, key.effect, at, outcome.ok, value, outcome.ok ? null : encodeError(outcome.error)],
        );
      } finally {
        leases.release(key);
      }
      schedulePrune();
    },
    async read(key) {
      assertOpen();
      return readRecord(key, `read ${describeKey(key)}`);
    },
    runOnceInTransaction: (key, now, act) => runInPostgresTransaction(transactionParts, key, now, act),
    async close() {
      if (closed) return;
      closed = true;
      leases.stop();
      await pruning;
      await ownerLock?.close();
      await pool.end();
    },
  };
}

/** Record times are whole milliseconds (the columns are bigint); a fractional clock reading is floored. */
function toMillis(now: number): number {
  if (!Number.isFinite(now)) throw new Error(`The effect ledger got the time ${now}; pass milliseconds since the epoch, e.g. Date.now().`);
  return Math.floor(now);
}

function checkedDuration(name: string, value: number, min: number, shown: string): number {
  const finite = Number.isFinite(value) || (name === 'retainMs' && value === Number.POSITIVE_INFINITY);
  if (typeof value !== 'number' || !finite || value < min) {
    const why = name === 'retainMs' ? ' (a done record must outlive every state that could replay it)' : '';
    throw new Error(`createPostgresLedger got ${name} = ${String(value)} for ${shown}; set it to a number, ${min} or more${why}.`);
  }
  return name === 'retainMs' ? value : Math.floor(value);
}
