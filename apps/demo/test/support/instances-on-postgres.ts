// What the tests of several demo instances on one PostgreSQL database share: the database (a fresh schema for
// the stores and one for the effect ledger), a new key file, and starting the instances all at once.
import { join } from 'node:path';
import { expect } from 'vitest';
import { main } from '../../../../packages/cli/src/index.ts';
import { createTestDatabase, type TestDatabase } from '../../../../packages/engine/test/postgres-test-database.ts';

export interface SharedSetting {
  readonly db: TestDatabase;
  /** The stores' URL (ROUNDTRIP_DB) and the ledger's (ROUNDTRIP_LEDGER), each a schema of its own. */
  readonly stores: string;
  readonly ledger: string;
  /** A key file every instance reads (`roundtrip keys new`). */
  readonly keyFile: string;
}

/** The test database with two fresh schemas, and a new key file in `dir`. Drop `db` when done. */
export async function sharedSetting(dir: string): Promise<SharedSetting> {
  const db = await createTestDatabase();
  const [stores, ledger] = await Promise.all([db.freshSchema(), db.freshSchema()]);
  const keyFile = join(dir, 'keys');
  const quiet = { write: () => {} };
  expect(await main(['keys', 'new', keyFile], { out: quiet, err: quiet, cwd: dir })).toBe(0);
  return { db, stores: stores.url, ledger: ledger.url, keyFile };
}

/** Starts the instances named, all at once; each started one goes into `into` (for the teardown) before a failure is thrown. */
export async function startEach<T>(names: readonly string[], start: (name: string) => Promise<T>, into: T[]): Promise<void> {
  const started = await Promise.allSettled(names.map(start));
  for (const each of started) if (each.status === 'fulfilled') into.push(each.value);
  for (const each of started) if (each.status === 'rejected') throw each.reason;
}
