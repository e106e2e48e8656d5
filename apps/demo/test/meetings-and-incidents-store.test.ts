// The meetings and incidents stores on a real SQLite file: their tables added to a file from an earlier
// version of the demo, one meeting per room and slot, incidents read back as written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDemoStores } from '../src/demo-stores.ts';
import { type IncidentReport, openIncidentsStore } from '../src/incidents-store.ts';
import { openMeetingsStore } from '../src/meetings-store.ts';
import { openOrdersStore } from '../src/orders-store.ts';

let dir: string;
let file: string;
const toClose: Array<{ close(): void }> = [];
const opened = <T extends { close(): void }>(store: T): T => {
  toClose.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'roundtrip-meetings-'));
  file = join(dir, 'orders.db');
});
afterEach(() => {
  for (const store of toClose.splice(0)) store.close();
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
    const orders = openOrdersStore(file);
    await orders.refundOrder('ord_51');
    orders.close();
    expect(tables()).toEqual(['orders', 'refunds']);
    const stores = opened(openDemoStores(file));
    expect(tables()).toEqual(['incidents', 'meetings', 'orders', 'refunds']);
    expect(stores.orders.countRefunds('ord_51')).toBe(1);
  });

  it('fail to open, naming the file, when its folder cannot be made', () => {
    const bad = join(dir, 'orders.db', 'inside-a-file.db');
    opened(openOrdersStore(file));
    expect(() => openMeetingsStore(bad)).toThrow(`Could not open the meetings database at ${bad}`);
    expect(() => openDemoStores(bad)).toThrow(`Could not open the orders database at ${bad}`);
  });
});

describe('openMeetingsStore', () => {
  const request = { topic: 'Planning', date: '2030-03-14', time: '14:00', attendees: 12, room: 'orion' } as const;

  it('books a room once per date and time, telling who holds a taken slot', async () => {
    const meetings = opened(openMeetingsStore(file, { now: () => new Date('2030-01-01T08:00:00Z') }));
    const first = await meetings.book(request);
    expect(first).toEqual({ status: 'booked', meeting: { id: 1, ...request, bookedAt: '2030-01-01T08:00:00.000Z' } });
    expect(await meetings.book({ ...request, topic: 'Other' })).toEqual({
      status: 'taken',
      holder: { id: 1, ...request, bookedAt: expect.any(String) },
    });
    expect(await meetings.book({ ...request, time: '16:00' })).toMatchObject({ status: 'booked', meeting: { id: 2 } });
    expect(meetings.holderOf('orion', '2030-03-14', '14:00')?.topic).toBe('Planning');
    expect(meetings.holderOf('atlas', '2030-03-14', '14:00')).toBeUndefined();
  });

  it('books a slot once when two connections race for it', async () => {
    const a = opened(openMeetingsStore(file));
    const b = opened(openMeetingsStore(file));
    const results = await Promise.all([a.book(request), b.book({ ...request, topic: 'Rival' }), a.book({ ...request, topic: 'Third' })]);
    expect(results.map((r) => r.status)).toEqual(['booked', 'taken', 'taken']);
    expect(b.meetingsIn('orion', '2030-03-01', '2030-03-31')).toHaveLength(1);
  });
});

describe('openIncidentsStore', () => {
  it('records incidents and reads them back as written', async () => {
    const incidents = opened(openIncidentsStore(file, { now: () => new Date('2030-01-01T08:00:00Z') }));
    const report: IncidentReport = {
      summary: 'Search is slow',
      severity: 'medium',
      services: ['search'],
      description: 'p95 at 4 s',
      paged: null,
    };
    expect(await incidents.record(report)).toEqual({ id: 1, ...report, reportedAt: '2030-01-01T08:00:00.000Z' });
    await incidents.record({ ...report, severity: 'high', paged: false });
    expect(incidents.incidentsAbout('Search is slow').map((i) => [i.severity, i.paged])).toEqual([
      ['medium', null],
      ['high', false],
    ]);
  });
});
