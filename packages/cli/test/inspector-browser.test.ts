// The inspector page in a real browser (Debian's chromium through playwright-core): a book_meeting
// conversation served by an engine in this process, reported through the stdio server's reporter,
// shows round by round, and a round that happens while the page is open appears without a reload, its
// settled state marked in the machine's diagram. Leaves a screenshot in test/artifacts.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createEngine, createKeyring, createMemoryLedger, generateKey, type RoundReport, type StepOutcome } from '@roundtrip/engine';
import { createInspectReporter } from '@roundtrip/transport-stdio';
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { prompts, resources, tools } from '../../../apps/demo/src/demo-machines.ts';
import { startInspector } from '../src/inspect/inspector-server.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

// CI (.ci/run installs chromium) always runs it; elsewhere it runs when chromium is there, so the test
// command works with only Node and npm, and says it skipped this one
const required = process.env.CI === 'true' || process.env.ROUNDTRIP_BROWSER_TESTS === '1';
const present = existsSync(CHROMIUM);
if (!present && !required)
  process.stderr.write(`skipping the inspector's browser test: no chromium at ${CHROMIUM} (apt-get install -y chromium)\n`);

it.skipIf(!present && !required)('shows a conversation round by round and marks where it is, live', async () => {
  if (!present) {
    throw new Error(`This test drives Debian's chromium at ${CHROMIUM}, which is missing: install it with 'apt-get install -y chromium'.`);
  }
  const inspector = await startInspector({ definitions: [...tools, ...prompts, ...resources], port: 0 });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const reporter = createInspectReporter(inspector.url, 'demo', () => {});
    const reports: RoundReport[] = [];
    const engine = createEngine({
      tools,
      prompts,
      resources,
      keyring: createKeyring([generateKey()]),
      audience: 'inspector-test',
      ledger: createMemoryLedger(),
      inspect: (report) => {
        reports.push(report);
        reporter.report(report);
      },
    });
    let last: StepOutcome<unknown> | undefined;
    const round = async (inputResponses?: Record<string, unknown>) => {
      const requestState = last?.type === 'input_required' ? last.requestState : undefined;
      last = await engine.callTool({
        name: 'book_meeting',
        arguments: { topic: 'Roadmap review' },
        principal: 'ada',
        capabilities: { elicitation: {} },
        ...(requestState && { requestState, inputResponses }),
      });
      expect(last.type).toBe('input_required');
      await reporter.flushed();
    };
    await round();
    await round({ when: { action: 'accept', content: { date: inDays(30), time: '14:00', attendees: 8 } } });
    const run = reports[0]!.run;
    expect(run).not.toBe('');

    const page = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
    await page.goto(inspector.url);
    const card = page.locator(`.run[data-run="${run}"]`);
    const rows = card.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await page.locator('#status', { hasText: 'live' }).waitFor();
    const diagram = page.locator('.machine[data-machine="book_meeting"] svg[data-machine="book_meeting"]');
    await diagram.locator('[data-state="book_meeting.room"].current').waitFor();

    // the third round happens while the page is open
    await round({ room: { action: 'accept', content: { room: 'atlas' } } });
    await rows.nth(2).waitFor();
    expect(await card.locator('.run-id').textContent()).toBe(run);
    expect(await rows.allInnerTexts()).toEqual([
      expect.stringMatching(/^1\t—\t—\t—\twhen\twhen\tinput_required\t/),
      expect.stringMatching(/^2\twhen\twhen: accept \(date, time, attendees\)\twhen\.accept\troom\troom\tinput_required\t/),
      expect.stringMatching(/^3\troom\troom: accept \(room\)\troom\.accept\tconfirm\tconfirm\tinput_required\t/),
    ]);
    await diagram.locator('[data-state="book_meeting.confirm"].current').waitFor();
    expect(await diagram.locator('.current').count()).toBe(1);
    expect(await page.locator('.machine[data-machine="book_meeting"] .where').textContent()).toContain('in book_meeting.confirm');

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}inspector.png` });
  } finally {
    await browser.close();
    await inspector.close();
  }
});
