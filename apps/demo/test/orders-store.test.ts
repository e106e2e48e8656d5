import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OrdersStore, openOrdersStore } from '../src/orders-store.ts';

let dir: string;
let dbFile: string;
const opened: OrdersStore[] = [];
const open = (options?: Parameters<typeof openOrdersStore>[1]) => {
  const store = openOrdersStore(dbFile, options);
  opened.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'roundtrip-orders-'));
  dbFile = join(dir, 'nested', 'folder', 'orders.db');
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openOrdersStore', () => {
  it('creates the folder, the schema and the seed orders on first run, in WAL mode', () => {
    const store = open();
    expect(existsSync(dbFile)).toBe(true);
    expect(store.findOrder('ord_51')).toEqual({ id: 'ord_51', customer: 'ada', amountCents: 4900, currency: 'USD', status: 'paid', refundedAt: null });
    expect(store.findOrder('ord_52')).toMatchObject({ customer: 'ada', amountCents: 12000, status: 'paid', refundedAt: null });
    expect(store.findOrder('ord_53')).toMatchObject({ customer: 'ada', status: 'refunded', refundedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(store.countRefunds('ord_53')).toBe(1);

    const raw = new Database(dbFile, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 3 });
    } finally {
      raw.close();
    }
  });

  it('does not seed again or undo refunds when the file already exists', () => {
    const first = open();
    expect(first.refundOrder('ord_51').status).toBe('refunded');
    first.close();
    const second = open();
    expect(second.findOrder('ord_51')).toMatchObject({ status: 'refunded' });
    expect(second.countRefunds('ord_51')).toBe(1);
    expect(second.countRefunds('ord_53')).toBe(1);
  });

  it('says which path it could not open', () => {
    const aFile = join(dir, 'file.txt');
    writeFileSync(aFile, 'not a folder');
    const bad = join(aFile, 'orders.db');
    expect(() => openOrdersStore(bad)).toThrow(`Could not open the orders database at ${bad}`);
  });
});

describe('findOrder', () => {
  it('returns undefined for an unknown id', () => {
    expect(open().findOrder('ord_99')).toBeUndefined();
  });
});

describe('refundOrder', () => {
  it('refunds once, then reports the earlier refund instead of refunding again', () => {
    const store = open({ now: () => new Date('2026-07-01T12:00:00.000Z') });
    const first = store.refundOrder('ord_51');
    expect(first).toEqual({
      status: 'refunded',
      refundedAt: '2026-07-01T12:00:00.000Z',
      order: { id: 'ord_51', customer: 'ada', amountCents: 4900, currency: 'USD', status: 'refunded', refundedAt: '2026-07-01T12:00:00.000Z' },
    });
    const second = store.refundOrder('ord_51');
    expect(second).toMatchObject({ status: 'already_refunded', refundedAt: '2026-07-01T12:00:00.000Z', order: { id: 'ord_51', status: 'refunded' } });
    expect(store.countRefunds('ord_51')).toBe(1);
    expect(store.countRefunds('ord_52')).toBe(0);
  });

  it('reports an order refunded before the store was asked (the seeded ord_53)', () => {
    expect(open().refundOrder('ord_53')).toMatchObject({ status: 'already_refunded', order: { id: 'ord_53' } });
  });

  it('reports an unknown order without writing anything', () => {
    const store = open();
    expect(store.refundOrder('ord_99')).toEqual({ status: 'not_found' });
    expect(store.countRefunds('ord_99')).toBe(0);
  });

  it('refunds at most once across two connections to the same file', () => {
    const a = open();
    const b = open();
    const results = [a.refundOrder('ord_52'), b.refundOrder('ord_52'), a.refundOrder('ord_52'), b.refundOrder('ord_52')];
    expect(results.map((r) => r.status)).toEqual(['refunded', 'already_refunded', 'already_refunded', 'already_refunded']);
    expect(a.countRefunds('ord_52')).toBe(1);
    expect(b.findOrder('ord_52')).toMatchObject({ status: 'refunded' });
  });

  it('refunds at most once when several processes race on the same file', async () => {
    open().close(); // create and seed first, so the race is only about the refund
    const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const child = fileURLToPath(new URL('./fixtures/refund-in-child.ts', import.meta.url));
    const contenders = 6;

    const children = Array.from({ length: contenders }, (_, i) =>
      spawn(process.execPath, ['--import', tsxLoader, child, dbFile, 'ord_52', `process ${i}`], { stdio: ['pipe', 'pipe', 'pipe'] }),
    );
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

    const results = (await Promise.all(outputs)).map((out) => JSON.parse(out.trim().split('\n').at(-1)!) as { label: string; status: string });
    expect(results.filter((r) => r.status === 'refunded')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'already_refunded')).toHaveLength(contenders - 1);
    expect(open().countRefunds('ord_52')).toBe(1);
  });
});
