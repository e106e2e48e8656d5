// The peer's orders: the demo's SQLite file read and written with better-sqlite3 directly, as a server
// written on the SDK alone would (no Roundtrip packages). The file, its tables and its seed orders are the
// demo's (the bench opens it with the demo first); this module only reads orders and refunds one.
import Database from 'better-sqlite3';

export interface PeerOrder {
  id: string;
  amountCents: number;
  status: 'paid' | 'refunded';
  refundedAt: string | null;
}

export type PeerRefund =
  | { status: 'refunded'; amountCents: number; refundedAt: string }
  | { status: 'already_refunded' | 'amount_changed' | 'not_found' };

export interface PeerOrders {
  findOrder(id: string): PeerOrder | undefined;
  /**
   * Refunds `expectedCents` if the order is still paid at that amount: one immediate transaction. With
   * `exactlyOnce`, the same transaction first claims `run` in a ledger table (a run claimed before gets its
   * recorded outcome back, nothing is done again) and records the outcome: claim, effect and outcome commit
   * together, the design BENCHMARKS.md describes for a ledger sharing the store's database.
   */
  refund(id: string, expectedCents: number, requestedBy: string, run: string): PeerRefund;
  close(): void;
}

/**
 * Opens the demo's orders file at `path` (WAL and synchronous NORMAL, as the demo's store opens it; FULL
 * makes each commit durable, as our effect ledger's are; `exactlyOnce`: see `refund`). Throws when the file has no orders table: run
 * the demo against it once first.
 */
export function openPeerOrders(path: string, synchronous: 'NORMAL' | 'FULL' = 'NORMAL', exactlyOnce = false): PeerOrders {
  const db = new Database(path, { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS peer_effects (run TEXT PRIMARY KEY, outcome TEXT) STRICT');
  const claim = db.prepare<[string]>('INSERT OR IGNORE INTO peer_effects (run) VALUES (?)');
  const recorded = db.prepare<[string], { outcome: string | null }>('SELECT outcome FROM peer_effects WHERE run = ?');
  const record = db.prepare<[string, string]>('UPDATE peer_effects SET outcome = ? WHERE run = ?');
  const select = db.prepare<[string], { id: string; amount_cents: number; status: 'paid' | 'refunded'; refunded_at: string | null }>(
    `SELECT o.id, o.amount_cents, o.status, r.refunded_at
       FROM orders o LEFT JOIN refunds r ON r.order_id = o.id
      WHERE o.id = ?`,
  );
  const markRefunded = db.prepare<[string, number]>(
    "UPDATE orders SET status = 'refunded' WHERE id = ? AND status = 'paid' AND amount_cents = ?",
  );
  const insertRefund = db.prepare<[string, number, string, string]>(
    'INSERT INTO refunds (order_id, amount_cents, refunded_at, requested_by) VALUES (?, ?, ?, ?)',
  );
  const findOrder = (id: string): PeerOrder | undefined => {
    const row = select.get(id);
    return row && { id: row.id, amountCents: row.amount_cents, status: row.status, refundedAt: row.refunded_at };
  };
  const refundOnce = (id: string, expectedCents: number, requestedBy: string): PeerRefund => {
    const refundedAt = new Date().toISOString();
    if (markRefunded.run(id, expectedCents).changes === 1) {
      insertRefund.run(id, expectedCents, refundedAt, requestedBy);
      return { status: 'refunded', amountCents: expectedCents, refundedAt };
    }
    const order = findOrder(id);
    if (!order) return { status: 'not_found' };
    return { status: order.status === 'refunded' ? 'already_refunded' : 'amount_changed' };
  };
  const refund = db.transaction((id: string, expectedCents: number, requestedBy: string, run: string): PeerRefund => {
    if (!exactlyOnce) return refundOnce(id, expectedCents, requestedBy);
    if (claim.run(run).changes === 0) {
      // claimed and recorded in one earlier transaction: there is no claim without its outcome
      const outcome = recorded.get(run)?.outcome;
      if (!outcome) throw new Error(`peer_effects holds run ${run} without an outcome: something else wrote it.`);
      return JSON.parse(outcome) as PeerRefund;
    }
    const outcome = refundOnce(id, expectedCents, requestedBy);
    record.run(JSON.stringify(outcome), run);
    return outcome;
  });
  return {
    findOrder,
    refund: (id, expectedCents, requestedBy, run) => refund.immediate(id, expectedCents, requestedBy, run),
    close: () => db.close(),
  };
}
