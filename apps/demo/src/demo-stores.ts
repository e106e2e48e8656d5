// The demo's stores: orders and refunds, meetings, incidents (and, beside them, the engine's effect
// ledger), in one SQLite file or, for a `postgres://` URL, in one PostgreSQL database that demo servers
// on several machines share.
import { isPostgresUrl } from './db-location.ts';
import type { DemoStores, DemoStoresOptions } from './demo-stores-types.ts';
import type { MeetingsStore } from './meetings-store.ts';
import { openSqliteIncidentsStore } from './sqlite-incidents-store.ts';
import { openSqliteMeetingsStore } from './sqlite-meetings-store.ts';
import { openSqliteOrdersStore } from './sqlite-orders-store.ts';

export type { DemoStores, DemoStoresOptions } from './demo-stores-types.ts';

/** Each store on its own connection to the file, bringing its own tables up to date. */
function openSqliteDemoStores(path: string, options: DemoStoresOptions): DemoStores {
  const orders = openSqliteOrdersStore(path, options);
  let meetings: MeetingsStore | undefined;
  try {
    meetings = openSqliteMeetingsStore(path, options);
    const incidents = openSqliteIncidentsStore(path, options);
    const opened = { orders, meetings, incidents };
    const close = async () => {
      for (const store of Object.values(opened)) await store.close();
    };
    return { ...opened, close };
  } catch (error) {
    void meetings?.close();
    void orders.close();
    throw error;
  }
}

/**
 * Opens every store of the demo at `location`: the PostgreSQL database a `postgres://` (or
 * `postgresql://`) URL names, else the SQLite file at that path; either is created and seeded on first
 * run. When one store cannot be opened, those already open are closed and the error is thrown.
 *
 * @example
 * const stores = await openDemoStores(dbLocation(), { busyTimeoutMs: dbBusyTimeoutMs() });
 * const { tools, prompts, resources } = createDemoDefinitions(stores);
 */
export async function openDemoStores(location: string, options: DemoStoresOptions = {}): Promise<DemoStores> {
  if (!isPostgresUrl(location)) return openSqliteDemoStores(location, options);
  // loaded only for PostgreSQL, so a server on a SQLite file never loads pg
  const { openPostgresDemoStores } = await import('./postgres-demo-stores.ts');
  return openPostgresDemoStores(location, options);
}
