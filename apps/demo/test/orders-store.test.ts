import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrdersStore } from '../src/orders-store.ts';
import { openSqliteOrdersStore } from '../src/sqlite-orders-store.ts';
import { bundledScript } from './support/bundle.ts';

/** The schema of the first version of the demo, whose files must still open. */
const FIRST_VERSION_SCHEMA = `
  CREATE TABLE orders (
    id           TEXT PRIMARY KEY,
    customer     TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    currency     TEXT NOT NULL DEFAULT 'USD',
    status       TEXT NOT NULL CHECK (status IN ('paid', 'refunded'))
  ) STRICT;
  CREATE TABLE refunds (
    id           INTEGER PRIMARY KEY,
    order_id     TEXT NOT NULL UNIQUE REFERENCES orders (id),
    amount_cents INTEGER NOT NULL,
    refunded_at  TEXT NOT NULL,
    requested_by TEXT NOT NULL
  ) STRICT;
`;

let dir: string;
let dbFile: string;
const opened: OrdersStore[] = [];
const open = (options?: Parameters<typeof openSqliteOrdersStore>[1]) => {
  const store = openSqliteOrdersStore(dbFile, options);
  opened.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'roundtrip-orders-'));
  dbFile = join(dir, 'nested', 'folder', 'orders.db');
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openSqliteOrdersStore', () => {
  it('creates the folder, the schema and the seed orders on first run, in WAL mode', async () => {
    const store = open();
    expect(existsSync(dbFile)).toBe(true);
    expect(await store.findOrder('ord_51')).toEqual({
      id: 'ord_51',
      customer: 'ada',
      amountCents: 4900,
      currency: 'USD',
      status: 'paid',
      createdAt: '2026-05-12T10:15:00.000Z',
      refundedAt: null,
    });
    expect(await store.findOrder('ord_52')).toMatchObject({ customer: 'ada', amountCents: 12000, status: 'paid', refundedAt: null });
    expect(await store.findOrder('ord_53')).toMatchObject({
      customer: 'ada',
      status: 'refunded',
      refundedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await store.countRefunds('ord_53')).toBe(1);

    const raw = new Database(dbFile, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 9 }); // ada's, grace's and lin's
    } finally {
      raw.close();
    }
  });

  it('opens a file made by the first version (no created_at): keeps its refunds, dates the seed orders, adds the new one', async () => {
    mkdirSync(dirname(dbFile), { recursive: true });
    const old = new Database(dbFile);
    old.exec(FIRST_VERSION_SCHEMA);
    old.exec(`INSERT INTO orders VALUES ('ord_51', 'ada', 4900, 'USD', 'refunded'), ('ord_52', 'ada', 12000, 'USD', 'paid'), ('ord_53', 'ada', 7550, 'USD', 'refunded');
              INSERT INTO refunds (order_id, amount_cents, refunded_at, requested_by) VALUES ('ord_53', 7550, '2026-05-04T09:30:00.000Z', 'seed'), ('ord_51', 4900, '2026-07-01T12:00:00.000Z', 'pid 1');`);
    old.close();

    const store = open();
    expect(await store.findOrder('ord_51')).toMatchObject({
      status: 'refunded',
      refundedAt: '2026-07-01T12:00:00.000Z',
      createdAt: '2026-05-12T10:15:00.000Z',
    });
    expect(await store.findOrder('ord_52')).toMatchObject({ status: 'paid', createdAt: '2026-05-20T16:40:00.000Z' });
    expect(await store.findOrder('ord_54')).toMatchObject({
      customer: 'grace',
      amountCents: 3000,
      status: 'paid',
      createdAt: '2026-06-03T11:30:00.000Z',
    });
    expect(await store.countRefunds('ord_51')).toBe(1);
    expect(await store.refundOrder('ord_51')).toMatchObject({ status: 'already_refunded' });
    expect(await store.activeMonths('ada')).toEqual(['2026-05', '2026-07']);
    await store.close();
    // opening it again changes nothing more
    const again = open();
    expect(await again.findOrder('ord_52')).toMatchObject({ createdAt: '2026-05-20T16:40:00.000Z' });
    expect(await again.countRefunds('ord_53')).toBe(1);
  });

  it('says which path it could not open', () => {
    const aFile = join(dir, 'file.txt');
    writeFileSync(aFile, 'not a folder');
    const bad = join(aFile, 'orders.db');
    expect(() => openSqliteOrdersStore(bad)).toThrow(`Could not open the orders database at ${bad}`);
  });
});

describe('refundOrder on a SQLite file', () => {
  it('refunds at most once when several processes race on the same file', async () => {
    await open().close(); // create and seed first, so the race is only about the refund
    // bundled to plain JavaScript, so the processes start in a tenth of a second each instead of loading tsx
    const child = await bundledScript(new URL('./fixtures/refund-in-child.ts', import.meta.url), join(dir, 'bundle'));
    // two other processes and this one, each on its own connection to the file
    const children = Array.from({ length: 2 }, (_, i) =>
      spawn(process.execPath, [child, dbFile, 'ord_52', `process ${i}`], { stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    const here = open();
    const outputOf = (proc: ChildProcessWithoutNullStreams) =>
      new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        proc.on('error', reject);
        proc.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited with ${code}: ${err}`))));
      });
    const ready = (proc: ChildProcessWithoutNullStreams) =>
      new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) {
            proc.stdout.off('data', onData);
            resolve();
          }
        };
        proc.stdout.on('data', onData);
        proc.once('close', (code) => reject(new Error(`child exited with ${code} before it was ready`)));
      });
    const outputs = children.map(outputOf);
    await Promise.all(children.map(ready));
    for (const proc of children) proc.stdin.end('go\n');
    const ours = await here.refundOrder('ord_52', { requestedBy: 'this process' });

    const theirs = (await Promise.all(outputs)).map((out) => JSON.parse(out.trim().split('\n').at(-1)!) as { status: string });
    const statuses = [ours.status, ...theirs.map((r) => r.status)];
    expect(statuses.filter((status) => status === 'refunded')).toHaveLength(1);
    expect(statuses.filter((status) => status === 'already_refunded')).toHaveLength(2);
    expect(await here.countRefunds('ord_52')).toBe(1);
  });
});
