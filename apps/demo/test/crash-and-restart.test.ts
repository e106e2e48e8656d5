// The demo server killed with SIGKILL (no cleanup, as in a crash) and started again on the same
// database and key: between two rounds the conversation simply goes on; during the refund, the
// ledger's record and the store agree, and nothing is refunded twice: with the ledger in the database file,
// the refund commits with its record or not at all; with the ledger elsewhere, an unknown outcome is read in the store.
// The killed server is a real process (a crash needs one); the server started again after it runs in this
// process (support/in-process-demo-server.ts: the same server code, its stderr log as a process writes it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledScript } from './support/bundle.ts';
import { accept, callRound, type DemoSettings, freshDemoSettings } from './support/demo-client.ts';
import { ledgerRows, refundsIn } from './support/demo-files.ts';
import { type DemoProcess, startDemoProcess } from './support/demo-process.ts';
import { startInProcessDemo } from './support/in-process-demo-server.ts';

const bundleDir = mkdtempSync(join(tmpdir(), 'rt-demo-crash-'));
let heldRefundServer: string;
beforeAll(async () => {
  heldRefundServer = await bundledScript(new URL('./fixtures/held-refund-server.ts', import.meta.url), bundleDir);
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

// the two cases run concurrently (each its own processes, database and key; they mostly wait on the processes): the
// connections are closed once both have run
const started: Array<Pick<DemoProcess, 'close'>> = [];
/** The held server, a process the test kills. */
const startHeld = async (settings: DemoSettings) => {
  const demo = await startDemoProcess({ ...settings, launcher: heldRefundServer });
  started.push(demo);
  return demo;
};
/** The server started again after the crash, on the same database, ledger and key. */
const restart = async (settings: DemoSettings) => {
  const demo = await startInProcessDemo(settings);
  started.push(demo);
  return demo;
};
afterAll(async () => {
  await Promise.all(started.splice(0).map((demo) => demo.close()));
});

const order = { order_id: 'ord_51' };
const yes = { confirm: accept({ confirm: true }) };

describe('the demo server killed and restarted', { concurrent: true }, () => {
  // one held process and one restart serve both: ord_52's conversation is killed between its two rounds, ord_51's
  // during its refund (held in the ledger's open transaction)
  it('between two rounds: the restarted server takes the confirming retry and refunds once; during the refund, with the ledger in the database file: the kill undoes the refund with its claim, and the restarted server refunds once', async () => {
    const settings = freshDemoSettings();
    const between = { order_id: 'ord_52' };
    const held = await startHeld(settings);
    const askBetween = await callRound(held.client, 'refund_order', between);
    expect(askBetween.inputRequests?.confirm?.params.message).toBe('Refund $120.00 for order ord_52?');
    const ask = await callRound(held.client, 'refund_order', order);
    expect(ask.inputRequests?.confirm?.params.message).toBe('Refund $49.00 for order ord_51?');
    const retry = { requestState: ask.requestState, inputResponses: yes };
    // the round never answers: the refund is written in the ledger's transaction, then held until the process is killed
    void callRound(held.client, 'refund_order', order, retry).catch(() => {});
    await held.waitForLog(/^held-refund: refund written for ord_51 \(refunded\)$/, { timeoutMs: 10_000 });
    await held.kill();
    // claim, refund and outcome were one transaction: none of it was committed
    expect(await refundsIn(settings.db, 'ord_51')).toBe(0);
    expect(await refundsIn(settings.db, 'ord_52')).toBe(0);
    expect(ledgerRows(settings.db)).toEqual([]);

    const after = await restart(settings);
    const retryBetween = { requestState: askBetween.requestState, inputResponses: yes };
    const doneBetween = await callRound(after.client, 'refund_order', between, retryBetween);
    expect(doneBetween.content?.[0]?.text).toBe('Refunded $120.00 for order ord_52.');
    expect(await callRound(after.client, 'refund_order', between, retryBetween)).toEqual(doneBetween);
    expect(await refundsIn(settings.db, 'ord_52')).toBe(1);

    const done = await callRound(after.client, 'refund_order', order, retry);
    expect(done.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
    expect(await callRound(after.client, 'refund_order', order, retry)).toEqual(done);
    expect(await refundsIn(settings.db, 'ord_51')).toBe(1);
    const recorded = expect.objectContaining({ effect: 'refund', state: 'done' });
    expect(ledgerRows(settings.db)).toEqual([recorded, recorded]);
  });

  // with the ledger in a file of its own (ROUNDTRIP_LEDGER), the store's write and the ledger's outcome are two commits:
  // one held process serves both refunds (ord_51 held after the store wrote it, ord_52 before) and one restart takes both retries
  it('during the refund, with the ledger in a file of its own: after the restart, a retry whose refund the store wrote learns at once that the outcome is unknown, reads the order again and refunds nothing twice; one whose refund the store never wrote says the refund was interrupted, and a new call refunds once', async () => {
    const base = freshDemoSettings();
    const settings = { ...base, ledger: join(dirname(base.db), 'ledger.db') };
    const written = { order_id: 'ord_51' };
    const unwritten = { order_id: 'ord_52' };
    const held = await startHeld(settings);
    const [askWritten, askUnwritten] = await Promise.all([
      callRound(held.client, 'refund_order', written),
      callRound(held.client, 'refund_order', unwritten),
    ]);
    const retryWritten = { requestState: askWritten.requestState, inputResponses: yes };
    const retryUnwritten = { requestState: askUnwritten.requestState, inputResponses: yes };
    // the rounds never answer: ord_51's refund is written, then held until the process is killed; ord_52's is held before it writes
    void callRound(held.client, 'refund_order', written, retryWritten).catch(() => {});
    void callRound(held.client, 'refund_order', unwritten, retryUnwritten).catch(() => {});
    await Promise.all([
      held.waitForLog(/^held-refund: refund written for ord_51 \(refunded\)$/, { timeoutMs: 10_000 }),
      held.waitForLog(/^held-refund: refund of ord_52 started, nothing written$/, { timeoutMs: 10_000 }),
    ]);
    await held.kill();
    expect(await refundsIn(settings.db, 'ord_51')).toBe(1);
    expect(await refundsIn(settings.db, 'ord_52')).toBe(0);
    const running = { effect: 'refund', state: 'running', owner: expect.stringContaining(`"pid":${held.pid}`) };
    expect(ledgerRows(settings.ledger)).toEqual([running, running]);

    const after = await restart(settings);
    const from = after.stderr().length;
    const outcome = await callRound(after.client, 'refund_order', written, retryWritten);
    // the tool reads the store again: the refund went through before the crash
    expect(outcome.content?.[0]?.text).toMatch(/^Order ord_51 was already refunded on \d{4}-\d\d-\d\d; nothing more was done\.$/);
    expect(await after.waitForLog(/by a server process that ended before it recorded an outcome/, { from, timeoutMs: 5_000 })).toMatch(
      /Effect 'refund' of this conversation was started at .* by a server process that ended before it recorded an outcome \(it crashed or was killed\), so whether it happened is unknown\. Check before doing it again\./,
    );
    // a new conversation reads the store: the order is refunded, once
    const fresh = await callRound(after.client, 'refund_order', written);
    expect(fresh.content?.[0]?.text).toMatch(/^Order ord_51 was already refunded on \d{4}-\d\d-\d\d; nothing more was done\.$/);
    expect(await refundsIn(settings.db, 'ord_51')).toBe(1);

    const interrupted = await callRound(after.client, 'refund_order', unwritten, retryUnwritten);
    expect(interrupted.isError).toBe(true);
    expect(interrupted.content?.[0]?.text).toBe(
      'The refund of order ord_52 was interrupted (the server stopped while refunding), and the order shows no refund. Call refund_order again to refund it.',
    );
    // the same retry again: the same answer, and still nothing refunded by it
    expect(await callRound(after.client, 'refund_order', unwritten, retryUnwritten)).toEqual(interrupted);
    expect(await refundsIn(settings.db, 'ord_52')).toBe(0);
    // a new conversation asks again and refunds, once
    const again = await callRound(after.client, 'refund_order', unwritten);
    const done = await callRound(after.client, 'refund_order', unwritten, { requestState: again.requestState, inputResponses: yes });
    expect(done.content?.[0]?.text).toBe('Refunded $120.00 for order ord_52.');
    expect(await refundsIn(settings.db, 'ord_52')).toBe(1);
  });
});
