// The demo's orders and refunds in PostgreSQL, so that demo servers on several machines share them.
// A refund is one transaction that locks the order's row, checks the store's own records and the amount
// the user confirmed, and writes with a conditional UPDATE (`WHERE status <> 'refunded' AND amount_cents
// = …`) and a refund row unique per order: two servers can never refund one order twice, ledger or not.
import {
  checkAmount,
  defaultRequester,
  type Order,
  type OrdersStore,
  type OrdersStoreOptions,
  type RefundResult,
  refundRefusal,
} from './orders-store.ts';
import type { PostgresDatabase, Statements } from './postgres-database.ts';

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

const SELECT_ORDER = `
  SELECT o.id, o.customer, o.amount_cents, o.currency, o.status, o.created_at, r.refunded_at
    FROM orders o LEFT JOIN refunds r ON r.order_id = o.id
   WHERE o.id = $1`;

/** Reads the order and locks its row until the transaction ends (waiting at most the lock timeout). */
async function lockedOrder(tx: Statements, id: string): Promise<Order | undefined> {
  const [row] = await tx.query<OrderRow>(`${SELECT_ORDER} FOR UPDATE OF o`, [id]);
  return row ? toOrder(row) : undefined;
}

async function refundIn(
  tx: Statements,
  id: string,
  requestedBy: string,
  expected: number | undefined,
  refundedAt: string,
): Promise<RefundResult> {
  const order = await lockedOrder(tx, id);
  if (!order) return { status: 'not_found' };
  const refused = refundRefusal(order, expected);
  if (refused) return refused;
  // the write itself refunds only an order not refunded yet, of the amount checked: under the row lock it
  // always matches; without it (another isolation, another code path) it would match for one server only
  const marked = await tx.query<{ amount_cents: number }>(
    "UPDATE orders SET status = 'refunded' WHERE id = $1 AND status <> 'refunded' AND amount_cents = $2 RETURNING amount_cents",
    [id, order.amountCents],
  );
  if (marked.length !== 1) return { status: 'already_refunded', order, refundedAt: order.refundedAt };
  await tx.query('INSERT INTO refunds (order_id, amount_cents, refunded_at, requested_by) VALUES ($1, $2, $3, $4)', [
    id,
    order.amountCents,
    refundedAt,
    requestedBy,
  ]);
  return { status: 'refunded', order: { ...order, status: 'refunded', refundedAt }, refundedAt, amountCents: order.amountCents };
}

/**
 * The orders store in the demo's PostgreSQL database (opened and migrated by openPostgresDatabase).
 * Every call is one statement or one transaction; a lock held by another connection past the lock
 * timeout rejects with a DatabaseLockedError, and nothing is written.
 *
 * @example
 * const orders = openPostgresOrdersStore(await openPostgresDatabase(url));
 * await orders.refundOrder('ord_51', { expectedAmountCents: 4900 }); // { status: 'refunded', … } once, then 'already_refunded'
 */
export function openPostgresOrdersStore(database: PostgresDatabase, options: OrdersStoreOptions = {}): OrdersStore {
  const now = options.now ?? (() => new Date());
  const db = database.forStore('orders database');
  const findOrder = async (id: string) => {
    const [row] = await db.query<OrderRow>(`read order ${id}`, SELECT_ORDER, [id]);
    return row ? toOrder(row) : undefined;
  };
  const refundsOf = (orderId: string) =>
    db.query<{ orderId: string; amountCents: number; refundedAt: string; requestedBy: string }>(
      `read the refunds of order ${orderId}`,
      'SELECT order_id AS "orderId", amount_cents AS "amountCents", refunded_at AS "refundedAt", requested_by AS "requestedBy" FROM refunds WHERE order_id = $1',
      [orderId],
    );

  return {
    backend: 'postgres',
    findOrder,
    refundOrder: async (id, refundOptions = {}) => {
      const doing = `refund order ${id}`;
      const work = (tx: Statements) =>
        refundIn(tx, id, refundOptions.requestedBy ?? defaultRequester(), refundOptions.expectedAmountCents, now().toISOString());
      // in the ledger's transaction when it is on this database: the refund commits with its record
      const onLedger = await db.onLedger(refundOptions.transaction, 'orders');
      return onLedger ? onLedger.run(doing, work) : db.transaction(doing, work);
    },
    setOrderAmount: async (id, amountCents) => {
      checkAmount(amountCents);
      await db.query(`change the amount of order ${id}`, "UPDATE orders SET amount_cents = $1 WHERE id = $2 AND status = 'paid'", [
        amountCents,
        id,
      ]);
      return findOrder(id);
    },
    activeMonths: async (customer) =>
      (
        await db.query<{ month: string }>(
          `read the months of customer ${customer}`,
          `SELECT substr(created_at, 1, 7) AS month FROM orders WHERE customer = $1
            UNION
           SELECT substr(r.refunded_at, 1, 7) FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.customer = $1
            ORDER BY month`,
          [customer],
        )
      ).map((r) => r.month),
    monthActivity: async (customer, month) => ({
      customer,
      month,
      orders: await db.query<{ id: string; createdAt: string; amountCents: number }>(
        `read the orders of customer ${customer} in ${month}`,
        `SELECT id, created_at AS "createdAt", amount_cents AS "amountCents" FROM orders
          WHERE customer = $1 AND substr(created_at, 1, 7) = $2 ORDER BY created_at, id`,
        [customer, month],
      ),
      refunds: await db.query<{ orderId: string; refundedAt: string; amountCents: number }>(
        `read the refunds of customer ${customer} in ${month}`,
        `SELECT r.order_id AS "orderId", r.refunded_at AS "refundedAt", r.amount_cents AS "amountCents"
           FROM refunds r JOIN orders o ON o.id = r.order_id
          WHERE o.customer = $1 AND substr(r.refunded_at, 1, 7) = $2 ORDER BY r.refunded_at, r.order_id`,
        [customer, month],
      ),
    }),
    paidOrdersOf: async (customer) =>
      (
        await db.query<OrderRow>(
          `read the paid orders of customer ${customer}`,
          `SELECT o.id, o.customer, o.amount_cents, o.currency, o.status, o.created_at, r.refunded_at
             FROM orders o LEFT JOIN refunds r ON r.order_id = o.id
            WHERE o.customer = $1 AND o.status = 'paid' AND r.order_id IS NULL ORDER BY o.created_at, o.id`,
          [customer],
        )
      ).map(toOrder),
    refundsOf,
    countRefunds: async (orderId) => (await refundsOf(orderId)).length,
    close: () => db.close(),
  };
}
