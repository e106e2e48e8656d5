// The PostgreSQL the tests use: ROUNDTRIP_TEST_PG names a server and a role that may create databases
// (`eval "$(bash scripts/services.sh)"` starts Debian's PostgreSQL on loopback and sets it). Each test
// file creates its own database, a schema per test inside it, and drops the database when done.
// Without the variable the PostgreSQL tests skip and say so in one line; under CI=true they fail.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const url = process.env.ROUNDTRIP_TEST_PG?.trim() || undefined;
const required = process.env.CI === 'true';

/** True when the PostgreSQL tests cannot run here and need not: they are skipped. */
export const skipPostgres = url === undefined && !required;
if (skipPostgres) {
  process.stderr.write(
    'skipping the PostgreSQL tests: ROUNDTRIP_TEST_PG is not set (run `eval "$(bash scripts/services.sh)"`, then the tests again)\n',
  );
}

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
  drop(): Promise<void>;
}

/** Creates a database with a random name on ROUNDTRIP_TEST_PG's server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (url === undefined) {
    throw new Error(
      'ROUNDTRIP_TEST_PG is not set, and CI=true requires the PostgreSQL tests: run `eval "$(bash scripts/services.sh)"` first (.ci/run does).',
    );
  }
  const name = `roundtrip_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    throw new Error(
      `Cannot create a test database on ROUNDTRIP_TEST_PG=${shown(url)} (${(error as Error).message}): ` +
        'start PostgreSQL and the test role with `eval "$(bash scripts/services.sh)"`, or point ROUNDTRIP_TEST_PG at a server where this role may create databases.',
      { cause: error },
    );
  } finally {
    await admin.end().catch(() => undefined);
  }
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  const sql = new pg.Pool({ connectionString: databaseUrl.href, max: 3 });
  return {
    sql,
    async freshSchema() {
      const schema = `s_${randomBytes(6).toString('hex')}`;
      await sql.query(`CREATE SCHEMA ${schema}`);
      const schemaUrl = new URL(databaseUrl.href);
      schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
      return { url: schemaUrl.href, schema };
    },
    async drop() {
      await sql.end();
      const dropper = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
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
