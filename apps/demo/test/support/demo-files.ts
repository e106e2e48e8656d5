// What a demo database file holds, read straight from the file: refunds in the orders store, and the
// effect ledger's rows beside them.
import Database from 'better-sqlite3';
import { openSqliteOrdersStore } from '../../src/sqlite-orders-store.ts';

/** How many refunds the orders store holds for `orderId`. */
export async function refundsIn(db: string, orderId: string): Promise<number> {
  const store = openSqliteOrdersStore(db);
  try {
    return await store.countRefunds(orderId);
  } finally {
    await store.close();
  }
}

export interface LedgerRow {
  effect: string;
  state: string;
  owner: string | null;
}

/** The effect ledger's rows. */
export function ledgerRows(db: string): LedgerRow[] {
  const file = new Database(db, { readonly: true });
  try {
    return file.prepare('SELECT effect, state, owner FROM roundtrip_effects').all() as LedgerRow[];
  } finally {
    file.close();
  }
}
