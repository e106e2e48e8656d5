// The one contract the demo's stores keep on every backend (a SQLite file, a PostgreSQL database): the
// same tests, run by each backend's test file on a database of its own. Every call is async; "another
// connection" is another openDemoStores on the same database, as another server process would open it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DemoStores, DemoStoresOptions } from '../src/demo-stores.ts';
import type { IncidentReport } from '../src/incidents-store.ts';

/** One test's database. */
export interface StoresFixture {
  /** The demo's stores on this test's database: each call opens new connections, as another server would. */
  open(options?: DemoStoresOptions): Promise<DemoStores>;
  /** Closes every store opened and removes the database. */
  close(): Promise<void>;
}

export function describeStoresContract(name: string, freshDatabase: () => Promise<StoresFixture>): void {
  describe(`the demo's stores on ${name} keep the stores' contract`, () => {
    let fixture: StoresFixture;
    beforeEach(async () => {
      fixture = await freshDatabase();
    });
    afterEach(async () => {
      await fixture.close();
    });
    const open = (options?: DemoStoresOptions) => fixture.open(options).then((stores) => stores.orders);

    describe('seed orders', () => {
      it('are there on first run', async () => {
        const store = await open();
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
          refundedAt: '2026-05-04T09:30:00.000Z',
        });
        expect(await store.findOrder('ord_54')).toMatchObject({ customer: 'grace', amountCents: 3000, status: 'paid' });
        expect(await store.countRefunds('ord_53')).toBe(1);
      });

      it('are not seeded again, nor refunds undone, when the database already exists', async () => {
        const first = await open();
        expect((await first.refundOrder('ord_51')).status).toBe('refunded');
        await first.close();
        const second = await open();
        expect(await second.findOrder('ord_51')).toMatchObject({ status: 'refunded' });
        expect(await second.countRefunds('ord_51')).toBe(1);
        expect(await second.countRefunds('ord_53')).toBe(1);
      });

      it('are seeded once when ten servers open a new database together', async () => {
        const opened = await Promise.all(Array.from({ length: 10 }, () => fixture.open()));
        expect(await opened[7]!.orders.activeMonths('ada')).toEqual(['2026-05']);
        expect(await opened[3]!.orders.countRefunds('ord_53')).toBe(1);
        expect((await opened[5]!.orders.monthActivity('ada', '2026-05')).orders).toHaveLength(3);
      });
    });

    describe('findOrder, activeMonths, monthActivity', () => {
      it('returns undefined for an unknown id', async () => {
        expect(await (await open()).findOrder('ord_99')).toBeUndefined();
      });

      it('lists the months with orders or refunds, and what happened in one of them', async () => {
        const store = await open({ now: () => new Date('2026-07-01T12:00:00.000Z') });
        await store.refundOrder('ord_52');
        expect(await store.activeMonths('ada')).toEqual(['2026-05', '2026-07']);
        expect(await store.activeMonths('grace')).toEqual(['2026-06']);
        expect(await store.activeMonths('nobody')).toEqual([]);
        expect(await store.monthActivity('ada', '2026-07')).toEqual({
          customer: 'ada',
          month: '2026-07',
          orders: [],
          refunds: [{ orderId: 'ord_52', refundedAt: '2026-07-01T12:00:00.000Z', amountCents: 12000 }],
        });
        expect((await store.monthActivity('ada', '2026-05')).orders.map((o) => o.id)).toEqual(['ord_53', 'ord_51', 'ord_52']);
      });
    });

    describe('refundOrder', () => {
      it('refunds once, then reports the earlier refund instead of refunding again', async () => {
        const store = await open({ now: () => new Date('2026-07-01T12:00:00.000Z') });
        const first = await store.refundOrder('ord_51');
        expect(first).toEqual({
          status: 'refunded',
          refundedAt: '2026-07-01T12:00:00.000Z',
          amountCents: 4900,
          order: {
            id: 'ord_51',
            customer: 'ada',
            amountCents: 4900,
            currency: 'USD',
            status: 'refunded',
            createdAt: '2026-05-12T10:15:00.000Z',
            refundedAt: '2026-07-01T12:00:00.000Z',
          },
        });
        const second = await store.refundOrder('ord_51');
        expect(second).toMatchObject({
          status: 'already_refunded',
          refundedAt: '2026-07-01T12:00:00.000Z',
          order: { id: 'ord_51', status: 'refunded' },
        });
        expect(await store.countRefunds('ord_51')).toBe(1);
        expect(await store.countRefunds('ord_52')).toBe(0);
      });

      it('refunds exactly the expected amount, and nothing when the live amount differs (checked in the transaction)', async () => {
        const store = await open();
        await store.setOrderAmount('ord_51', 5900);
        expect(await store.refundOrder('ord_51', { expectedAmountCents: 4900 })).toMatchObject({
          status: 'amount_changed',
          expectedAmountCents: 4900,
          order: { amountCents: 5900, status: 'paid' },
        });
        expect(await store.countRefunds('ord_51')).toBe(0);
        expect(await store.refundOrder('ord_51', { expectedAmountCents: 5900, requestedBy: 'test' })).toMatchObject({
          status: 'refunded',
          amountCents: 5900,
        });
        expect(await store.refundsOf('ord_51')).toEqual([
          { orderId: 'ord_51', amountCents: 5900, refundedAt: expect.any(String), requestedBy: 'test' },
        ]);
      });

      it('changes the amount of a paid order only', async () => {
        const store = await open();
        expect(await store.setOrderAmount('ord_52', 100)).toMatchObject({ amountCents: 100 });
        expect(await store.setOrderAmount('ord_53', 100)).toMatchObject({ amountCents: 7550, status: 'refunded' });
        expect(await store.setOrderAmount('ord_99', 100)).toBeUndefined();
        await expect(store.setOrderAmount('ord_52', -1)).rejects.toThrow(RangeError);
      });

      it('reports an order refunded before the store was asked (the seeded ord_53)', async () => {
        expect(await (await open()).refundOrder('ord_53')).toMatchObject({ status: 'already_refunded', order: { id: 'ord_53' } });
      });

      it('reports an unknown order without writing anything', async () => {
        const store = await open();
        expect(await store.refundOrder('ord_99')).toEqual({ status: 'not_found' });
        expect(await store.countRefunds('ord_99')).toBe(0);
      });

      it('refunds at most once across two connections to the same database', async () => {
        const a = await open();
        const b = await open();
        const results = await Promise.all([
          a.refundOrder('ord_52'),
          b.refundOrder('ord_52'),
          a.refundOrder('ord_52'),
          b.refundOrder('ord_52'),
        ]);
        expect(results.filter((r) => r.status === 'refunded')).toHaveLength(1);
        expect(results.filter((r) => r.status === 'already_refunded')).toHaveLength(3);
        expect(await a.countRefunds('ord_52')).toBe(1);
        expect(await b.findOrder('ord_52')).toMatchObject({ status: 'refunded' });
      });

      it('refunds at most once when twenty refunds of one order race on five connections', async () => {
        const stores = await Promise.all(Array.from({ length: 5 }, () => open()));
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            stores[i % 5]!.refundOrder('ord_54', { expectedAmountCents: 3000, requestedBy: `racer ${i}` }),
          ),
        );
        expect(results.filter((r) => r.status === 'refunded')).toHaveLength(1);
        expect(results.filter((r) => r.status === 'already_refunded')).toHaveLength(19);
        expect(await stores[0]!.refundsOf('ord_54')).toEqual([expect.objectContaining({ amountCents: 3000 })]);
      });
    });

    describe('meetings', () => {
      const request = { topic: 'Planning', date: '2030-03-14', time: '14:00', attendees: 12, room: 'orion' } as const;

      it('books a room once per date and time, telling who holds a taken slot', async () => {
        const { meetings } = await fixture.open({ now: () => new Date('2030-01-01T08:00:00Z') });
        const first = await meetings.book(request);
        expect(first).toEqual({ status: 'booked', meeting: { id: 1, ...request, bookedAt: '2030-01-01T08:00:00.000Z' } });
        expect(await meetings.book({ ...request, topic: 'Other' })).toEqual({
          status: 'taken',
          holder: { id: 1, ...request, bookedAt: expect.any(String) },
        });
        expect(await meetings.book({ ...request, time: '16:00' })).toMatchObject({ status: 'booked', meeting: { id: 2 } });
        expect((await meetings.holderOf('orion', '2030-03-14', '14:00'))?.topic).toBe('Planning');
        expect(await meetings.holderOf('atlas', '2030-03-14', '14:00')).toBeUndefined();
        expect((await meetings.meetingsIn('orion', '2030-03-14', '2030-03-14')).map((m) => m.time)).toEqual(['14:00', '16:00']);
        expect(await meetings.meetingsIn('orion', '2030-03-15', '2030-03-31')).toEqual([]);
      });

      it('books a slot once when two connections race for it', async () => {
        const a = (await fixture.open()).meetings;
        const b = (await fixture.open()).meetings;
        const results = await Promise.all([
          a.book(request),
          b.book({ ...request, topic: 'Rival' }),
          a.book({ ...request, topic: 'Third' }),
        ]);
        expect(results.filter((r) => r.status === 'booked')).toHaveLength(1);
        expect(results.filter((r) => r.status === 'taken')).toHaveLength(2);
        expect(await b.meetingsIn('orion', '2030-03-01', '2030-03-31')).toHaveLength(1);
      });
    });

    describe('incidents', () => {
      it('records incidents and reads them back as written', async () => {
        const { incidents } = await fixture.open({ now: () => new Date('2030-01-01T08:00:00Z') });
        const report: IncidentReport = {
          summary: 'Search is slow',
          severity: 'medium',
          services: ['search'],
          description: 'p95 at 4 s',
          paged: null,
        };
        expect(await incidents.record(report)).toEqual({ id: 1, ...report, reportedAt: '2030-01-01T08:00:00.000Z' });
        await incidents.record({ ...report, severity: 'high', services: ['search', 'checkout'], paged: false });
        expect((await incidents.incidentsAbout('Search is slow')).map((i) => [i.severity, i.services, i.paged])).toEqual([
          ['medium', ['search'], null],
          ['high', ['search', 'checkout'], false],
        ]);
      });
    });
  });
}
