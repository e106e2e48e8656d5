// The demo's stores in one PostgreSQL database: orders and refunds, meetings, incidents (and, when
// ROUNDTRIP_LEDGER does not say otherwise, the engine's effect ledger). One pool serves the three.
import type { DemoStores, DemoStoresOptions } from './demo-stores-types.ts';
import { openPostgresDatabase } from './postgres-database.ts';
import { openPostgresIncidentsStore } from './postgres-incidents-store.ts';
import { openPostgresMeetingsStore } from './postgres-meetings-store.ts';
import { openPostgresOrdersStore } from './postgres-orders-store.ts';

/**
 * Opens every store of the demo in the PostgreSQL database at `url`, creating and seeding its tables on
 * first run (servers that start together take turns). Throws naming the database, without its password.
 *
 * @example
 * const stores = await openPostgresDemoStores('postgres://demo:secret@db.internal/shop');
 */
export async function openPostgresDemoStores(url: string, options: DemoStoresOptions = {}): Promise<DemoStores> {
  const database = await openPostgresDatabase(url, { busyTimeoutMs: options.busyTimeoutMs });
  const stores = {
    orders: openPostgresOrdersStore(database, options),
    meetings: openPostgresMeetingsStore(database, options),
    incidents: openPostgresIncidentsStore(database, options),
  };
  return { ...stores, close: async () => void (await Promise.all(Object.values(stores).map((store) => store.close()))) };
}
