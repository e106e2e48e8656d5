// 100 identical confirming retries at once (the same requestState and the same answer) against the demo's
// stdio server: over one connection to one server (run in this process on in-memory stdio: the same
// server code and log), and 50 + 50 over two real processes that share the database file and the key.
// Exactly one refund, one ledger record, and 100 identical results.
// (refund-order.test.ts covers a handful of duplicates on the engine alone; this is the load over stdio.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledScript } from './support/bundle.ts';
import { accept, callRound, connectDemo, type DemoConnection, type DemoSettings, freshDemoSettings } from './support/demo-client.ts';
import { ledgerRows, refundsIn } from './support/demo-files.ts';
import { startInProcessDemo } from './support/in-process-demo-server.ts';

const bundleDir = mkdtempSync(join(tmpdir(), 'rt-demo-duplicates-'));
let launcher: string;
beforeAll(async () => {
  launcher = await bundledScript(new URL('../src/server.ts', import.meta.url), bundleDir);
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

const open: DemoConnection[] = [];
const connect = async (settings: DemoSettings, where: 'process' | 'in this process' = 'process') => {
  const demo = where === 'process' ? await connectDemo({ ...settings, launcher }) : await startInProcessDemo(settings);
  open.push(demo);
  return demo;
};
// the two cases run concurrently (each its own processes, database and key): the connections are closed once both have run
afterAll(async () => {
  await Promise.all(open.splice(0).map((demo) => demo.close()));
});

const order = { order_id: 'ord_52' };
const yes = { confirm: accept({ confirm: true }) };
const confirmTimes = (client: Client, requestState: string | undefined, times: number) =>
  Array.from({ length: times }, () => callRound(client, 'refund_order', order, { requestState, inputResponses: yes }));

describe('100 concurrent duplicates of the confirming retry', { concurrent: true }, () => {
  it('over one connection to one server: one refund, 100 identical results', async () => {
    const settings = freshDemoSettings();
    const demo = await connect(settings, 'in this process');
    const ask = await callRound(demo.client, 'refund_order', order);
    const results = await Promise.all(confirmTimes(demo.client, ask.requestState, 100));
    expect(results[0]?.content?.[0]?.text).toBe('Refunded $120.00 for order ord_52.');
    for (const result of results) expect(result).toEqual(results[0]);
    expect(await refundsIn(settings.db, 'ord_52')).toBe(1);
    expect(ledgerRows(settings.db).map((row) => row.state)).toEqual(['done']);
    expect(demo.stderr().match(/info effect_recorded/g)).toHaveLength(1);
  });

  it('split 50 + 50 over two processes sharing the database and the key: one refund, 100 identical results', async () => {
    const settings = freshDemoSettings();
    const [first, second] = await Promise.all([connect(settings), connect(settings)]);
    if (!first || !second) throw new Error('two servers should have started');
    const ask = await callRound(first.client, 'refund_order', order);
    const results = await Promise.all([
      ...confirmTimes(first.client, ask.requestState, 50),
      ...confirmTimes(second.client, ask.requestState, 50),
    ]);
    expect(results[0]?.content?.[0]?.text).toBe('Refunded $120.00 for order ord_52.');
    for (const result of results) expect(result).toEqual(results[0]);
    expect(await refundsIn(settings.db, 'ord_52')).toBe(1);
    expect(ledgerRows(settings.db).map((row) => row.state)).toEqual(['done']);
    const recorded = [first, second].map((demo) => demo.stderr().match(/info effect_recorded/g)?.length ?? 0);
    expect(recorded.reduce((sum, n) => sum + n, 0)).toBe(1);
  });
});
