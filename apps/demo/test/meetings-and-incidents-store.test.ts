// The meetings and incidents stores on a real SQLite file: their tables added to a file from an earlier
// version of the demo, and the file named when it cannot be opened (the contract they keep on every
// backend is in store-contract.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDemoStores } from '../src/demo-stores.ts';
import { openSqliteMeetingsStore } from '../src/sqlite-meetings-store.ts';
import { openSqliteOrdersStore } from '../src/sqlite-orders-store.ts';

let dir: string;
let file: string;
const toClose: Array<{ close(): Promise<void> }> = [];
const opened = <T extends { close(): Promise<void> }>(store: T): T => {
  toClose.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'roundtrip-meetings-'));
  file = join(dir, 'orders.db');
});
afterEach(async () => {
  for (const store of toClose.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const tables = () => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map(
      (t) => t.name,
    );
  } finally {
    db.close();
  }
};

describe('the demo stores', () => {
  it('add the meetings and incidents tables to a file of the previous version, keeping its orders', async () => {
    const orders = openSqliteOrdersStore(file);
    await orders.refundOrder('ord_51');
    await orders.close();
    expect(tables()).toEqual(['orders', 'refunds']);
    const stores = opened(await openDemoStores(file));
    expect(tables()).toEqual(['incidents', 'meetings', 'orders', 'refunds']);
    expect(await stores.orders.countRefunds('ord_51')).toBe(1);
  });

  it('fail to open, naming the file, when its folder cannot be made', async () => {
    const bad = join(dir, 'orders.db', 'inside-a-file.db');
    opened(openSqliteOrdersStore(file));
    expect(() => openSqliteMeetingsStore(bad)).toThrow(`Could not open the meetings database at ${bad}`);
    await expect(openDemoStores(bad)).rejects.toThrow(`Could not open the orders database at ${bad}`);
  });
});
