// The demo's orders and refunds in a real SQLite file, so that several server processes on one machine
// can share them. Reads are synchronous in better-sqlite3 and answered as resolved promises.
import { realpathSync } from 'node:fs';
import type { LedgerTransaction } from '@roundtrip/engine';
import { sqliteTransaction } from '@roundtrip/engine/sqlite';
import type Database from 'better-sqlite3';
import {
  checkAmount,
  defaultRequester,
  type Order,
  type OrdersStore,
  type OrdersStoreOptions,
  type RefundResult,
  refundRefusal,
  SEED_LIN_ORDERS,
  SEED_ORDERS,
  SEED_REFUNDS,
} from './orders-store.ts';
import { hasTable, openSqliteFile } from './sqlite-file.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS orders (
    id           TEXT PRIMARY KEY,
    customer     TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    currency     TEXT NOT NULL DEFAULT 'USD',
    status       TEXT NOT NULL CHECK (status IN ('paid', 'refunded')),
    created_at   TEXT NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS refunds (
    id           INTEGER PRIMARY KEY,
    order_id     TEXT NOT NULL UNIQUE REFERENCES orders (id),
    amount_cents INTEGER NOT NULL,
    refunded_at  TEXT NOT NULL,
    requested_by TEXT NOT NULL
  ) STRICT;
`;

/** Files made by the first version have no `created_at`: it is added, and the seed orders get their dates. */
const ADD_CREATED_AT = "ALTER TABLE orders ADD COLUMN created_at TEXT NOT NULL DEFAULT '1970-01-01T00:00:00.000Z'";

interface OrderRow {
  id: string;
  customer: string;
  amount_cents: number;
  currency: string;
  status: Order['status'];
  created_at: string;
  refunded_at: string | null;
}

const toOrder = (row: OrderRow): Order => ({
  id: row.id,
  customer: row.customer,
  amountCents: row.amount_cents,
  currency: row.currency,
  status: row.status,
  createdAt: row.created_at,
  refundedAt: row.refunded_at,
});

function prepareSchema(db: Database.Database): void {
  const hadOrders = hasTable(db, 'orders');
  const columns = hadOrders ? (db.prepare('PRAGMA table_info(orders)').all() as Array<{ name: string }>).map((c) => c.name) : [];
  db.exec(SCHEMA);
  // a file from the first version: keep its orders and refunds, date the seed orders, add the new ones
  const migrating = hadOrders && !columns.includes('created_at');
  if (migrating) db.exec(ADD_CREATED_AT);
  const insertOrder = db.prepare(
    "INSERT OR IGNORE INTO orders (id, customer, amount_cents, currency, status, created_at) VALUES (?, ?, ?, 'USD', ?, ?)",
  );
  const insertRefund = db.prepare('INSERT OR IGNORE INTO refunds (order_id, amount_cents, refunded_at, requested_by) VALUES (?, ?, ?, ?)');
  const { n } = db.prepare('SELECT count(*) AS n FROM orders').get() as { n: number };
  if (migrating) {
    const date = db.prepare('UPDATE orders SET created_at = ? WHERE id = ?');
    for (const o of SEED_ORDERS) date.run(o.createdAt, o.id);
    for (const o of SEED_ORDERS) insertOrder.run(o.id, o.customer, o.amountCents, o.status, o.createdAt);
  } else if (n === 0) {
    for (const o of SEED_ORDERS) insertOrder.run(o.id, o.customer, o.amountCents, o.status, o.createdAt);
    for (const r of SEED_REFUNDS) insertRefund.run(r.orderId, r.amountCents, r.refundedAt, r.requestedBy);
  }
  // lin's orders came later: a file made before them gets them (OR IGNORE: never over rows already there)
  for (const o of SEED_LIN_ORDERS) insertOrder.run(o.id, o.customer, o.amountCents, o.status, o.createdAt);
}

function isUpToDate(db: Database.Database): boolean {
  const columns = (db.prepare('PRAGMA table_info(orders)').all() as Array<{ name: string }>).map((c) => c.name);
  return (
    columns.includes('created_at') &&
    hasTable(db, 'refunds') &&
    (db.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n > 0 &&
    db.prepare('SELECT 1 FROM orders WHERE id = ?').get(SEED_LIN_ORDERS[0].id) !== undefined
  );
}

const SELECT_ORDER = `SELECT o.id, o.customer, o.amount_cents, o.currency, o.status, o.created_at, r.refunded_at
   FROM orders o LEFT JOIN refunds r ON r.order_id = o.id
  WHERE o.id = ?`;

type RefundTransaction = Database.Transaction<(id: string, requestedBy: string, expected: number | undefined) => RefundResult>;

/** The refund as one transaction on `db`: the store's own connection, or the ledger's on the same file. */
function refundOn(db: Database.Database, now: () => Date): RefundTransaction {
  const selectOrder = db.prepare<[string], OrderRow>(SELECT_ORDER);
  const insertRefund = db.prepare<[string, number, string, string]>(
    'INSERT INTO refunds (order_id, amount_cents, refunded_at, requested_by) VALUES (?, ?, ?, ?)',
  );
  const markRefunded = db.prepare<[string]>("UPDATE orders SET status = 'refunded' WHERE id = ?");
  return db.transaction((id: string, requestedBy: string, expected: number | undefined): RefundResult => {
    const row = selectOrder.get(id);
    const order = row ? toOrder(row) : undefined;
    if (!order) return { status: 'not_found' };
    const refused = refundRefusal(order, expected);
    if (refused) return refused;
    const refundedAt = now().toISOString();
    insertRefund.run(id, order.amountCents, refundedAt, requestedBy);
    markRefunded.run(id);
    return { status: 'refunded', order: { ...order, status: 'refunded', refundedAt }, refundedAt, amountCents: order.amountCents };
  });
}

/**
 * Opens the orders store in the SQLite file at `path`, creating the folder, the schema and the seed
 * orders on first run, and bringing a file from the first version (no `created_at` column) up to date.
 * Throws `Could not open the orders database at <path>: <reason>`.
 *
 * @example
 * const store = openSqliteOrdersStore(dbLocation());
 * await store.refundOrder('ord_51', { expectedAmountCents: 4900 }); // { status: 'refunded', … } once, then 'already_refunded'
 */
export function openSqliteOrdersStore(path: string, options: OrdersStoreOptions = {}): OrdersStore {
  const now = options.now ?? (() => new Date());
  const { db, write } = openSqliteFile(path, {
    what: 'orders database',
    busyTimeoutMs: options.busyTimeoutMs,
    isUpToDate,
    prepare: prepareSchema,
  });

  const selectOrder = db.prepare<[string], OrderRow>(SELECT_ORDER);
  const updateAmount = db.prepare<[number, string]>("UPDATE orders SET amount_cents = ? WHERE id = ? AND status = 'paid'");
  const changeAmount = db.transaction((id: string, amountCents: number) => {
    updateAmount.run(amountCents, id);
  });
  const selectRefunds = db.prepare<[string], { orderId: string; amountCents: number; refundedAt: string; requestedBy: string }>(
    'SELECT order_id AS orderId, amount_cents AS amountCents, refunded_at AS refundedAt, requested_by AS requestedBy FROM refunds WHERE order_id = ?',
  );
  const selectPaid = db.prepare<[string], OrderRow>(
    `SELECT o.id, o.customer, o.amount_cents, o.currency, o.status, o.created_at, r.refunded_at
       FROM orders o LEFT JOIN refunds r ON r.order_id = o.id
      WHERE o.customer = ? AND o.status = 'paid' AND r.order_id IS NULL ORDER BY o.created_at, o.id`,
  );
  const selectMonths = db.prepare<[string, string], { month: string }>(
    `SELECT substr(created_at, 1, 7) AS month FROM orders WHERE customer = ?
      UNION
     SELECT substr(r.refunded_at, 1, 7) FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.customer = ?
      ORDER BY month`,
  );
  const selectMonthOrders = db.prepare<[string, string], { id: string; createdAt: string; amountCents: number }>(
    'SELECT id, created_at AS createdAt, amount_cents AS amountCents FROM orders WHERE customer = ? AND substr(created_at, 1, 7) = ? ORDER BY created_at, id',
  );
  const selectMonthRefunds = db.prepare<[string, string], { orderId: string; refundedAt: string; amountCents: number }>(
    `SELECT r.order_id AS orderId, r.refunded_at AS refundedAt, r.amount_cents AS amountCents
       FROM refunds r JOIN orders o ON o.id = r.order_id
      WHERE o.customer = ? AND substr(r.refunded_at, 1, 7) = ? ORDER BY r.refunded_at, r.order_id`,
  );

  const findOrder = (id: string) => {
    const row = selectOrder.get(id);
    return row ? toOrder(row) : undefined;
  };
  const refund = refundOn(db, now);
  const ownFile = db.memory ? undefined : realpathSync(db.name);
  // the ledger's connection, when its transaction is on this very file: the refund is written on it
  const ledgerRefunds = new WeakMap<Database.Database, RefundTransaction | null>();
  const onLedger = (transaction: LedgerTransaction | undefined): RefundTransaction | undefined => {
    if (transaction === undefined || ownFile === undefined) return undefined;
    const ledgerDb = sqliteTransaction(transaction);
    let found = ledgerRefunds.get(ledgerDb);
    if (found === undefined) {
      found = !ledgerDb.memory && realpathSync(ledgerDb.name) === ownFile ? refundOn(ledgerDb, now) : null;
      ledgerRefunds.set(ledgerDb, found);
    }
    return found ?? undefined;
  };

  return {
    backend: 'sqlite',
    findOrder: async (id) => findOrder(id),
    // immediate: take the write lock before reading, so two connections cannot both see "not refunded"
    refundOrder: async (id, refundOptions = {}) => {
      const requestedBy = refundOptions.requestedBy ?? defaultRequester();
      // in the ledger's transaction, which holds the file's write lock already (nested: a savepoint)
      const shared = onLedger(refundOptions.transaction);
      if (shared) return shared(id, requestedBy, refundOptions.expectedAmountCents);
      return write(`refund order ${id}`, () => refund.immediate(id, requestedBy, refundOptions.expectedAmountCents));
    },
    setOrderAmount: async (id, amountCents) => {
      checkAmount(amountCents);
      await write(`change the amount of order ${id}`, () => changeAmount.immediate(id, amountCents));
      return findOrder(id);
    },
    activeMonths: async (customer) => selectMonths.all(customer, customer).map((r) => r.month),
    monthActivity: async (customer, month) => ({
      customer,
      month,
      orders: selectMonthOrders.all(customer, month),
      refunds: selectMonthRefunds.all(customer, month),
    }),
    paidOrdersOf: async (customer) => selectPaid.all(customer).map(toOrder),
    refundsOf: async (orderId) => selectRefunds.all(orderId),
    countRefunds: async (orderId) => selectRefunds.all(orderId).length,
    close: async () => {
      if (db.open) db.close();
    },
  };
}
