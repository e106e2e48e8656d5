// `pnpm demo`: a scripted conversation with the demo server over real stdio, for a person to read.
// It checks every result as it goes: exit 0 when everything behaved as expected, 1 (saying what
// differed) otherwise. The scenes live in demo-scenes-refunds.ts, demo-scenes-more.ts and demo-scenes-flows.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type ConnectedClient, connectDemoClient, type DemoServerEnv, SERVER_LAUNCHER } from './connect-demo-client.ts';
import { DemoMismatch, expectThat } from './demo-checks.ts';
import { bookMeetingThroughTheReview, meetingAgendaPrompt, reportHighIncident, roomBookingsResource } from './demo-scenes-flows.ts';
import { amountChangesUnderTheQuestion, legacyHostRefund, refundEmailPrompt, statementResource } from './demo-scenes-more.ts';
import { confirmedRefundSentSevenTimes, declinedKnownAndUnknown, tamperedStateRefused } from './demo-scenes-refunds.ts';
import { openDemoStores } from './demo-stores.ts';
import { say } from './demo-transcript.ts';

async function run(env: DemoServerEnv, opened: ConnectedClient[]): Promise<void> {
  say('Roundtrip scripted demo: the demo server over real stdio');
  const launcher = relative(process.cwd(), SERVER_LAUNCHER);
  say(`server:   node ${launcher.startsWith('..') ? SERVER_LAUNCHER : launcher} (a new process for each client)`, 1);
  say(`database: ${env.ROUNDTRIP_DB} (fresh; orders, meetings, incidents and the effect ledger in one file)`, 1);
  say('seeded:   ada: ord_51 $49.00, ord_52 $120.00, ord_53 $75.50 refunded; grace: ord_54 $30.00', 2);
  say(`key:      a fresh 32-byte key in ROUNDTRIP_KEY; principal ${env.ROUNDTRIP_PRINCIPAL}`, 1);

  say();
  say('Client A speaks 2026-07-28 and handles every input_required round by hand.');
  const a = await connectDemoClient({ era: 'modern', env });
  opened.push(a);
  const aVersion = a.client.getNegotiatedProtocolVersion();
  expectThat(a.client.getProtocolEra() === 'modern' && aVersion === '2026-07-28', 'expected client A to speak 2026-07-28', aVersion);
  say(
    `connected: era ${a.client.getProtocolEra()}, protocol ${aVersion}, server ${a.client.getServerVersion()?.name} ${a.client.getServerVersion()?.version}`,
    1,
  );
  const stores = await openDemoStores(env.ROUNDTRIP_DB);
  try {
    const stage = { a, store: stores.orders, meetings: stores.meetings, incidents: stores.incidents, env, opened };
    await confirmedRefundSentSevenTimes(stage);
    await declinedKnownAndUnknown(stage);
    await tamperedStateRefused(stage);
    await legacyHostRefund(stage);
    await amountChangesUnderTheQuestion(stage);
    await refundEmailPrompt(stage);
    await statementResource(stage);
    await bookMeetingThroughTheReview(stage);
    await reportHighIncident(stage);
    await meetingAgendaPrompt(stage);
    await roomBookingsResource(stage);
  } finally {
    await stores.close();
  }

  say();
  say('All thirteen scenes behaved as expected.');
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'roundtrip-demo-'));
  const env: DemoServerEnv = {
    ROUNDTRIP_DB: join(dir, 'orders.db'),
    ROUNDTRIP_KEY: randomBytes(32).toString('base64url'),
    ROUNDTRIP_PRINCIPAL: 'ada',
  };
  const opened: ConnectedClient[] = [];
  let status = 0;
  try {
    await run(env, opened);
  } catch (error) {
    status = 1;
    const problem = error instanceof DemoMismatch ? error.message : ((error as Error).stack ?? String(error));
    process.stderr.write(`\nDEMO FAILED: ${problem}\n`);
    for (const [i, c] of opened.entries()) {
      const log = c.serverLog().trim();
      if (log) process.stderr.write(`\nserver log of client ${'AB'[i] ?? i}:\n${log.replace(/^/gm, '  ')}\n`);
    }
  } finally {
    await Promise.allSettled(opened.map((c) => c.close()));
    rmSync(dir, { recursive: true, force: true });
  }
  return status;
}

process.exitCode = await main();
// a child that will not go away must not keep the demo from exiting
setTimeout(() => process.exit(), 3000).unref();
