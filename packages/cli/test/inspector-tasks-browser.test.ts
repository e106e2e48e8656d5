// The inspector page's task list in a real browser (Debian's chromium through playwright-core): tools that run
// as MCP tasks, served by an engine in this process that reports through a server's reporter, show one row per
// task that changes live, without a reload: the author's progress words as the work moves, the key a question
// is asked under, and each end (completed, failed, cancelled) styled apart. The task id shows shortened, and no
// answer reaches the page. Leaves a screenshot in test/artifacts.
import { mkdir } from 'node:fs/promises';
import {
  type AnswerEvents,
  type AskMeta,
  createEngine,
  createKeyring,
  defineQuestions,
  defineTool,
  generateKey,
  type RoundReport,
  TASKS_EXTENSION,
} from '@roundtrip/engine';
import { createInspectReporter } from '@roundtrip/mcp';
import { expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { startInspector } from '../src/inspect/inspector-server.ts';
import { browserTestRuns, launchChromium } from './fixtures/real-chromium.ts';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const runs = browserTestRuns("the inspector's task list browser test");

/** A promise the test settles by hand. */
function held() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const questions = defineQuestions<{ month: string }>()({
  send: { message: 'Email the export of {{month}}?', schema: z.object({ email: z.email().optional() }) },
});
type Work = (signal: AbortSignal) => Promise<void>;

/** A tool that fetches, then writes (long work, each with its own words), then asks `send`, as a task. */
function monthTool(name: string, work: { fetch: Work; write: Work }) {
  const machine = setup({
    types: {
      context: {} as { month: string },
      input: {} as { month: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { text: string },
    },
    actors: { fetch: fromPromise(({ signal }) => work.fetch(signal)), write: fromPromise(({ signal }) => work.write(signal)) },
  }).createMachine({
    id: name,
    context: ({ input }) => ({ month: input.month }),
    initial: 'fetching',
    states: {
      fetching: {
        meta: { long: true, progress: 'Fetching the orders of {{month}}…' },
        invoke: { id: 'fetch', src: 'fetch', onDone: 'writing' },
      },
      writing: {
        meta: { long: true, progress: 'Writing the file of {{month}}…' },
        invoke: { id: 'write', src: 'write', onDone: 'sending' },
      },
      sending: { meta: { ask: ['send'] }, on: { 'send.*': 'done' } },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ text: `Exported ${context.month}.` }),
  });
  return defineTool({
    name,
    description: "Exports a month's orders",
    input: z.object({ month: z.string() }),
    questions,
    machine,
    result: (output) => ({ text: output.text }),
    task: 'optional',
  });
}

// The little of the DOM the checks below read in the page (this package's TypeScript has no DOM types).
interface PageElement {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  querySelectorAll(selector: string): Iterable<PageElement>;
  getBoundingClientRect(): { left: number; right: number };
}
type PageGlobals = {
  document: { querySelector(selector: string): PageElement | null };
  getComputedStyle(node: unknown): { backgroundColor: string };
};

it.skipIf(!runs)('lists tasks as they change, live: progress, the question asked, and how each ended', async () => {
  const fetched = held();
  const written = held();
  const failing = held();
  const tools = [
    monthTool('export_month', { fetch: () => fetched.promise, write: () => written.promise }),
    monthTool('broken_export', { fetch: () => failing.promise, write: async () => {} }),
    // works until tasks/cancel stops it
    monthTool('wait_for_cancel', {
      fetch: (signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
      write: async () => {},
    }),
  ];
  const inspector = await startInspector({ definitions: tools, port: 0 });
  const browser = await launchChromium();
  const reporter = createInspectReporter(inspector.url, 'tasks-demo', () => {});
  const rounds: RoundReport[] = [];
  const engine = createEngine({
    tools,
    keyring: createKeyring([generateKey()]),
    audience: 'inspector-tasks-test',
    inspect: (report) => {
      rounds.push(report);
      reporter.report(report);
    },
    inspectTasks: reporter.reportTask,
  });
  const asAda = { principal: 'ada', capabilities: { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } } };
  const start = async (name: string) => {
    const outcome = await engine.callTool({ name, arguments: { month: '2026-05' }, ...asAda });
    if (outcome.type !== 'task') throw new Error(JSON.stringify(outcome));
    return outcome.task.taskId;
  };
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(inspector.url);
    await page.locator('#status', { hasText: 'live' }).waitFor();
    // no task yet: no task list
    expect(await page.locator('#tasks-part').isHidden()).toBe(true);

    const taskId = await start('export_month');
    const row = page.locator(`tr.task[data-task="${taskId.slice(0, 8)}"]`);
    await row.locator('td.message', { hasText: 'Fetching the orders of 2026-05…' }).waitFor();
    expect(await row.getAttribute('data-status')).toBe('working');
    expect(await row.locator('td.tool').textContent()).toBe('export_month');
    expect(await row.locator('td.id').textContent()).toBe(taskId.slice(0, 8));
    expect(await row.locator('.badge').textContent()).toBe('working');
    // the work moves on: its words change in place
    fetched.resolve();
    await row.locator('td.message', { hasText: 'Writing the file of 2026-05…' }).waitFor();
    written.resolve();
    const asking = page.locator(`tr.task[data-task="${taskId.slice(0, 8)}"][data-status="input_required"]`);
    await asking.waitFor();
    expect(await asking.locator('td.asks').textContent()).toBe('send.1');
    expect(await asking.locator('.badge').textContent()).toBe('input required');
    await engine.updateTask({
      taskId,
      ...asAda,
      inputResponses: { 'send.1': { action: 'accept', content: { email: 'ada@example.com' } } },
    });
    await page.locator(`tr.task[data-task="${taskId.slice(0, 8)}"][data-status="completed"]`).waitFor();
    expect(await row.locator('td.asks').textContent()).toBe('—');

    // a task that fails says why, in the words its client got; one cancelled while it works ends cancelled
    const broken = await start('broken_export');
    failing.reject(new Error('the orders database is down'));
    const failed = page.locator(`tr.task[data-task="${broken.slice(0, 8)}"][data-status="failed"]`);
    await failed.waitFor();
    expect(await failed.locator('td.message').textContent()).toBe(
      "Tool 'broken_export' failed on the server before it could finish; the details are in the server's log.",
    );
    const waiting = await start('wait_for_cancel');
    await page.locator(`tr.task[data-task="${waiting.slice(0, 8)}"][data-status="working"]`).waitFor();
    await engine.cancelTask({ taskId: waiting, ...asAda });
    await page.locator(`tr.task[data-task="${waiting.slice(0, 8)}"][data-status="cancelled"]`).waitFor();

    // one row per task, the newest first, each end in its own colour
    expect(await page.locator('tr.task td.tool').allTextContents()).toEqual(['wait_for_cancel', 'broken_export', 'export_month']);
    const colours = await page.evaluate(() => {
      const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
      return [...document.querySelector('#tasks')!.querySelectorAll('.badge')].map((badge) => getComputedStyle(badge).backgroundColor);
    });
    expect(new Set(colours).size).toBe(3);
    // the whole task ids and the answer stay out of the page
    const html = await page.content();
    for (const secret of [taskId, broken, waiting, 'ada@example.com']) expect(html).not.toContain(secret);

    // clicking a task follows its conversation (the round that became the task)
    await row.click();
    const run = rounds.find((r) => r.target === 'tool export_month')!.run;
    await page.locator(`.run.selected[data-run="${run}"]`).waitFor();
    // nothing in the list is wider than its card
    const overflow = await page.evaluate(() => {
      const { document } = globalThis as unknown as PageGlobals;
      const card = document.querySelector('.tasks')!;
      const edge = card.getBoundingClientRect();
      const past = [...card.querySelectorAll('*')].filter((node) => node.getBoundingClientRect().right > edge.right + 0.5);
      return { scrolls: card.scrollWidth > card.clientWidth, past: past.length };
    });
    expect(overflow).toEqual({ scrolls: false, past: 0 });
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}inspector-tasks.png` });
  } finally {
    await engine.close();
    await browser.close();
    await inspector.close();
  }
});
