// The PostgreSQL task store: the task store contract (task-store-contract.ts) on a schema of its own per test,
// a pool per handle; then what only it has: its own migrations beside the ledger's. Needs ROUNDTRIP_TEST_PG
// (see postgres-test-database.ts); the errors for a server that cannot be reached and the option checks run without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresLedger, createPostgresTaskStore, type PostgresTaskStore } from '../src/postgres/index.ts';
import { createTestDatabase, skipPostgres, type TestDatabase } from './postgres-test-database.ts';
import { refusedPort } from './refused-port.ts';
import { describeTaskStoreContract } from './task-store-contract.ts';

describe('createPostgresTaskStore, before any server answers', () => {
  it('says which server it cannot reach (without the password) and to start PostgreSQL', async () => {
    const port = await refusedPort();
    const failure = createPostgresTaskStore({ url: `postgres://roundtrip:s3cret@127.0.0.1:${port}/orders` });
    await expect(failure).rejects.toThrow(`Cannot open the task store at postgres://roundtrip@127.0.0.1:${port}/orders (ECONNREFUSED`);
    await expect(failure).rejects.toThrow(/start PostgreSQL/);
    await expect(failure).rejects.not.toThrow('s3cret');
  });

  it('refuses what is not a PostgreSQL URL, and options it cannot use, naming them', async () => {
    await expect(createPostgresTaskStore({ url: 'mysql://u:p@host/db' })).rejects.toThrow(
      'createPostgresTaskStore needs the URL of a PostgreSQL database, such as postgres://user:password@host:5432/database; it got a mysql: URL.',
    );
    await expect(createPostgresTaskStore({ url: 'postgres://u:secret@127.0.0.1:1/db', statementTimeoutMs: 0 })).rejects.toThrow(
      'createPostgresTaskStore got statementTimeoutMs = 0 for postgres://u@127.0.0.1:1/db; set it to a number, 1 or more.',
    );
  });
});

describe.skipIf(skipPostgres)('the PostgreSQL task store', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  describeTaskStoreContract('the PostgreSQL task store', async () => {
    const { url } = await db.freshSchema();
    const handles: PostgresTaskStore[] = [];
    return {
      open: async () => {
        const store = await createPostgresTaskStore({ url });
        handles.push(store);
        return store;
      },
      close: async () => {
        await Promise.all(handles.map((store) => store.close()));
      },
    };
  });

  it('migrates its table apart from the ledger’s, once, however many open it at once; a closed store says so', async () => {
    const { url, schema } = await db.freshSchema();
    const stores = await Promise.all([1, 2, 3].map(() => createPostgresTaskStore({ url })));
    const ledger = await createPostgresLedger({ url });
    try {
      const { rows } = await db.sql.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
        [schema],
      );
      expect(rows.map((r) => r.table_name)).toEqual([
        'roundtrip_effects',
        'roundtrip_ledger_migrations',
        'roundtrip_task_migrations',
        'roundtrip_tasks',
      ]);
      const applied = await db.sql.query(`SELECT version, name FROM ${schema}.roundtrip_task_migrations`);
      expect(applied.rows).toEqual([{ version: 1, name: 'roundtrip_tasks: one row per task, replaced at a version (compare-and-set)' }]);
    } finally {
      await ledger.close();
      await Promise.all(stores.map((store) => store.close()));
    }
    await stores[0]!.close();
    await expect(stores[0]!.read('task_1', 0)).rejects.toThrow('is closed; create a new one with createPostgresTaskStore to use it again.');
  });

  it('refuses a database migrated by a newer engine, saying to upgrade', async () => {
    const { url, schema } = await db.freshSchema();
    (await createPostgresTaskStore({ url })).close();
    await db.sql.query(`INSERT INTO ${schema}.roundtrip_task_migrations (version, name) VALUES (99, 'from the future')`);
    await expect(createPostgresTaskStore({ url })).rejects.toThrow(
      'its tables are at migration 99, made by a newer @roundtrip/engine than this one (which knows migrations up to 1). Upgrade @roundtrip/engine',
    );
  });
});
