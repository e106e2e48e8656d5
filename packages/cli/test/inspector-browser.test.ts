// The inspector page in a real browser (Debian's chromium through playwright-core), at a 1400 px window:
// book_meeting and report_incident conversations served by an engine in this process, reported through
// the stdio server's reporter, show round by round with why a question came back; a round that happens
// while the page is open appears without a reload, its settled state marked in the machine's diagram.
// What a person sees is asserted: nothing wider than its card, diagram text at a readable size, a small
// diagram not blown up. Leaves a screenshot in test/artifacts.
import { mkdir } from 'node:fs/promises';
import { createEngine, createKeyring, createMemoryLedger, generateKey, type RoundReport, type StepOutcome } from '@roundtrip/engine';
import { createInspectReporter } from '@roundtrip/mcp';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { prompts, resources, tools } from '../../../apps/demo/src/demo-machines.ts';
import { startInspector } from '../src/inspect/inspector-server.ts';
import { browserTestRuns, launchChromium } from './fixtures/real-chromium.ts';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** The smallest size, in CSS pixels, a diagram's body text may be shown at (the page's MIN_TEXT_PX). */
const MIN_TEXT_PX = 11;

const runs = browserTestRuns("the inspector's browser test");

// The little of the DOM the checks below read in the page (this package's TypeScript has no DOM types).
interface ElementBox {
  readonly left: number;
  readonly right: number;
  readonly width: number;
  readonly height: number;
}
interface PageElement {
  readonly tagName: string;
  readonly className: unknown;
  readonly dataset: Readonly<Record<string, string | undefined>>;
  readonly parentElement: PageElement | null;
  readonly classList: { contains(name: string): boolean };
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly viewBox: { baseVal: { width: number } };
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  getBoundingClientRect(): ElementBox;
  getBBox(): ElementBox;
  getAttribute(name: string): string | null;
}
type PageGlobals = { document: { documentElement: PageElement } & PageElement };

/** Every element of a card (conversation or machine) that reaches past the card's edges or past its own box. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // (runs in the page: it reaches nothing of this module but types)
    const { document } = globalThis as unknown as PageGlobals;
    const found: string[] = [];
    const name = (node: PageElement) =>
      `${node.tagName.toLowerCase()}${node.className && typeof node.className === 'string' ? `.${node.className.trim().replace(/\s+/g, '.')}` : ''}`;
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`the page: ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
    for (const card of document.querySelectorAll('.run, .machine')) {
      const where = `${name(card)}[${card.dataset.run ?? card.dataset.machine}]`;
      if (card.scrollWidth > card.clientWidth) found.push(`${where}: ${card.scrollWidth} px of content in ${card.clientWidth} px`);
      const edge = card.getBoundingClientRect();
      for (const node of card.querySelectorAll('*')) {
        // what a diagram holds scrolls inside it; the diagram itself must fit
        if (node.parentElement?.closest('.diagram')) continue;
        const box = node.getBoundingClientRect();
        if (box.width === 0) continue;
        if (box.left < edge.left - 0.5 || box.right > edge.right + 0.5) found.push(`${where} ${name(node)}: reaches past the card`);
        if (node.clientWidth > 0 && node.scrollWidth > node.clientWidth && !node.classList.contains('diagram'))
          found.push(`${where} ${name(node)}: ${node.scrollWidth} px of text in ${node.clientWidth} px`);
      }
    }
    return found;
  });
}

/** How a machine's diagram is drawn: its scale against its natural size, and the size each text shows at. */
function diagramLook(page: Page, machine: string) {
  return page.evaluate((id) => {
    const { document } = globalThis as unknown as PageGlobals;
    const diagram = document.querySelector(`.machine[data-machine="${id}"] .diagram`)!;
    const svg = diagram.querySelector('svg')!;
    const natural = svg.viewBox.baseVal.width;
    const texts = [...svg.querySelectorAll('text')].map((text) => {
      const size = Number(text.getAttribute('font-size'));
      // the text's box on screen against its box in the drawing's own units
      return { size, shown: (size * text.getBoundingClientRect().height) / text.getBBox().height };
    });
    // the body text: the size most text is drawn in (the smaller one on a tie)
    const count = (size: number) => texts.filter((t) => t.size === size).length;
    const body = texts.map((t) => t.size).sort((a, b) => count(b) - count(a) || a - b)[0]!;
    return {
      natural,
      scale: svg.getBoundingClientRect().width / natural,
      bodyShownAt: Math.min(...texts.filter((t) => t.size === body).map((t) => t.shown)),
      /** Each text's size on screen against the size it is drawn in: 1 at the natural size. */
      textScales: [...new Set(texts.map((t) => Math.round((t.shown / t.size) * 100) / 100))],
      scrolls: diagram.scrollWidth > diagram.clientWidth,
      room: diagram.clientWidth,
    };
  }, machine);
}

it.skipIf(!runs)('shows conversations round by round with why a question came back, live, readable at 1400 px', async () => {
  const inspector = await startInspector({ definitions: [...tools, ...prompts, ...resources], port: 0 });
  const browser = await launchChromium();
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
    /** One conversation with a tool: each call answers the round before. */
    const conversation = (name: string, args: Record<string, unknown>) => {
      let last: StepOutcome<unknown> | undefined;
      return async (inputResponses?: Record<string, unknown>) => {
        const requestState = last?.type === 'input_required' ? last.requestState : undefined;
        last = await engine.callTool({
          name,
          arguments: args,
          principal: 'ada',
          capabilities: { elicitation: {} },
          ...(requestState && { requestState, inputResponses }),
        });
        expect(last.type).toBe('input_required');
        await reporter.flushed();
      };
    };
    const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

    const incident = conversation('report_incident', { summary: 'Checkout times out' });
    await incident();
    await incident({ severity: accept({ level: 'high' }) });
    // parallel questions: the states are nested; the description is too short, so 'details' comes back
    await incident({ details: accept({ services: ['checkout'], description: 'slow' }), oncall: accept({ page: true }) });
    const meeting = conversation('book_meeting', { topic: 'Roadmap review' });
    await meeting();
    // the step's check refuses a date in the past: the question comes back with the reason
    await meeting({ when: accept({ date: '2020-01-01', time: '14:00', attendees: 8 }) });
    await meeting({ when: accept({ date: inDays(30), time: '14:00', attendees: 8 }) });
    const run = reports.find((r) => r.target === 'tool book_meeting')!.run;
    expect(run).not.toBe('');

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(inspector.url);
    const card = page.locator(`.run[data-run="${run}"]`);
    const rows = card.locator('tbody tr.round');
    await expect.poll(() => rows.count()).toBe(3);
    await page.locator('#status', { hasText: 'live' }).waitFor();
    const diagram = page.locator('.machine[data-machine="book_meeting"] svg[data-machine="book_meeting"]');
    await diagram.locator('[data-state="book_meeting.room.asking"].current').waitFor();

    // the fourth round happens while the page is open
    await meeting({ room: accept({ room: 'atlas' }) });
    await rows.nth(3).waitFor();
    expect(await card.locator('.run-id').textContent()).toBe(run);
    expect(await rows.allInnerTexts()).toEqual([
      // the demo's book_meeting checks its steps asynchronously: each asks in its 'asking' state
      expect.stringMatching(/^1\t—\t—\t—\twhen\.asking\twhen\tinput_required\n/),
      expect.stringMatching(
        /^2\twhen\.asking\twhen: accept \(date, time, attendees\)\twhen\.accept\twhen\.asking\twhen \(again\)\tinput_required\n/,
      ),
      expect.stringMatching(/^3\twhen\.asking\twhen: accept \(date, time, attendees\)\twhen\.accept\troom\.asking\troom\tinput_required\n/),
      expect.stringMatching(/^4\troom\.asking\troom: accept \(room\)\troom\.accept\tconfirm\tconfirm\tinput_required\n/),
    ]);
    // the reason stands under the round that asked again, where a person reads it
    const reason = card.locator('tr.reason');
    expect(await reason.allInnerTexts()).toEqual(['asked again · when: 2020-01-01 is in the past']);
    expect(await reason.getAttribute('data-round')).toBe('2');
    expect(await reason.isVisible()).toBe(true);
    const incidentCard = page.locator('.run', { hasText: 'tool report_incident' });
    expect(await incidentCard.locator('tr.reason').allInnerTexts()).toEqual([
      'asked again · details: description: Too small: expected string to have >=20 characters',
    ]);
    // a nested state reads as one path per active leaf
    const settled = await incidentCard.locator('tbody tr.round td.settled').allInnerTexts();
    expect(settled.at(-1)).toBe('report.details.asking\nreport.oncall.answered');
    await diagram.locator('[data-state="book_meeting.confirm"].current').waitFor();
    expect(await diagram.locator('.current').count()).toBe(1);
    expect(await page.locator('.machine[data-machine="book_meeting"] .where').textContent()).toContain('in book_meeting.confirm');

    // nothing is wider than its card: long states wrap inside their cells
    expect(await overflowing(page)).toEqual([]);
    // a large diagram keeps its text readable and scrolls inside its card; a small one stays its natural size
    const large = await diagramLook(page, 'report_incident');
    expect(large.natural).toBeGreaterThan(large.room);
    expect(large.bodyShownAt).toBeGreaterThanOrEqual(MIN_TEXT_PX - 0.05);
    expect(large.scrolls).toBe(true);
    const small = await diagramLook(page, 'order_status');
    expect(small.natural).toBeLessThan(small.room);
    expect(small.scale).toBeCloseTo(1, 2);
    expect(small.textScales).toEqual([1]);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}inspector.png` });
  } finally {
    await browser.close();
    await inspector.close();
  }
});
