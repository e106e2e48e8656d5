// The demo's stores as the definitions and the server see them, whichever database holds them (opened by
// demo-stores.ts: SQLite, or PostgreSQL in postgres-demo-stores.ts), and the options they open with.
import type { IncidentsStore } from './incidents-store.ts';
import type { MeetingsStore } from './meetings-store.ts';
import type { OrdersStore } from './orders-store.ts';

export interface DemoStores {
  orders: OrdersStore;
  meetings: MeetingsStore;
  incidents: IncidentsStore;
  /** Closes every store. */
  close(): Promise<void>;
}

export interface DemoStoresOptions {
  /**
   * How long a write waits for another connection's lock before failing with a DatabaseLockedError;
   * the wait never blocks other requests. @defaultValue 5000
   */
  busyTimeoutMs?: number | undefined;
  /** Clock for refund, booking and report times, for tests. @defaultValue () => new Date() */
  now?: () => Date;
}
