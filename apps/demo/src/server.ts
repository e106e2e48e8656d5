// The demo MCP server over stdio: the refund_order and order_status tools over the orders database.
// stdout carries protocol messages only; everything for people goes to stderr.
import { mainStdioServer } from '@roundtrip/transport-stdio';
import { dbPath } from './db-path.ts';
import { createOrderStatusTool } from './order-status-tool.ts';
import { type OrdersStore, openOrdersStore } from './orders-store.ts';
import { createRefundOrderTool } from './refund-order-tool.ts';

const SERVER_NAME = 'roundtrip-demo';
const SERVER_VERSION = '0.1.0';

const path = dbPath();
let store: OrdersStore | undefined;
try {
  store = openOrdersStore(path);
} catch (error) {
  process.stderr.write(`[${SERVER_NAME}] cannot start: ${(error as Error).message}\n    Set ROUNDTRIP_DB to a file path in a folder this user can write to.\n`);
  process.exitCode = 1;
}

if (store) {
  const opened = store;
  const running = await mainStdioServer({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    tools: [createRefundOrderTool(opened), createOrderStatusTool(opened)],
    instructions: 'Looks up and refunds orders. Each refund asks the user to confirm the amount first; an order is refunded at most once.',
    onClose: () => opened.close(),
  });
  if (running) process.stderr.write(`[${SERVER_NAME}] info orders: database at ${path}\n`);
  else opened.close();
}
