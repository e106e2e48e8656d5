// The demo's tables in PostgreSQL, as numbered migrations. Every server migrates when it opens, in one
// transaction under an advisory lock, so servers that start together wait for each other instead of
// racing; a migration once released is never edited, only followed by a new one.
import type { PoolClient } from 'pg';
import { SEED_LIN_ORDERS, SEED_ORDERS, SEED_REFUNDS } from './orders-store.ts';

interface Migration {
  readonly version: number;
  readonly name: string;
  apply(client: PoolClient): Promise<void>;
}

// times are ISO 8601 text, as the SQLite files keep them (the stores return them as they were written);
// text compared and sorted byte by byte (COLLATE "C"), as SQLite does, whatever the database's locale
const TABLES = `
  CREATE TABLE orders (
    id           text COLLATE "C" PRIMARY KEY,
    customer     text    NOT NULL,
    amount_cents integer NOT NULL CHECK (amount_cents >= 0),
    currency     text    NOT NULL DEFAULT 'USD',
    status       text    NOT NULL CHECK (status IN ('paid', 'refunded')),
    created_at   text COLLATE "C" NOT NULL
  );
  CREATE INDEX orders_customer ON orders (customer);
  CREATE TABLE refunds (
    id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_id     text COLLATE "C" NOT NULL UNIQUE REFERENCES orders (id),
    amount_cents integer NOT NULL,
    refunded_at  text COLLATE "C" NOT NULL,
    requested_by text    NOT NULL
  );
  CREATE TABLE meetings (
    id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    topic      text    NOT NULL,
    date       text COLLATE "C" NOT NULL,
    time       text COLLATE "C" NOT NULL,
    attendees  integer NOT NULL CHECK (attendees > 0),
    room       text COLLATE "C" NOT NULL,
    booked_at  text    NOT NULL,
    UNIQUE (room, date, time)
  );
  CREATE TABLE incidents (
    id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    summary     text    NOT NULL,
    severity    text    NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
    services    jsonb   NOT NULL,
    description text    NOT NULL,
    paged       boolean,
    reported_at text    NOT NULL
  );
`;

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'orders, refunds, meetings and incidents, with the seed orders',
    async apply(client) {
      await client.query(TABLES);
      // inserted once, with the tables; ON CONFLICT: never over rows that are already there
      for (const o of SEED_ORDERS) {
        await client.query(
          `INSERT INTO orders (id, customer, amount_cents, status, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
          [o.id, o.customer, o.amountCents, o.status, o.createdAt],
        );
      }
      for (const r of SEED_REFUNDS) {
        await client.query(
          `INSERT INTO refunds (order_id, amount_cents, refunded_at, requested_by) VALUES ($1, $2, $3, $4) ON CONFLICT (order_id) DO NOTHING`,
          [r.orderId, r.amountCents, r.refundedAt, r.requestedBy],
        );
      }
    },
  },
  {
    version: 2,
    name: "the paid orders of customer lin (refund_customer's)",
    async apply(client) {
      for (const o of SEED_LIN_ORDERS) {
        await client.query(
          `INSERT INTO orders (id, customer, amount_cents, status, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
          [o.id, o.customer, o.amountCents, o.status, o.createdAt],
        );
      }
    },
  },
];

/** The newest schema this code knows. */
const LATEST = MIGRATIONS.at(-1)?.version ?? 0;

// one advisory lock key for the demo's migrations in any database: the ASCII of 'RtDemoDb' as an int8
// (the effect ledger's is another, so a ledger in the same database migrates beside it)
const MIGRATION_LOCK = '5941449010826921058';

/** Thrown when the database was migrated by a newer demo than this one: its rows may mean what this code cannot read. */
export class NewerSchemaError extends Error {
  override readonly name = 'NewerSchemaError';
}

/**
 * Brings the demo's tables to the newest version on one connection: takes the migration lock (waiting at
 * most `lockWaitMs` for another server's migration), creates `roundtrip_demo_migrations` if absent,
 * applies the migrations it lacks in order and records each; all in one transaction.
 */
export async function migrate(client: PoolClient, lockWaitMs: number): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(lockWaitMs))}`);
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS roundtrip_demo_migrations (
        version    integer     PRIMARY KEY,
        name       text        NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM roundtrip_demo_migrations ORDER BY version');
    const done = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...done);
    if (newest > LATEST) {
      throw new NewerSchemaError(
        `its tables are at migration ${newest}, made by a newer demo server than this one (which knows migrations up to ${LATEST}). ` +
          'Run the same version of the demo on every server that shares the database.',
      );
    }
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await migration.apply(client);
      await client.query('INSERT INTO roundtrip_demo_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
