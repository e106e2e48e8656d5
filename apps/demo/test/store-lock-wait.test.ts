// The demo stores' writes while another connection holds the database file's write lock: they wait on
// timers (the event loop goes on turning), write once the lock is free, and after busyTimeoutMs fail
// with an error that names the lock, the file and the write. The refund_order tool turns that error into
// a result saying the database is locked, for the conversation that met it and for its duplicates.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type EngineLogEntry } from '@roundtrip/engine';
import { createSqliteLedger } from '@roundtrip/engine/sqlite';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseLockedError } from '../src/database-locked.ts';
import { createDemoDefinitions, SERVER_NAME } from '../src/demo-definitions.ts';
import { type DemoStores, openDemoStores } from '../src/demo-stores.ts';
import { accept, done, FORM, question, sharedKeyring, textOf } from './support/demo-engine.ts';

let dir: string;
let file: string;
const cleanups: Array<() => void | Promise<void>> = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rt-demo-lock-'));
  file = join(dir, 'orders.db');
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function stores(busyTimeoutMs: number): Promise<DemoStores> {
  const opened = await openDemoStores(file, { busyTimeoutMs });
  cleanups.push(() => opened.close());
  return opened;
}

/** Another connection holding the file's write lock until `release()`. */
function holdWriteLock() {
  const other = new Database(file);
  other.exec('BEGIN IMMEDIATE');
  const release = () => {
    if (other.inTransaction) other.exec('COMMIT');
  };
  cleanups.push(() => {
    release();
    other.close();
  });
  return { release };
}

/** One loop turn: timers and I/O callbacks that are due run before this resolves. */
const loopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const writes = [
  {
    name: 'refundOrder',
    what: 'orders database',
    doing: 'refund order ord_51',
    write: (s: DemoStores) => s.orders.refundOrder('ord_51'),
    written: async (s: DemoStores) => (await s.orders.countRefunds('ord_51')) === 1,
  },
  {
    name: 'setOrderAmount',
    what: 'orders database',
    doing: 'change the amount of order ord_52',
    write: (s: DemoStores) => s.orders.setOrderAmount('ord_52', 100),
    written: async (s: DemoStores) => (await s.orders.findOrder('ord_52'))?.amountCents === 100,
  },
  {
    name: 'book',
    what: 'meetings database',
    doing: 'book orion on 2030-03-14 at 14:00',
    write: (s: DemoStores) => s.meetings.book({ topic: 'Planning', date: '2030-03-14', time: '14:00', attendees: 12, room: 'orion' }),
    written: async (s: DemoStores) => (await s.meetings.meetingsAbout('Planning')).length === 1,
  },
  {
    name: 'record',
    what: 'incidents database',
    doing: 'record the incident',
    write: (s: DemoStores) =>
      s.incidents.record({ summary: 'Slow', severity: 'low', services: ['search'], description: 'p95 4 s', paged: null }),
    written: async (s: DemoStores) => (await s.incidents.incidentsAbout('Slow')).length === 1,
  },
] as const;

describe.each(writes)('$name under another connection’s write lock', ({ what, doing, write, written }) => {
  it('waits without blocking the event loop, and writes once the lock is released', async () => {
    const opened = await stores(60_000);
    const lock = holdWriteLock();
    const happened: string[] = [];
    const writing = write(opened).then(() => happened.push('written'));
    await loopTurn();
    happened.push('loop turned');
    expect(await written(opened)).toBe(false);
    lock.release();
    await writing;
    expect(happened).toEqual(['loop turned', 'written']);
    expect(await written(opened)).toBe(true);
  });

  it('fails after busyTimeoutMs naming the lock, the file and the write, and writes nothing', async () => {
    const opened = await stores(20);
    holdWriteLock();
    const failure = await write(opened).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseLockedError);
    expect((failure as Error).message).toBe(
      `The ${what} at ${file} is locked by another connection: it stayed locked for 20 ms, so this server could not ${doing}, and nothing was written. ` +
        'Try again when that transaction has ended (find the process that holds a long transaction on this file), or let writes wait longer ' +
        '(ROUNDTRIP_DB_BUSY_TIMEOUT_MS for the demo server, busyTimeoutMs in code).',
    );
    expect(await written(opened)).toBe(false);
  });
});

describe('refund_order when the orders database stays locked', () => {
  it('tells the conversation, its duplicates and its replays that the database is locked; a new call refunds once it is free', async () => {
    const opened = await stores(20);
    // the ledger in a file of its own, so that only the store meets the lock
    const ledger = createSqliteLedger({ path: join(dir, 'ledger.db') });
    cleanups.push(() => ledger.close());
    const logs: EngineLogEntry[] = [];
    const engine = createEngine({
      ...createDemoDefinitions(opened),
      keyring: sharedKeyring,
      audience: SERVER_NAME,
      ledger,
      log: (entry) => logs.push(entry),
    });
    const request = { name: 'refund_order', arguments: { order_id: 'ord_51' }, principal: 'ada', capabilities: FORM };
    const confirm = { confirm: accept({ confirm: true }) };
    const { requestState } = question(await engine.callTool(request), 'confirm');

    const lock = holdWriteLock();
    // the first confirmation meets the lock; the duplicates arriving meanwhile wait for its outcome
    const results = (
      await Promise.all(Array.from({ length: 3 }, () => engine.callTool({ ...request, requestState, inputResponses: confirm })))
    ).map(done);
    const locked =
      'Order ord_51 was not refunded: the orders database is locked by another connection (a long transaction on the same file). Call refund_order again in a moment.';
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(locked);
      expect(result.structuredContent).toMatchObject({ status: 'locked' });
    }
    // one ran and met the lock, the others waited for its outcome; the operator reads why
    expect(logs.filter((e) => e.event === 'effect_duplicate')).toHaveLength(2);
    expect(logs.filter((e) => e.event === 'effect_failed').map((e) => e.message)).toEqual([
      expect.stringMatching(/^effect 'refund' failed: DatabaseLockedError: The orders database at .* is locked by another connection: /),
    ]);
    lock.release();
    // the same confirmation replayed gets the recorded outcome: still not refunded
    expect(textOf(done(await engine.callTool({ ...request, requestState, inputResponses: confirm })))).toBe(locked);
    expect(await opened.orders.countRefunds('ord_51')).toBe(0);

    const again = question(await engine.callTool(request), 'confirm');
    const refunded = done(await engine.callTool({ ...request, requestState: again.requestState, inputResponses: confirm }));
    expect(textOf(refunded)).toBe('Refunded $49.00 for order ord_51.');
    expect(await opened.orders.countRefunds('ord_51')).toBe(1);
  });
});
