// The demo MCP server over stdio: the refund_order, order_status, book_meeting and report_incident tools,
// the refund_email and meeting_agenda prompts and the customer_statement and room_bookings resources,
// over the demo's SQLite file or, for a postgres:// URL, its PostgreSQL database. Effects are recorded
// in the same file or database unless ROUNDTRIP_LEDGER says otherwise.
// stdout carries protocol messages only; everything for people goes to stderr.
import { mainStdioServer } from '@roundtrip/transport-stdio';
import { dbBusyTimeoutMs } from './db-busy-timeout.ts';
import { dbLocation, isPostgresUrl, ledgerInDatabase, shownDbLocation } from './db-location.ts';
import { createDemoDefinitions, DEMO_VARIABLES, SERVER_INSTRUCTIONS, SERVER_NAME, SERVER_VERSION } from './demo-definitions.ts';
import { type DemoStores, openDemoStores } from './demo-stores.ts';
import { demoRefundMs } from './refund-delay.ts';

const cannotStart = (problem: string) => {
  process.stderr.write(`[${SERVER_NAME}] cannot start: ${problem}\n`);
  process.exitCode = 1;
};

const path = dbLocation();
let busyTimeoutMs: number | undefined;
try {
  busyTimeoutMs = dbBusyTimeoutMs();
  demoRefundMs(); // checked at start; refund_customer reads it at each refund
} catch (error) {
  cannotStart((error as Error).message);
}
let stores: DemoStores | undefined;
if (busyTimeoutMs !== undefined) {
  try {
    stores = await openDemoStores(path, { busyTimeoutMs });
  } catch (error) {
    const fix = isPostgresUrl(path)
      ? 'ROUNDTRIP_DB names the PostgreSQL database (postgres://user:password@host:5432/database), or a SQLite file path.'
      : 'Set ROUNDTRIP_DB to a file path in a folder this user can write to.';
    cannotStart(`${(error as Error).message}\n    ${fix}`);
  }
}

if (stores) {
  const opened = stores;
  const running = await mainStdioServer({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    ...createDemoDefinitions(opened, { ledgerInDatabase: ledgerInDatabase(path) }),
    instructions: SERVER_INSTRUCTIONS,
    ownVariables: DEMO_VARIABLES,
    // the effect ledger's table sits beside the demo's tables in the same file or database (ROUNDTRIP_LEDGER overrides it)
    ledger: { path },
    onClose: () => opened.close(),
  });
  if (running) process.stderr.write(`[${SERVER_NAME}] info demo: database at ${shownDbLocation(path)}\n`);
  else await opened.close();
}
