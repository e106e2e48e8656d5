// The demo's stores over one SQLite file: orders and refunds, meetings, incidents (and, beside them,
// the engine's effect ledger). Each store keeps its own connection and brings its own tables up to date.
import { type IncidentsStore, openIncidentsStore } from './incidents-store.ts';
import { type MeetingsStore, openMeetingsStore } from './meetings-store.ts';
import { type OrdersStore, openOrdersStore } from './orders-store.ts';

export interface DemoStores {
  orders: OrdersStore;
  meetings: MeetingsStore;
  incidents: IncidentsStore;
  /** Closes every store. */
  close(): void;
}

export interface DemoStoresOptions {
  /**
   * How long a write waits for another connection's lock on the file before failing with a
   * DatabaseLockedError; the wait never blocks other requests. @defaultValue 5000
   */
  busyTimeoutMs?: number | undefined;
}

/**
 * Opens every store of the demo on the file at `path`, creating and seeding it on first run. When one
 * cannot be opened, those already open are closed and the error is thrown.
 *
 * @example
 * const stores = openDemoStores(dbPath(), { busyTimeoutMs: dbBusyTimeoutMs() });
 * const { tools, prompts, resources } = createDemoDefinitions(stores);
 */
export function openDemoStores(path: string, options: DemoStoresOptions = {}): DemoStores {
  const orders = openOrdersStore(path, options);
  let meetings: MeetingsStore | undefined;
  try {
    meetings = openMeetingsStore(path, options);
    const incidents = openIncidentsStore(path, options);
    const opened = { orders, meetings, incidents };
    const close = () => {
      for (const store of Object.values(opened)) store.close();
    };
    return { ...opened, close };
  } catch (error) {
    meetings?.close();
    orders.close();
    throw error;
  }
}
