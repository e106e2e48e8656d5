// The demo server's orders database locked by another connection (a long `BEGIN IMMEDIATE` in another
// process) while the effect ledger is kept in a file of its own (ROUNDTRIP_LEDGER), so only the store
// meets the lock: the confirming refund waits for it on timers, so other requests are answered
// meanwhile; it refunds once the lock is released, and when the wait times out the conversation is told
// that the database is locked, and the log says why. The waiting server runs in this process (on timers, a
// blocked thread would hang the test too); the one that times out is a process reading ROUNDTRIP_DB_BUSY_TIMEOUT_MS.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledScript } from './support/bundle.ts';
import {
  accept,
  callRound,
  connectDemo,
  type DemoConnection,
  type DemoSettings,
  freshDemoSettings,
  type RawRoundResult,
} from './support/demo-client.ts';
import { refundsIn } from './support/demo-files.ts';
import { startInProcessDemo } from './support/in-process-demo-server.ts';

const bundleDir = mkdtempSync(join(tmpdir(), 'rt-demo-locked-'));
let launcher: string;
beforeAll(async () => {
  launcher = await bundledScript(new URL('../src/server.ts', import.meta.url), bundleDir);
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

// the cases run concurrently (each its own server, files and lock holder; most of their time is spent waiting on
// the server and the lock): what they opened is closed once they all have run
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A demo server (a process, or in this process) whose effect ledger is in another file than its orders database. */
async function connectWithOwnLedger(
  dbBusyTimeoutMs: number,
  where: 'process' | 'in this process',
): Promise<{ demo: DemoConnection; settings: DemoSettings }> {
  const base = freshDemoSettings();
  const settings = { ...base, launcher, ledger: join(dirname(base.db), 'ledger.db'), dbBusyTimeoutMs };
  const demo = where === 'process' ? await connectDemo(settings) : await startInProcessDemo(settings);
  cleanups.push(() => demo.close());
  return { demo, settings };
}

/** Another connection (this test process) holding the database file's write lock until `release()`. */
function holdWriteLock(path: string) {
  const other = new Database(path);
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

const order = { order_id: 'ord_51' };
const yes = { confirm: accept({ confirm: true }) };

describe('the orders database locked by another connection, the ledger in its own file', { concurrent: true }, () => {
  it('answers tools/list while the confirming refund waits for the lock, then refunds once it is released', async () => {
    const { demo, settings } = await connectWithOwnLedger(60_000, 'in this process');
    const ask = await callRound(demo.client, 'refund_order', order);
    const lock = holdWriteLock(settings.db);

    const happened: string[] = [];
    let refundStarted!: () => void;
    const started = new Promise<void>((resolve) => (refundStarted = resolve));
    // the round reports (as progress) when its refund starts: from there it goes straight to the store's write
    const refunding = demo.client
      .callTool({ name: 'refund_order', arguments: order, requestState: ask.requestState, inputResponses: yes } as never, {
        allowInputRequired: true,
        onprogress: (progress: { message?: string }) => {
          if (progress.message === 'Refunding the order…') refundStarted();
        },
      })
      .then((result) => {
        happened.push('refund answered');
        return result as RawRoundResult;
      });
    await started;

    const listed = await demo.client.listTools(undefined, { cacheMode: 'bypass' });
    happened.push('tools listed');
    expect(listed.tools.map((tool) => tool.name)).toContain('refund_order');
    lock.release();
    happened.push('lock released');

    const done = await refunding;
    expect(done.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
    expect(happened).toEqual(['tools listed', 'lock released', 'refund answered']);
    expect(await refundsIn(settings.db, 'ord_51')).toBe(1);
  });

  it('tells the waiting conversation the database is locked when the wait times out, and logs why; a new call then refunds', async () => {
    const { demo, settings } = await connectWithOwnLedger(50, 'process');
    const ask = await callRound(demo.client, 'refund_order', order);
    const lock = holdWriteLock(settings.db);
    const from = demo.stderr().length;

    const refused = await callRound(demo.client, 'refund_order', order, { requestState: ask.requestState, inputResponses: yes });
    expect(refused.isError).toBe(true);
    expect(refused.content?.[0]?.text).toBe(
      'Order ord_51 was not refunded: the orders database is locked by another connection (a long transaction on the same file). Call refund_order again in a moment.',
    );
    expect(refused.structuredContent).toMatchObject({ status: 'locked', order_id: 'ord_51' });
    const logged = await demo.waitForLog(/ effect_failed /, { from });
    expect(logged).toContain(
      `effect 'refund' failed: DatabaseLockedError: The orders database at ${settings.db} is locked by another connection: it stayed locked for 50 ms, so this server could not refund order ord_51, and nothing was written.`,
    );
    expect(await refundsIn(settings.db, 'ord_51')).toBe(0);

    lock.release();
    const again = await callRound(demo.client, 'refund_order', order);
    const done = await callRound(demo.client, 'refund_order', order, { requestState: again.requestState, inputResponses: yes });
    expect(done.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
    expect(await refundsIn(settings.db, 'ord_51')).toBe(1);
  });
});
