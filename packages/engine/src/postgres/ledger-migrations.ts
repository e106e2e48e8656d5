// The PostgreSQL ledger's tables as numbered migrations (and applyMigrations, which the task store's use too).
// Every instance migrates when it opens, in one transaction under an advisory lock, so instances that start together wait for each other instead of
// racing; a migration once released is never edited, only followed by a new one.
import type { PoolClient } from 'pg';

interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** A list of migrations, the table that records which ran, and the advisory lock instances take turns on. */
export interface MigrationSet {
  readonly migrations: readonly Migration[];
  /** e.g. roundtrip_ledger_migrations */
  readonly table: string;
  /** An int8 advisory lock key, as text. */
  readonly lock: string;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'roundtrip_effects: one row per effect, claimed with a lease, its outcome in the same row',
    // times from the engine's clock (milliseconds); the lease from the database's clock, the one clock
    // every instance shares. value is the outcome's JSON text as written (jsonb would reorder its keys)
    sql: `
      CREATE TABLE roundtrip_effects (
        run         text    NOT NULL,
        effect      text    NOT NULL,
        state       text    NOT NULL CHECK (state IN ('running', 'done')),
        started_at  bigint  NOT NULL,
        owner       text,
        lease_until timestamptz,
        finished_at bigint,
        ok          boolean,
        value       text,
        error       text,
        PRIMARY KEY (run, effect),
        CHECK (state = 'running' OR (finished_at IS NOT NULL AND ok IS NOT NULL))
      );
      CREATE INDEX roundtrip_effects_done_at ON roundtrip_effects (finished_at) WHERE state = 'done';
    `,
  },
  {
    version: 2,
    name: 'roundtrip_effects.owner_lock: the advisory lock its owner holds while it is connected',
    // the key of the owner's session advisory lock (owner-lock.ts); NULL for a claim that names none
    // (made before this migration, in a ledger transaction, or with ownerLock: false): its lease alone says
    sql: 'ALTER TABLE roundtrip_effects ADD COLUMN owner_lock bigint;',
  },
];

// one advisory lock key for the ledger's migrations in any database: the ASCII of 'Roundtrp' as an int8
const LEDGER_MIGRATIONS: MigrationSet = { migrations: MIGRATIONS, table: 'roundtrip_ledger_migrations', lock: '5939295012364317296' };

/** Thrown when the database was migrated by newer code than this: its rows may mean what this code cannot read. */
export class NewerSchemaError extends Error {
  override readonly name = 'NewerSchemaError';
}

/**
 * Brings the ledger's tables to the newest version on one connection: takes the migration lock (waiting
 * at most `lockWaitMs` for another instance's migration), creates `roundtrip_ledger_migrations` if absent,
 * applies the migrations it lacks in order and records each; all in one transaction.
 */
export function migrate(client: PoolClient, lockWaitMs: number): Promise<void> {
  return applyMigrations(client, lockWaitMs, LEDGER_MIGRATIONS);
}

/** Brings the tables of `set` to its newest version on one connection, as `migrate` does the ledger's. */
export async function applyMigrations(client: PoolClient, lockWaitMs: number, set: MigrationSet): Promise<void> {
  const latest = set.migrations.at(-1)?.version ?? 0;
  await client.query('BEGIN');
  try {
    await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(lockWaitMs))}`);
    await client.query(`SELECT pg_advisory_xact_lock(${set.lock})`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${set.table} (
        version    integer     PRIMARY KEY,
        name       text        NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${set.table} ORDER BY version`);
    const done = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...done);
    if (newest > latest) {
      throw new NewerSchemaError(
        `its tables are at migration ${newest}, made by a newer @roundtrip/engine than this one (which knows migrations up to ${latest}). ` +
          'Upgrade @roundtrip/engine on this server to the version the other servers run.',
      );
    }
    for (const migration of set.migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${set.table} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
