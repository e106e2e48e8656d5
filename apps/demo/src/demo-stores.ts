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

/**
 * Opens every store of the demo on the file at `path`, creating and seeding it on first run. When one
 * cannot be opened, those already open are closed and the error is thrown.
 *
 * @example
 * const stores = openDemoStores(dbPath());
 * const { tools, prompts, resources } = createDemoDefinitions(stores);
 */
export function openDemoStores(path: string): DemoStores {
  const orders = openOrdersStore(path);
  let meetings: MeetingsStore | undefined;
  try {
    meetings = openMeetingsStore(path);
    const incidents = openIncidentsStore(path);
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
