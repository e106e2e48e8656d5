// Instances of the demo over HTTP for the benches behind nginx (scale-out, http-scaling): a PostgreSQL
// database of the test server (createTestDatabase; the demo's stores and the effect ledger, each in a fresh
// schema of its own, so the refund is not in the ledger's transaction), one key file,
// the HTTP entry bundled once into a temporary folder, and `count` instances started from it
// (apps/demo/test/support/demo-instances.ts). Needs ROUNDTRIP_TEST_PG: `eval "$(bash scripts/services.sh)"`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleForNode } from '../apps/demo/test/support/bundle.ts';
import { type DemoInstance, startInstances } from '../apps/demo/test/support/demo-instances.ts';
import { main as roundtrip } from '../packages/cli/src/index.ts';
import { createTestDatabase } from '../packages/engine/test/postgres-test-database.ts';

export interface DemoCluster {
  instances: DemoInstance[];
  /** Stops the instances, drops the database and removes the folder. */
  stop(): Promise<void>;
}

/** Starts `count` instances (i1, i2, …) sharing the database and key file; `name` names the temporary folder. */
export async function startDemoCluster(name: string, count: number): Promise<DemoCluster> {
  const dir = mkdtempSync(join(tmpdir(), `roundtrip-bench-${name}-`));
  const db = await createTestDatabase();
  const instances: DemoInstance[] = [];
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [stores, ledger, launcher] = await Promise.all([
      db.freshSchema(),
      db.freshSchema(),
      bundleForNode(new URL('../apps/demo/src/http-server.ts', import.meta.url), join(dir, 'http-server.mjs')),
    ]);
    const keyFile = join(dir, 'keys');
    await roundtrip(['keys', 'new', keyFile], { out: { write: () => true }, err: process.stderr, cwd: process.cwd() });
    instances.push(...(await startInstances({ launcher, keyFile, db: stores.url, ledger: ledger.url, home: dir }, count)));
    return { instances, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
