// The effect ledger kept in one SQLite file, so that the processes of one machine agree on which effects ran.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { EffectKey, EffectLedger, EffectOutcome, EffectRecord } from '../effect-ledger.ts';
import type { TransactionalLedger } from '../ledger-transaction.ts';
import { createConnectionTurns } from './connection-turns.ts';
import { ownerLiveness, THIS_PROCESS } from './effect-owner.ts';
import { runInSqliteTransaction } from './sqlite-transaction.ts';
import { waitForLock } from './wait-for-lock.ts';
import { useWalMode } from './wal-mode.ts';

type JsonValue = Extract<EffectOutcome, { ok: true }>['value'];

export interface SqliteLedgerOptions {
  /** The database file. Its folder is created if absent; the file may hold the application's own tables too. */
  path: string;
  /**
   * How long a call waits for another connection's lock before failing with an error that says so.
   * The wait never blocks the event loop: the call returns a Promise and tries again with backoff,
   * so requests that do not need the ledger go on being served meanwhile. @defaultValue 5000
   */
  busyTimeoutMs?: number;
  /**
   * How long done records are kept after they finish, in milliseconds. Older ones are pruned when the
   * ledger opens and then at most once per hour (or once per `retainMs`, if shorter) while it completes
   * effects. Running records are never pruned. `Infinity` keeps everything. @defaultValue 7 days
   */
  retainMs?: number;
  /** Clock for pruning, in milliseconds since the epoch. Record times come from the engine's `now` arguments. @defaultValue Date.now */
  now?: () => number;
}

/**
 * An {@link EffectLedger} backed by one SQLite file. Each call answers at once (synchronously) when
 * the file is free, and with a Promise when it must wait for another connection's lock, or for an
 * effect running in this ledger's transaction: `await` the result of every call.
 *
 * It runs effects declared `inLedgerTransaction` in its own transaction (`runOnceInTransaction`, see
 * TransactionalLedger): `BEGIN IMMEDIATE` on its connection, the claim, the effect's statements (on
 * `sqliteTransaction(tx)`), the outcome, `COMMIT`. Such an effect holds the file's write lock, and this
 * ledger's connection, while it runs: every other write to the file, and every other call of this
 * ledger, waits for it (at most `busyTimeoutMs`). Keep it short: statements, no calls to other services.
 */
export interface SqliteLedger extends EffectLedger, TransactionalLedger {
  /** Records the outcome of a claimed effect. The first outcome recorded for a key is kept; later ones are ignored. */
  complete(key: EffectKey, outcome: EffectOutcome, now: number): void | Promise<void>;
  /** Closes the connection. Later calls throw; closing again does nothing. */
  close(): void;
  /** The database file, as given. */
  readonly path: string;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;
const DEFAULT_RETAIN_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS roundtrip_effects (
    run         TEXT NOT NULL,
    effect      TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('running', 'done')),
    started_at  INTEGER NOT NULL,
    owner       TEXT,
    finished_at INTEGER,
    ok          INTEGER CHECK (ok IN (0, 1)),
    value       TEXT,
    error       TEXT,
    PRIMARY KEY (run, effect)
  ) STRICT;
  CREATE INDEX IF NOT EXISTS roundtrip_effects_done_at ON roundtrip_effects (finished_at) WHERE state = 'done';
`;

interface EffectRow {
  state: string;
  owner: string | null;
  started_at: number;
  finished_at: number | null;
  ok: number | null;
  value: string | null;
  error: string | null;
}

/**
 * Opens (creating if absent) the effect ledger in the SQLite file at `options.path`. `claim` takes
 * the database's write lock (`BEGIN IMMEDIATE`) and inserts only if the key is absent, so exactly one
 * caller across every process sharing the file gets `'claimed'`. The file is opened in WAL mode and
 * its one table, `roundtrip_effects`, can sit beside the application's own tables.
 *
 * A claim records which process made it (host, process id): a `running` record whose process on this
 * host has ended (crashed or killed before recording an outcome) reads as `abandoned`, so a retry
 * learns at once that the outcome is unknown instead of waiting for it; one whose process still runs
 * reads as `alive`, so a retry waits for its outcome however long it takes.
 *
 * While another connection holds the write lock, calls wait for it without blocking the event loop
 * (they return Promises), for at most `busyTimeoutMs`; then they fail saying the file stayed locked.
 *
 * @throws Error naming the path and what to do, when the file cannot be opened or its table made.
 *
 * @example
 * import { createSqliteLedger } from '@roundtrip/engine/sqlite';
 *
 * const ledger = createSqliteLedger({ path: '/var/lib/my-server/effects.db' });
 * const key = { run: 'run_8f2c', effect: 'refund' };
 * if (ledger.claim(key, Date.now()) === 'claimed') {
 *   ledger.complete(key, { ok: true, value: { refunded: true } }, Date.now());
 * }
 * ledger.read(key); // { state: 'done', startedAt, finishedAt, outcome: { ok: true, value: { refunded: true } } }
 * ledger.close();
 */
export function createSqliteLedger(options: SqliteLedgerOptions): SqliteLedger {
  const { path } = options;
  if (typeof path !== 'string' || path === '') {
    throw new Error('createSqliteLedger needs a path: set options.path to the SQLite file to keep the effect ledger in.');
  }
  const busyTimeoutMs = checkedDuration('busyTimeoutMs', options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, path);
  const retainMs = checkedDuration('retainMs', options.retainMs ?? DEFAULT_RETAIN_MS, path);
  const clock = options.now ?? Date.now;

  const { db, statements, pruneIfDue } = openLedgerFile(path, busyTimeoutMs, retainMs, clock);
  const { insertRunning, selectRecord, writeOutcome } = statements;

  // from here on a lock is waited for in waitForLock, never inside SQLite (which would block the thread)
  db.pragma('busy_timeout = 0');

  const claimTx = db.transaction((run: string, effect: string, startedAt: number): 'claimed' | EffectRecord => {
    if (insertRunning.run(run, effect, startedAt, THIS_PROCESS).changes === 1) return 'claimed';
    const row = selectRecord.get(run, effect);
    if (!row)
      throw new Error(
        `The effect ledger at ${path} lost the record of run "${run}", effect "${effect}" inside one transaction; check that nothing else deletes rows from roundtrip_effects.`,
      );
    return decodeRecord(row, path, { run, effect });
  });
  const writeOutcomeOf = (run: string, effect: string, outcome: EffectOutcome, finishedAt: number): void => {
    const value = outcome.ok ? encodeValue(outcome.value, path, { run, effect }) : null;
    writeOutcome.run(run, effect, finishedAt, finishedAt, outcome.ok ? 1 : 0, value, outcome.ok ? null : outcome.error);
    pruneIfDue();
  };
  const completeTx = db.transaction(writeOutcomeOf);

  const assertOpen = (): void => {
    if (!db.open) throw new Error(`The effect ledger at ${path} is closed; create a new one with createSqliteLedger to use it again.`);
  };

  // while an effect runs in this ledger's transaction, the connection is its own: the others wait their turn
  const turns = createConnectionTurns();
  const turnTooLong = (what: string) =>
    new Error(
      `The effect ledger at ${path} stayed in use by an effect running in its transaction (in this process) for ${busyTimeoutMs} ms, so this server could not ${what}. ` +
        'An effect declared inLedgerTransaction holds the ledger while it runs: keep it short, or raise busyTimeoutMs.',
    );

  /** Runs `work` now; if the file is locked, or the connection in a transaction, again with backoff until it is free or `busyTimeoutMs` has passed. */
  const whenFree = <T>(what: string, work: () => T): T | Promise<T> => {
    assertOpen();
    const giveUp = (error: unknown) => lockError(error, path, what, busyTimeoutMs);
    if (!turns.busy) {
      try {
        return work();
      } catch (error) {
        if (!isBusy(error) || busyTimeoutMs === 0) throw giveUp(error);
      }
    }
    const attempt = () => {
      assertOpen();
      return work();
    };
    return waitForLock(() => turns.inTurn(busyTimeoutMs, () => turnTooLong(what), attempt), isBusy, busyTimeoutMs, giveUp);
  };
  const describeKey = (key: EffectKey) => `run "${key.run}", effect "${key.effect}"`;
  const transactionParts = {
    db,
    path,
    busyTimeoutMs,
    turns,
    assertOpen,
    isBusy,
    turnTooLong,
    lockError: (error: unknown, what: string) => lockError(error, path, what, busyTimeoutMs),
    claim: (key: EffectKey, startedAt: number) => insertRunning.run(key.run, key.effect, startedAt, THIS_PROCESS).changes === 1,
    read: (key: EffectKey) => {
      const row = selectRecord.get(key.run, key.effect);
      return row ? decodeRecord(row, path, key) : undefined;
    },
    complete: (key: EffectKey, outcome: EffectOutcome, finishedAt: number) => writeOutcomeOf(key.run, key.effect, outcome, finishedAt),
  };

  return {
    path,
    claim: (key, now) => {
      const at = toMillis(now);
      return whenFree(`claim ${describeKey(key)} (the effect was not started)`, () => claimTx.immediate(key.run, key.effect, at));
    },
    complete: (key, outcome, now) => {
      const at = toMillis(now);
      return whenFree(`record the outcome of ${describeKey(key)} (the effect ran; its record stays "running")`, () =>
        completeTx.immediate(key.run, key.effect, outcome, at),
      );
    },
    read: (key) => whenFree(`read ${describeKey(key)}`, () => transactionParts.read(key)),
    runOnceInTransaction: (key, now, act) => runInSqliteTransaction(transactionParts, key, now, act),
    close: () => {
      if (db.open) db.close();
    },
  };
}

/** Opens the file, creates or updates the table, prepares the statements and prunes old done records; closes it again on failure. */
function openLedgerFile(path: string, busyTimeoutMs: number, retainMs: number, clock: () => number) {
  const db = openDatabase(path, busyTimeoutMs);
  let statements: ReturnType<typeof prepareStatements>;
  try {
    // one write transaction: servers opening a file at once each see the table as the one before made it
    db.transaction(() => {
      db.exec(SCHEMA);
      addOwnerColumn(db);
    }).immediate();
    statements = prepareStatements(db);
  } catch (error) {
    db.close();
    throw openError(path, error);
  }
  const { deleteDoneBefore } = statements;

  const pruneIntervalMs = Math.min(retainMs, MAX_PRUNE_INTERVAL_MS);
  let lastPrunedAt = Number.NEGATIVE_INFINITY;
  const pruneIfDue = (): void => {
    if (retainMs === Number.POSITIVE_INFINITY) return;
    const at = clock();
    if (at - lastPrunedAt < pruneIntervalMs) return;
    deleteDoneBefore.run(Math.floor(at - retainMs));
    lastPrunedAt = at;
  };
  try {
    if (retainMs !== Number.POSITIVE_INFINITY) db.transaction(pruneIfDue).immediate();
  } catch (error) {
    db.close();
    throw openError(path, error);
  }

  return { db, statements, pruneIfDue };
}

function openDatabase(path: string, busyTimeoutMs: number): Database.Database {
  let db: Database.Database;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
  } catch (error) {
    throw openError(path, error);
  }
  try {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    useWalMode(db, busyTimeoutMs);
    // FULL: a claim or an outcome that was committed survives a power loss too (NORMAL may lose the
    // last commits), so an effect recorded as claimed or done is never run again; one fsync a write
    db.pragma('synchronous = FULL');
  } catch (error) {
    db.close();
    throw openError(path, error);
  }
  return db;
}

function prepareStatements(db: Database.Database) {
  return {
    insertRunning: db.prepare<[string, string, number, string]>(
      "INSERT INTO roundtrip_effects (run, effect, state, started_at, owner) VALUES (?, ?, 'running', ?, ?) ON CONFLICT (run, effect) DO NOTHING",
    ),
    selectRecord: db.prepare<[string, string], EffectRow>(
      'SELECT state, started_at, owner, finished_at, ok, value, error FROM roundtrip_effects WHERE run = ? AND effect = ?',
    ),
    // a key completed without a claim (e.g. pruned meanwhile) is recorded as started when it finished;
    // a key already done keeps its first outcome
    writeOutcome: db.prepare<[string, string, number, number, number, string | null, string | null]>(
      `INSERT INTO roundtrip_effects (run, effect, state, started_at, finished_at, ok, value, error)
            VALUES (?, ?, 'done', ?, ?, ?, ?, ?)
       ON CONFLICT (run, effect) DO UPDATE
              SET state = 'done', finished_at = excluded.finished_at, ok = excluded.ok, value = excluded.value, error = excluded.error
            WHERE state = 'running'`,
    ),
    deleteDoneBefore: db.prepare<[number]>("DELETE FROM roundtrip_effects WHERE state = 'done' AND finished_at < ?"),
  };
}

/** Files made before claims recorded their process get the column (null for their rows: liveness unknown). */
function addOwnerColumn(db: Database.Database): void {
  const has = db.prepare("SELECT 1 FROM pragma_table_info('roundtrip_effects') WHERE name = 'owner'").get();
  if (!has) db.exec('ALTER TABLE roundtrip_effects ADD COLUMN owner TEXT');
}

function isBusy(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}

/** The error of a call that gave up waiting for the lock; any other error as it is. */
function lockError(error: unknown, path: string, what: string, busyTimeoutMs: number): unknown {
  if (!isBusy(error)) return error;
  return new Error(
    `The effect ledger at ${path} stayed locked by another connection for ${busyTimeoutMs} ms, so this server could not ${what}. ` +
      'Find the process that holds the database lock (a long transaction on the same file), or raise busyTimeoutMs; then try again.',
    { cause: error },
  );
}

function decodeRecord(row: EffectRow, path: string, key: EffectKey): EffectRecord {
  const malformed = (what: string) =>
    new Error(
      `The effect ledger at ${path} holds a malformed record for run "${key.run}", effect "${key.effect}" (${what}). ` +
        'Delete that row from roundtrip_effects; the ledger only writes well-formed rows.',
    );
  if (row.state === 'running') {
    const liveness = row.owner === null ? 'unknown' : ownerLiveness(row.owner);
    if (liveness === 'gone') return { state: 'running', startedAt: row.started_at, abandoned: true };
    return liveness === 'alive'
      ? { state: 'running', startedAt: row.started_at, alive: true }
      : { state: 'running', startedAt: row.started_at };
  }
  if (row.state !== 'done') throw malformed(`state ${JSON.stringify(row.state)}`);
  if (row.finished_at === null) throw malformed('done without finished_at');
  const base = { state: 'done', startedAt: row.started_at, finishedAt: row.finished_at } as const;
  if (row.ok === 0) return { ...base, outcome: { ok: false, error: row.error ?? '' } };
  if (row.ok !== 1 || row.value === null) throw malformed('done without a value or an error');
  let value: JsonValue;
  try {
    value = parseJson(row.value);
  } catch (error) {
    throw malformed(`value is not JSON: ${messageOf(error)}`);
  }
  return { ...base, outcome: { ok: true, value } };
}

function parseJson(text: string): JsonValue {
  const parsed: unknown = JSON.parse(text);
  // JSON.parse only ever yields JSON values
  return parsed as JsonValue;
}

function encodeValue(value: JsonValue, path: string, key: EffectKey): string {
  const text: string | undefined = JSON.stringify(value);
  if (text === undefined) {
    throw new Error(
      `The effect ledger at ${path} cannot record the output of run "${key.run}", effect "${key.effect}": it is not JSON. ` +
        'Have the effect return plain JSON (objects, arrays, strings, numbers, booleans, null).',
    );
  }
  return text;
}

/** Record times are whole milliseconds (the column is INTEGER); a fractional clock reading is floored. */
function toMillis(now: number): number {
  if (!Number.isFinite(now)) throw new Error(`The effect ledger got the time ${now}; pass milliseconds since the epoch, e.g. Date.now().`);
  return Math.floor(now);
}

function checkedDuration(name: string, value: number, path: string): number {
  const finiteOrRetain = Number.isFinite(value) || (name === 'retainMs' && value === Number.POSITIVE_INFINITY);
  if (typeof value !== 'number' || !finiteOrRetain || value < 0) {
    throw new Error(`createSqliteLedger got ${name} = ${String(value)} for ${path}; set it to a number of milliseconds, 0 or more.`);
  }
  return name === 'retainMs' ? value : Math.floor(value);
}

function openError(path: string, error: unknown): Error {
  const code = codeOf(error);
  return new Error(`Cannot open the effect ledger at ${path} (${code ? `${code}: ` : ''}${messageOf(error)}). ${hintFor(code)}`, {
    cause: error,
  });
}

function hintFor(code: string | undefined): string {
  switch (code) {
    case 'SQLITE_NOTADB':
      return 'Set the ledger path to a SQLite database file, or to a new file in a folder this user can write to.';
    case 'SQLITE_BUSY':
      return 'Another process holds the database lock; raise busyTimeoutMs or find the process that keeps it.';
    case 'SQLITE_ERROR':
      return 'If the file already has a roundtrip_effects table made by something else, rename that table or use another file.';
    default:
      return 'Set the ledger path to a file in a folder this user can write to.';
  }
}

function codeOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
