// The database this process's PostgreSQL tests share (postgres-test-database.ts): one per test worker,
// not one per test file, because CREATE DATABASE and DROP DATABASE cost 0.1 – 0.6 s and 0.02 – 0.3 s each
// on the test server (measured on 2 cores under load) where a schema costs a millisecond. A worker claims
// one of SLOTS databases, roundtrip_test_slot_<n>, by a session advisory lock held on a connection to
// ROUNDTRIP_TEST_PG for as long as the process lives (PostgreSQL releases it when the process ends, however
// it ends), creates the database the first time any run uses that slot, and drops the schemas a process
// that held the slot before left in it. The files of one worker run one after another, so what is
// database-wide (advisory locks, pg_stat_activity by database) is theirs alone, as it was with a database
// per file. The slot databases stay on the test server between runs, holding nothing once their files dropped their schemas.
import pg from 'pg';

/** How many workers (of this run and of runs beside it on the same server) can each have a database at once. */
const SLOTS = 32;
/** The first key of the slots' advisory locks (the second is the slot): the ASCII of 'RtTs'. */
const SLOT_LOCK = 0x52745473;
const CLAIM = Symbol.for('roundtrip.test.postgres-worker-database');

export interface WorkerDatabase {
  /** The database's URL (ROUNDTRIP_TEST_PG with the slot database's name). */
  url: string;
  name: string;
}

type Claimed = WorkerDatabase | 'none free';
const claims = globalThis as { [CLAIM]?: Promise<Claimed> };

/** The schemas this role made in `databaseUrl`, dropped (those of a process that held the slot before). */
async function dropLeftSchemas(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT quote_ident(nspname) AS name FROM pg_namespace WHERE nspowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)
       AND nspname <> 'public' AND nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'`,
    );
    if (rows.length > 0) await client.query(`DROP SCHEMA IF EXISTS ${rows.map((row) => row.name).join(', ')} CASCADE`);
  } finally {
    await client.end();
  }
}

async function claim(adminUrl: string, onLost: () => void): Promise<Claimed> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  let held: number | undefined;
  try {
    for (let slot = 1; slot <= SLOTS && held === undefined; slot++) {
      const { rows } = await admin.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [SLOT_LOCK, slot]);
      if (rows[0]!.ok) held = slot;
    }
    if (held === undefined) {
      await admin.end();
      return 'none free';
    }
    const name = `roundtrip_test_slot_${held}`;
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await dropLeftSchemas(url.href);
    // the lock lives as long as this connection: kept open, without keeping the process alive; lost with
    // the connection (the server restarted), after which the next caller claims a slot again
    admin.on('error', onLost);
    (admin as pg.Client & { unref(): void }).unref();
    return { url: url.href, name };
  } catch (error) {
    await admin.end().catch(() => undefined);
    throw error;
  }
}

/**
 * This process's test database on the server `adminUrl` names (a role that may create databases), claimed
 * on first use; 'none free' when every slot is held by another process.
 */
export function workerDatabase(adminUrl: string): Promise<Claimed> {
  const existing = claims[CLAIM];
  if (existing) return existing;
  const forget = () => {
    if (claims[CLAIM] === claimed) delete claims[CLAIM];
  };
  const claimed = claim(adminUrl, forget);
  claims[CLAIM] = claimed;
  // a claim that failed is not kept: the next caller tries again (and says why, if it fails again)
  claimed.catch(forget);
  return claimed;
}
