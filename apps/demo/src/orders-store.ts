// The demo's orders and refunds, kept in a real SQLite file so that several server processes can share them.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type OrderStatus = 'paid' | 'refunded';

/** One order as the tool sees it. Plain JSON, so it can live in a machine's context. */
export interface Order {
  id: string;
  customer: string;
  amountCents: number;
  currency: string;
  status: OrderStatus;
  /** ISO 8601 time of the refund, or null when the order was never refunded. */
  refundedAt: string | null;
}

export type RefundResult =
  | { status: 'refunded'; order: Order; refundedAt: string }
  | { status: 'already_refunded'; order: Order; refundedAt: string | null }
  | { status: 'not_found' };

export interface RefundOptions {
  /** Who or what asked for the refund, recorded with it. @defaultValue `pid <process id>` */
  requestedBy?: string;
}

export interface OrdersStore {
  /** The order with this id, or undefined. */
  findOrder(id: string): Order | undefined;
  /**
   * Refunds an order at most once, whatever the caller sends and however many processes share the file:
   * the check of the store's own records and the write happen in one write transaction.
   */
  refundOrder(id: string, options?: RefundOptions): RefundResult;
  /** How many refund rows exist for this order (0 or 1); for tests. */
  countRefunds(orderId: string): number;
  close(): void;
}

export interface OrdersStoreOptions {
  /** How long a write waits for another connection's lock before failing. @defaultValue 5000 */
  busyTimeoutMs?: number;
  /** Clock for refund times, for tests. @defaultValue () => new Date() */
  now?: () => Date;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS orders (
    id           TEXT PRIMARY KEY,
    customer     TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    currency     TEXT NOT NULL DEFAULT 'USD',
    status       TEXT NOT NULL CHECK (status IN ('paid', 'refunded'))
  ) STRICT;
  CREATE TABLE IF NOT EXISTS refunds (
    id           INTEGER PRIMARY KEY,
    order_id     TEXT NOT NULL UNIQUE REFERENCES orders (id),
    amount_cents INTEGER NOT NULL,
    refunded_at  TEXT NOT NULL,
    requested_by TEXT NOT NULL
  ) STRICT;
`;

const SEED_ORDERS = [
  { id: 'ord_51', customer: 'ada', amountCents: 4900, status: 'paid' },
  { id: 'ord_52', customer: 'ada', amountCents: 12000, status: 'paid' },
  { id: 'ord_53', customer: 'ada', amountCents: 7550, status: 'refunded' },
] as const;
const SEED_REFUNDS = [{ orderId: 'ord_53', amountCents: 7550, refundedAt: '2026-05-04T09:30:00.000Z', requestedBy: 'seed' }] as const;

interface OrderRow {
  id: string;
  customer: string;
  amount_cents: number;
  currency: string;
  status: OrderStatus;
  refunded_at: string | null;
}

const toOrder = (row: OrderRow): Order => ({
  id: row.id,
  customer: row.customer,
  amountCents: row.amount_cents,
  currency: row.currency,
  status: row.status,
  refundedAt: row.refunded_at,
});

/**
 * Opens the orders store at `path`, creating the folder, the schema and the seed orders on first run.
 *
 * @example
 * const store = openOrdersStore(dbPath());
 * const result = store.refundOrder('ord_51'); // { status: 'refunded', … } once, then 'already_refunded'
 */
export function openOrdersStore(path: string, options: OrdersStoreOptions = {}): OrdersStore {
  const now = options.now ?? (() => new Date());
  let db: Database.Database;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
  } catch (error) {
    throw new Error(`Could not open the orders database at ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.transaction(() => {
      db.exec(SCHEMA);
      const { n } = db.prepare('SELECT count(*) AS n FROM orders').get() as { n: number };
      if (n > 0) return;
      const insertOrder = db.prepare("INSERT INTO orders (id, customer, amount_cents, currency, status) VALUES (?, ?, ?, 'USD', ?)");
      for (const o of SEED_ORDERS) insertOrder.run(o.id, o.customer, o.amountCents, o.status);
      const insertRefund = db.prepare('INSERT INTO refunds (order_id, amount_cents, refunded_at, requested_by) VALUES (?, ?, ?, ?)');
      for (const r of SEED_REFUNDS) insertRefund.run(r.orderId, r.amountCents, r.refundedAt, r.requestedBy);
    }).immediate();
  } catch (error) {
    db.close();
    throw new Error(`Could not open the orders database at ${path}: ${(error as Error).message}`, { cause: error });
  }

  const selectOrder = db.prepare<[string], OrderRow>(
    `SELECT o.id, o.customer, o.amount_cents, o.currency, o.status, r.refunded_at
       FROM orders o LEFT JOIN refunds r ON r.order_id = o.id
      WHERE o.id = ?`,
  );
  const insertRefund = db.prepare<[string, number, string, string]>(
    'INSERT INTO refunds (order_id, amount_cents, refunded_at, requested_by) VALUES (?, ?, ?, ?)',
  );
  const markRefunded = db.prepare<[string]>("UPDATE orders SET status = 'refunded' WHERE id = ?");
  const countRefundRows = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM refunds WHERE order_id = ?');

  const refund = db.transaction((id: string, requestedBy: string): RefundResult => {
    const row = selectOrder.get(id);
    if (!row) return { status: 'not_found' };
    const order = toOrder(row);
    // the store's own records decide, never the caller: a refund row or a refunded status means done
    if (order.refundedAt !== null || order.status === 'refunded') return { status: 'already_refunded', order, refundedAt: order.refundedAt };
    const refundedAt = now().toISOString();
    insertRefund.run(id, order.amountCents, refundedAt, requestedBy);
    markRefunded.run(id);
    return { status: 'refunded', order: { ...order, status: 'refunded', refundedAt }, refundedAt };
  });

  return {
    findOrder: (id) => {
      const row = selectOrder.get(id);
      return row ? toOrder(row) : undefined;
    },
    // immediate: take the write lock before reading, so two connections cannot both see "not refunded"
    refundOrder: (id, refundOptions = {}) => refund.immediate(id, refundOptions.requestedBy ?? `pid ${process.pid}`),
    countRefunds: (orderId) => countRefundRows.get(orderId)?.n ?? 0,
    close: () => {
      if (db.open) db.close();
    },
  };
}
