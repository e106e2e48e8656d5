// The demo MCP server over stdio: the refund_order and order_status tools, the refund_email prompt and
// the customer_statement resource, over the orders database. Effects are recorded in the same file.
// stdout carries protocol messages only; everything for people goes to stderr.
import { mainStdioServer } from '@roundtrip/transport-stdio';
import { dbPath } from './db-path.ts';
import { createDemoDefinitions, SERVER_INSTRUCTIONS, SERVER_NAME, SERVER_VERSION } from './demo-definitions.ts';
import { type OrdersStore, openOrdersStore } from './orders-store.ts';

const path = dbPath();
let store: OrdersStore | undefined;
try {
  store = openOrdersStore(path);
} catch (error) {
  process.stderr.write(
    `[${SERVER_NAME}] cannot start: ${(error as Error).message}\n    Set ROUNDTRIP_DB to a file path in a folder this user can write to.\n`,
  );
  process.exitCode = 1;
}

if (store) {
  const opened = store;
  const running = await mainStdioServer({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    ...createDemoDefinitions(opened),
    instructions: SERVER_INSTRUCTIONS,
    // the effect ledger's table sits beside the orders in the same file (ROUNDTRIP_LEDGER overrides it)
    ledger: { path },
    onClose: () => opened.close(),
  });
  if (running) process.stderr.write(`[${SERVER_NAME}] info orders: database at ${path}\n`);
  else opened.close();
}
