// The demo's orders and refunds as the definitions see them: one store interface, kept in a SQLite file
// (sqlite-orders-store.ts) or in PostgreSQL (postgres-orders-store.ts) so that servers on several
// machines share them. Every call is async, reads included.
import type { LedgerTransaction } from '@roundtrip/engine';

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
  /**
   * The effect ledger's transaction the refund runs in (refund_order's final action runs there). When that
   * transaction is on this store's own database (the ledger's table beside the orders), the refund is
   * written in it and commits with the ledger's record: exactly once, one commit. On another database
   * (ROUNDTRIP_LEDGER elsewhere), or without one, the store writes in its own transaction as usual.
   */
  transaction?: LedgerTransaction | undefined;
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
  /** Where the orders are kept: a SQLite file, or a PostgreSQL database (errors and messages say which). */
  readonly backend: 'sqlite' | 'postgres';
  /** The order with this id, or undefined. */
  findOrder(id: string): Promise<Order | undefined>;
  /**
   * Refunds an order at most once, whatever the caller sends and however many processes share the
   * database: the check of the store's own records (and of the expected amount) and the write happen in
   * one write transaction. While another connection holds the lock it needs, it waits (without blocking
   * other requests); after `busyTimeoutMs` it rejects with a DatabaseLockedError and nothing is refunded.
   */
  refundOrder(id: string, options?: RefundOptions): Promise<RefundResult>;
  /**
   * Changes the amount of an order that is not refunded (a correction, for the demo and tests); undefined
   * when there is no such order. Waits for another connection's lock like refundOrder.
   */
  setOrderAmount(id: string, amountCents: number): Promise<Order | undefined>;
  /** The months (`YYYY-MM`, oldest first) in which a customer placed an order or got a refund. */
  activeMonths(customer: string): Promise<string[]>;
  /** A customer's orders placed and refunds made in one month (`YYYY-MM`). */
  monthActivity(customer: string, month: string): Promise<MonthActivity>;
  /** A customer's orders that are paid and not refunded, oldest first (refund_customer refunds them). */
  paidOrdersOf(customer: string): Promise<Order[]>;
  /** The refund rows of an order (none or one); for tests and the demo's checks. */
  refundsOf(orderId: string): Promise<RefundRecord[]>;
  /** How many refund rows exist for this order (0 or 1). */
  countRefunds(orderId: string): Promise<number>;
  close(): Promise<void>;
}

export interface OrdersStoreOptions {
  /** How long a write waits for another connection's lock before failing with a DatabaseLockedError. @defaultValue 5000 */
  busyTimeoutMs?: number | undefined;
  /** Clock for refund times, for tests. @defaultValue () => new Date() */
  now?: () => Date;
}

/** The orders every new database starts with. */
export const SEED_ORDERS = [
  { id: 'ord_51', customer: 'ada', amountCents: 4900, status: 'paid', createdAt: '2026-05-12T10:15:00.000Z' },
  { id: 'ord_52', customer: 'ada', amountCents: 12000, status: 'paid', createdAt: '2026-05-20T16:40:00.000Z' },
  { id: 'ord_53', customer: 'ada', amountCents: 7550, status: 'refunded', createdAt: '2026-05-02T08:05:00.000Z' },
  { id: 'ord_54', customer: 'grace', amountCents: 3000, status: 'paid', createdAt: '2026-06-03T11:30:00.000Z' },
] as const;
/**
 * The paid orders of customer `lin`, for refund_customer (added after the first seed: a database made
 * before them gets them when it is opened; none of them is ever refunded by the seed).
 */
export const SEED_LIN_ORDERS = [
  { id: 'ord_61', customer: 'lin', amountCents: 2500, status: 'paid', createdAt: '2026-07-01T09:00:00.000Z' },
  { id: 'ord_62', customer: 'lin', amountCents: 1999, status: 'paid', createdAt: '2026-07-03T12:20:00.000Z' },
  { id: 'ord_63', customer: 'lin', amountCents: 4200, status: 'paid', createdAt: '2026-07-08T15:45:00.000Z' },
  { id: 'ord_64', customer: 'lin', amountCents: 850, status: 'paid', createdAt: '2026-07-14T08:10:00.000Z' },
  { id: 'ord_65', customer: 'lin', amountCents: 13000, status: 'paid', createdAt: '2026-07-21T17:30:00.000Z' },
] as const;
/** The refund of the seeded ord_53. */
export const SEED_REFUNDS = [
  { orderId: 'ord_53', amountCents: 7550, refundedAt: '2026-05-04T09:30:00.000Z', requestedBy: 'seed' },
] as const;

/** Refuses an amount that is not whole cents ≥ 0 (before anything is written). */
export function checkAmount(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0)
    throw new RangeError(`setOrderAmount: expected whole cents ≥ 0, got ${amountCents}.`);
}

/** Who asked for a refund when the caller does not say. */
export const defaultRequester = () => `pid ${process.pid}`;

/**
 * Why `order` is not refunded, without writing anything: it was already refunded (the store's own records
 * decide, never the caller), or its amount is not the one confirmed; undefined when the refund may be
 * written. Each store asks inside its write transaction.
 */
export function refundRefusal(order: Order, expectedAmountCents: number | undefined): RefundResult | undefined {
  // a refund row or a refunded status means done
  if (order.refundedAt !== null || order.status === 'refunded') return { status: 'already_refunded', order, refundedAt: order.refundedAt };
  if (expectedAmountCents !== undefined && expectedAmountCents !== order.amountCents)
    return { status: 'amount_changed', order, expectedAmountCents };
  return undefined;
}
