// The demo's orders and refunds, kept in a real SQLite file so that several server processes can share them.
import type Database from 'better-sqlite3';
import { hasTable, openSqliteFile } from './sqlite-file.ts';

type OrderStatus = 'paid' | 'refunded';

/** One order as the definitions see it. Plain JSON, so it can live in a machine's context. */
export interface Order {
  id: string;
  customer: string;
  amountCents: number;
  currency: string;
  status: OrderStatus;
  /** ISO 8601 time the order was placed. */
  createdAt: string;
  /** ISO 8601 time of the refund, or null when the order was never refunded. */
  refundedAt: string | null;
}

export type RefundResult =
  | { status: 'refunded'; order: Order; refundedAt: string; amountCents: number }
  | { status: 'already_refunded'; order: Order; refundedAt: string | null }
  /** The live amount is not the one the caller expected (it changed after the user saw it): nothing was refunded. */
  | { status: 'amount_changed'; order: Order; expectedAmountCents: number }
  | { status: 'not_found' };

interface RefundOptions {
  /**
   * The amount the user confirmed. When given, the refund happens only if it is still the order's
   * amount, checked in the same transaction as the write, and exactly that amount is refunded.
   */
  expectedAmountCents?: number;
  /** Who or what asked for the refund, recorded with it. @defaultValue `pid <process id>` */
  requestedBy?: string;
}

/** One refund row, as recorded. */
interface RefundRecord {
  orderId: string;
  amountCents: number;
  refundedAt: string;
  requestedBy: string;
}

/** What a customer ordered and was refunded in one month (`YYYY-MM`), oldest first. */
export interface MonthActivity {
  customer: string;
  month: string;
  orders: Array<{ id: string; createdAt: string; amountCents: number }>;
  refunds: Array<{ orderId: string; refundedAt: string; amountCents: number }>;
}

export interface OrdersStore {
  /** The order with this id, or undefined. */
  findOrder(id: string): Order | undefined;
  /**
   * Refunds an order at most once, whatever the caller sends and however many processes share the file:
   * the check of the store's own records (and of the expected amount) and the write happen in one write
   * transaction. While another connection holds the file's write lock it waits (without blocking other
   * requests); after `busyTimeoutMs` it rejects with a DatabaseLockedError and nothing is refunded.
   */
  refundOrder(id: string, options?: RefundOptions): Promise<RefundResult>;
  /**
   * Changes the amount of an order that is not refunded (a correction, for the demo and tests); undefined
   * when there is no such order. Waits for another connection's lock like refundOrder.
   */
  setOrderAmount(id: string, amountCents: number): Promise<Order | undefined>;
  /** The months (`YYYY-MM`, oldest first) in which a customer placed an order or got a refund. */
  activeMonths(customer: string): string[];
  /** A customer's orders placed and refunds made in one month (`YYYY-MM`). */
  monthActivity(customer: string, month: string): MonthActivity;
  /** The refund rows of an order (none or one); for tests and the demo's checks. */
  refundsOf(orderId: string): RefundRecord[];
  /** How many refund rows exist for this order (0 or 1). */
  countRefunds(orderId: string): number;
  close(): void;
}

export interface OrdersStoreOptions {
  /** How long a write waits for another connection's lock before failing with a DatabaseLockedError. @defaultValue 5000 */
  busyTimeoutMs?: number | undefined;
  /** Clock for refund times, for tests. @defaultValue () => new Date() */
  now?: () => Date;
}

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

const SEED_ORDERS = [
  { id: 'ord_51', customer: 'ada', amountCents: 4900, status: 'paid', createdAt: '2026-05-12T10:15:00.000Z' },
  { id: 'ord_52', customer: 'ada', amountCents: 12000, status: 'paid', createdAt: '2026-05-20T16:40:00.000Z' },
  { id: 'ord_53', customer: 'ada', amountCents: 7550, status: 'refunded', createdAt: '2026-05-02T08:05:00.000Z' },
  { id: 'ord_54', customer: 'grace', amountCents: 3000, status: 'paid', createdAt: '2026-06-03T11:30:00.000Z' },
] as const;
const SEED_REFUNDS = [{ orderId: 'ord_53', amountCents: 7550, refundedAt: '2026-05-04T09:30:00.000Z', requestedBy: 'seed' }] as const;

interface OrderRow {
  id: string;
  customer: string;
  amount_cents: number;
  currency: string;
  status: OrderStatus;
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
  if (migrating) {
    const date = db.prepare('UPDATE orders SET created_at = ? WHERE id = ?');
    for (const o of SEED_ORDERS) date.run(o.createdAt, o.id);
    for (const o of SEED_ORDERS) insertOrder.run(o.id, o.customer, o.amountCents, o.status, o.createdAt);
    return;
  }
  const { n } = db.prepare('SELECT count(*) AS n FROM orders').get() as { n: number };
  if (n > 0) return;
  for (const o of SEED_ORDERS) insertOrder.run(o.id, o.customer, o.amountCents, o.status, o.createdAt);
  for (const r of SEED_REFUNDS) insertRefund.run(r.orderId, r.amountCents, r.refundedAt, r.requestedBy);
}

function isUpToDate(db: Database.Database): boolean {
  const columns = (db.prepare('PRAGMA table_info(orders)').all() as Array<{ name: string }>).map((c) => c.name);
  return (
    columns.includes('created_at') &&
    hasTable(db, 'refunds') &&
    (db.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n > 0
  );
}

/**
 * Opens the orders store at `path`, creating the folder, the schema and the seed orders on first run,
 * and bringing a file from the first version (no `created_at` column) up to date.
 *
 * @example
 * const store = openOrdersStore(dbPath());
 * await store.refundOrder('ord_51', { expectedAmountCents: 4900 }); // { status: 'refunded', … } once, then 'already_refunded'
 */
export function openOrdersStore(path: string, options: OrdersStoreOptions = {}): OrdersStore {
  const now = options.now ?? (() => new Date());
  const { db, write } = openSqliteFile(path, {
    what: 'orders database',
    busyTimeoutMs: options.busyTimeoutMs,
    isUpToDate,
    prepare: prepareSchema,
  });

  const selectOrder = db.prepare<[string], OrderRow>(
    `SELECT o.id, o.customer, o.amount_cents, o.currency, o.status, o.created_at, r.refunded_at
       FROM orders o LEFT JOIN refunds r ON r.order_id = o.id
      WHERE o.id = ?`,
  );
  const insertRefund = db.prepare<[string, number, string, string]>(
    'INSERT INTO refunds (order_id, amount_cents, refunded_at, requested_by) VALUES (?, ?, ?, ?)',
  );
  const markRefunded = db.prepare<[string]>("UPDATE orders SET status = 'refunded' WHERE id = ?");
  const updateAmount = db.prepare<[number, string]>("UPDATE orders SET amount_cents = ? WHERE id = ? AND status = 'paid'");
  const changeAmount = db.transaction((id: string, amountCents: number) => {
    updateAmount.run(amountCents, id);
  });
  const selectRefunds = db.prepare<[string], { orderId: string; amountCents: number; refundedAt: string; requestedBy: string }>(
    'SELECT order_id AS orderId, amount_cents AS amountCents, refunded_at AS refundedAt, requested_by AS requestedBy FROM refunds WHERE order_id = ?',
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

  const refund = db.transaction((id: string, requestedBy: string, expected: number | undefined): RefundResult => {
    const row = selectOrder.get(id);
    if (!row) return { status: 'not_found' };
    const order = toOrder(row);
    // the store's own records decide, never the caller: a refund row or a refunded status means done
    if (order.refundedAt !== null || order.status === 'refunded')
      return { status: 'already_refunded', order, refundedAt: order.refundedAt };
    if (expected !== undefined && expected !== order.amountCents) return { status: 'amount_changed', order, expectedAmountCents: expected };
    const refundedAt = now().toISOString();
    insertRefund.run(id, order.amountCents, refundedAt, requestedBy);
    markRefunded.run(id);
    return { status: 'refunded', order: { ...order, status: 'refunded', refundedAt }, refundedAt, amountCents: order.amountCents };
  });

  const findOrder = (id: string) => {
    const row = selectOrder.get(id);
    return row ? toOrder(row) : undefined;
  };

  return {
    findOrder,
    // immediate: take the write lock before reading, so two connections cannot both see "not refunded"
    refundOrder: (id, refundOptions = {}) =>
      write(`refund order ${id}`, () =>
        refund.immediate(id, refundOptions.requestedBy ?? `pid ${process.pid}`, refundOptions.expectedAmountCents),
      ),
    setOrderAmount: async (id, amountCents) => {
      if (!Number.isSafeInteger(amountCents) || amountCents < 0)
        throw new RangeError(`setOrderAmount: expected whole cents ≥ 0, got ${amountCents}.`);
      await write(`change the amount of order ${id}`, () => changeAmount.immediate(id, amountCents));
      return findOrder(id);
    },
    activeMonths: (customer) => selectMonths.all(customer, customer).map((r) => r.month),
    monthActivity: (customer, month) => ({
      customer,
      month,
      orders: selectMonthOrders.all(customer, month),
      refunds: selectMonthRefunds.all(customer, month),
    }),
    refundsOf: (orderId) => selectRefunds.all(orderId),
    countRefunds: (orderId) => selectRefunds.all(orderId).length,
    close: () => {
      if (db.open) db.close();
    },
  };
}
