// The PostgreSQL the tests use: ROUNDTRIP_TEST_PG names a server and a role that may create databases,
// either a server that runs already (nothing to install, no root) or the one `eval "$(bash scripts/services.sh)"`
// installs and starts on loopback (as root or through sudo) and sets it to. Each test
// file gets a handle on its worker's database (postgres-worker-database.ts: one per test worker, kept on
// the server between runs), a schema per test inside it, and drops its schemas when done; when every
// worker database is held by other processes, the file creates a database of its own and drops it.
// Without the variable the PostgreSQL tests skip and say so in one line, once per run however many
// workers load this module (say-once-per-run.ts); under CI=true they fail.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { workerDatabase } from './postgres-worker-database.ts';
import { sayOncePerRun } from './say-once-per-run.ts';

const url = process.env.ROUNDTRIP_TEST_PG?.trim() || undefined;
const required = process.env.CI === 'true';

/** True when the PostgreSQL tests cannot run here and need not: they are skipped. */
export const skipPostgres = url === undefined && !required;
/** What to do to run them: name a server, or start one. */
const HOW =
  'set ROUNDTRIP_TEST_PG to a PostgreSQL server you have, as postgres://<role>:<password>@<host>:<port>/postgres with a role that may create databases, ' +
  'or install and start one on 127.0.0.1 with `eval "$(bash scripts/services.sh)"` (needs root or sudo)';
if (skipPostgres) sayOncePerRun(`skipping the PostgreSQL tests: ROUNDTRIP_TEST_PG is not set (${HOW}; then run the tests again)`);

const shown = (text: string) => {
  const parsed = new URL(text);
  parsed.password = '';
  return parsed.href;
};

export interface TestDatabase {
  /** A new, empty schema, and a URL of this database whose search_path is that schema: a ledger opened on it starts from nothing. */
  freshSchema(): Promise<{ url: string; schema: string }>;
  /** Runs SQL on this database (as the test role), e.g. to look at a row or hold a lock. */
  sql: pg.Pool;
  /** Drops what this handle made (its schemas, or its own database) and closes `sql`. */
  drop(): Promise<void>;
}

const cannotCreate = (server: string, error: unknown) =>
  new Error(
    `Cannot create a test database on ROUNDTRIP_TEST_PG=${shown(server)} (${(error as Error).message}): ` +
      'start PostgreSQL and the test role with `eval "$(bash scripts/services.sh)"`, or point ROUNDTRIP_TEST_PG at a server where this role may create databases.',
    { cause: error },
  );

/** A new schema's name, and a URL of `databaseUrl` whose search_path is that schema. */
async function makeSchema(sql: pg.Pool, databaseUrl: string): Promise<{ url: string; schema: string }> {
  const schema = `s_${randomBytes(6).toString('hex')}`;
  await sql.query(`CREATE SCHEMA ${schema}`);
  const schemaUrl = new URL(databaseUrl);
  schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
  return { url: schemaUrl.href, schema };
}

/** A handle on this worker's database (see postgres-worker-database.ts), or on a database of its own when none is free. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (url === undefined) {
    throw new Error(`ROUNDTRIP_TEST_PG is not set, and CI=true requires the PostgreSQL tests: ${HOW} (.ci/run does the latter).`);
  }
  let shared: Awaited<ReturnType<typeof workerDatabase>>;
  try {
    shared = await workerDatabase(url);
  } catch (error) {
    throw cannotCreate(url, error);
  }
  if (shared === 'none free') return createOwnDatabase(url);
  const databaseUrl = shared.url;
  const sql = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  const schemas: string[] = [];
  return {
    sql,
    async freshSchema() {
      const made = await makeSchema(sql, databaseUrl);
      schemas.push(made.schema);
      return made;
    },
    async drop() {
      try {
        if (schemas.length > 0) {
          const client = await sql.connect();
          try {
            // a session a test left behind may still hold a lock in one of them: then they stay, and the
            // next process to claim this database drops them (postgres-worker-database.ts)
            await client.query("SET lock_timeout = '5s'");
            // with each schema, the job queue's that servers on it made beside it (`<schema>_jobs`: pg-boss)
            const all = schemas.flatMap((schema) => [schema, `${schema}_jobs`]);
            await client.query(`DROP SCHEMA IF EXISTS ${all.join(', ')} CASCADE`);
          } catch (error) {
            if ((error as { code?: string }).code !== '55P03') throw error;
          } finally {
            client.release();
          }
        }
      } finally {
        await sql.end();
      }
    },
  };
}

/** Creates a database with a random name on `server`, for one handle, dropped by its drop(). */
async function createOwnDatabase(server: string): Promise<TestDatabase> {
  const name = `roundtrip_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    throw cannotCreate(server, error);
  } finally {
    await admin.end().catch(() => undefined);
  }
  const databaseUrl = new URL(server);
  databaseUrl.pathname = `/${name}`;
  const sql = new pg.Pool({ connectionString: databaseUrl.href, max: 3 });
  return {
    sql,
    freshSchema: () => makeSchema(sql, databaseUrl.href),
    async drop() {
      await sql.end();
      const dropper = new pg.Client({ connectionString: server, connectionTimeoutMillis: 5000 });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } catch (error) {
        // FORCE may not end an autovacuum worker on PostgreSQL 15 for a role that is not a superuser
        // (it has no role to be a member of: 42501); a plain DROP DATABASE ends such a worker itself
        if ((error as { code?: string }).code !== '42501') throw error;
        await dropper.query(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await dropper.end();
      }
    },
  };
}
