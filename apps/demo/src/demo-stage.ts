// What every scene of the scripted demo works with.
import type { ConnectedClient, DemoServerEnv } from './connect-demo-client.ts';
import type { IncidentsStore } from './incidents-store.ts';
import type { MeetingsStore } from './meetings-store.ts';
import type { OrdersStore } from './orders-store.ts';

export interface DemoStage {
  /** Client A: speaks 2026-07-28 and handles every input_required round itself. */
  a: ConnectedClient;
  /** The demo's own connection to the orders database the server uses, to check what really happened. */
  store: OrdersStore;
  /** The same, for the meetings and the incidents. */
  meetings: MeetingsStore;
  incidents: IncidentsStore;
  env: DemoServerEnv;
  /** Every client connected so far, closed at the end. */
  opened: ConnectedClient[];
}
