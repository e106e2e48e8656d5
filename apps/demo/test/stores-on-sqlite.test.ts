// The stores' contract (store-contract.ts) on a SQLite file of its own per test; what only SQLite files
// have is in orders-store.test.ts, meetings-and-incidents-store.test.ts and store-lock-wait.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoStores, openDemoStores } from '../src/demo-stores.ts';
import { describeStoresContract } from './store-contract.ts';

describeStoresContract('a SQLite file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rt-demo-stores-'));
  const file = join(dir, 'orders.db');
  const opened: DemoStores[] = [];
  return {
    open: async (options) => {
      const stores = await openDemoStores(file, options);
      opened.push(stores);
      return stores;
    },
    close: async () => {
      for (const stores of opened) await stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
