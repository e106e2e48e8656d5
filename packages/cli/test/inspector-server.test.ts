// The inspector's server in this process, over a small fixture module: its machines drawn with their
// states marked, posted rounds checked and kept by run (with why a question was asked again), posted task
// changes checked and kept by task (the latest wins), each pushed to open pages, and requests from other
// hosts or other pages' origins refused.
import { request } from 'node:http';
import {
  createEngine,
  createKeyring,
  createMemoryLedger,
  generateKey,
  type RoundReport,
  type StepOutcome,
  TASKS_EXTENSION,
  type TaskReport,
} from '@roundtrip/engine';
import { createInspectReporter } from '@roundtrip/mcp';
import { ask, defineFlowTool, field } from '@roundtrip/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { activeStateIds } from '../src/inspect/active-states.ts';
import { inspectCommand } from '../src/inspect/inspect-command.ts';
import { type RunningInspector, startInspector } from '../src/inspect/inspector-server.ts';
import { confirmIt, prompts } from './fixtures/good-definitions.ts';
import { exportOrders } from './fixtures/task-definitions.ts';

const here = new URL('.', import.meta.url).pathname;
let inspector: RunningInspector;
beforeAll(async () => {
  inspector = await startInspector({ definitions: [confirmIt, ...prompts], port: 0, maxRuns: 3, maxTasks: 3 });
});
afterAll(() => inspector.close());

const round = (run: string, n: number, settled: unknown = 'sure'): RoundReport => ({
  target: 'tool confirm_it',
  machine: 'confirm_it',
  run,
  round: n,
  from: n === 0 ? undefined : 'sure',
  answers: n === 0 ? {} : { sure: { action: 'accept', fields: ['ok'] } },
  events: n === 0 ? [] : ['sure.accept'],
  settled,
  asked: ['sure'],
  outcome: 'input_required',
  at: 1_000 + n,
});

const post = (body: unknown, type = 'application/json', path = '/api/rounds') =>
  fetch(`${inspector.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const getJson = async <T>(path: string): Promise<T> => (await fetch(`${inspector.url}${path}`)).json() as Promise<T>;

/** A real HTTP request to the inspector with the headers given (fetch may not set Host); its status and body. */
function rawRequest(method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status?: number; text: string }> {
  const { port } = new URL(inspector.url);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    })
      .on('error', reject)
      .end(body);
  });
}

/** Reads `count` events off an open event stream, as [event, data]. */
async function readEvents(reader: ReadableStreamDefaultReader<string>, count: number): Promise<[string, unknown][]> {
  let text = '';
  while (text.split('\n\n').filter((frame) => frame.startsWith('event: ')).length < count) text += (await reader.read()).value ?? '';
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('event: '))
    .map((frame) => {
      const [event, data] = frame.split('\n');
      return [event!.slice('event: '.length), JSON.parse(data!.slice('data: '.length))];
    });
}

interface RunsBody {
  runs: { run: string; server: string; target: string; machine: string; rounds: (RoundReport & { active: string[] })[] }[];
}

describe('the inspector server', () => {
  it('serves the page, self-contained, and the machines drawn with data-machine and data-state', async () => {
    const page = await fetch(`${inspector.url}/`);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'sha256-/);
    const html = await page.text();
    expect(html).toContain('<title>Roundtrip inspector</title>');
    expect(html).not.toMatch(/<script src|<link|https?:\/\//);
    const { machines } = await getJson<{ machines: { name: string; kind: string; machine: string; svg: string }[] }>('/api/machines');
    expect(machines.map(({ name, kind, machine }) => ({ name, kind, machine }))).toEqual([
      { name: 'confirm_it', kind: 'tool', machine: 'confirm_it' },
      { name: 'tone', kind: 'prompt', machine: 'tone' },
    ]);
    expect(machines[0]!.svg).toContain('data-machine="confirm_it"');
    expect(machines[0]!.svg).toContain('data-state="confirm_it.sure"');
    expect(machines[0]!.svg).toContain('Do {{input.what}}?');
    expect(machines[1]!.svg).toContain('data-state="tone.asking"');
  });

  it('keeps posted rounds by run, in order, with the leaf states they settled in; at most maxRuns runs', async () => {
    for (const [run, n] of [
      ['r1', 0],
      ['r1', 1],
      ['r2', 0],
      ['r3', 0],
      ['r4', 0],
    ] as const) {
      expect((await post({ server: 'test', report: round(run, n) })).status).toBe(204);
    }
    const { runs } = await getJson<RunsBody>('/api/runs');
    expect(runs.map((r) => r.run)).toEqual(['r2', 'r3', 'r4']);
    expect(runs[0]).toMatchObject({ server: 'test', target: 'tool confirm_it', machine: 'confirm_it' });
    expect(runs[0]!.rounds[0]!.active).toEqual(['confirm_it.sure']);
  });

  it.each([
    ['not json', 'the body is not JSON'],
    [{ report: round('x', 0) }, 'server must be a string'],
    [{ server: 's', report: { ...round('x', 0), events: 'a' } }, 'report.events must be a list of strings'],
    [{ server: 's', report: { ...round('x', 0), outcome: 'done' } }, 'report.outcome must be input_required, complete, error or task'],
    [{ server: 's', report: { ...round('x', 0), answers: { a: { fields: [] } } } }, 'report.answers.a must be { action, fields? }'],
  ])('refuses a bad body with the reason: %j', async (body, reason) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(`${reason}\n`);
  });

  it('refuses another content type, a body over 64 KiB and another host name', async () => {
    expect((await post(JSON.stringify({ server: 's', report: round('x', 0) }), 'text/plain')).status).toBe(415);
    const big = await post({ server: 's', report: { ...round('x', 0), events: ['e'.repeat(70_000)] } });
    expect(big.status).toBe(413);
    const { port } = new URL(inspector.url);
    expect((await rawRequest('GET', '/api/runs', { host: `evil.example:${port}` })).status).toBe(403);
  });

  it("refuses a post from another page's origin, saying what to do, and takes one from its own page or from no page", async () => {
    const { port } = new URL(inspector.url);
    const body = JSON.stringify({ server: 'web', report: round('from-a-page', 0) });
    const posted = (origin?: string, type = 'application/json') =>
      rawRequest('POST', '/api/rounds', { 'content-type': type, ...(origin !== undefined && { origin }) }, body);
    for (const origin of [
      'https://evil.example',
      `http://localhost:${Number(port) + 1}`,
      `http://127.0.0.1.evil.example:${port}`,
      'null',
    ]) {
      const refused = await posted(origin);
      expect(refused.status, origin).toBe(403);
      expect(refused.text).toBe(
        `this inspector takes rounds from Roundtrip servers and its own page only, not from a web page at ${JSON.stringify(origin)}. ` +
          `Start the server with ROUNDTRIP_INSPECT=${inspector.url} (a server sends no Origin), and open the page at ${inspector.url} itself.\n`,
      );
    }
    // the origin is refused before anything else is read: a form post (text/plain) too
    expect((await posted('https://evil.example', 'text/plain')).status).toBe(403);
    expect((await rawRequest('PUT', '/api/rounds', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await getJson<RunsBody>('/api/runs')).runs.map((r) => r.run)).not.toContain('from-a-page');
    // the inspector's own page, under each of its names, and a server (no Origin)
    for (const origin of [inspector.url, `http://localhost:${port}`, `http://LOCALHOST:${port}`, `http://[::1]:${port}`, undefined]) {
      expect((await posted(origin)).status, origin).toBe(204);
    }
    // reading stays open to any page: it gets no CORS headers, so a page elsewhere cannot read the answer
    const read = await rawRequest('GET', '/api/runs', { origin: 'https://evil.example' });
    expect(read.status).toBe(200);
  });

  it('pushes each new round to an open event stream', async () => {
    const stream = await fetch(`${inspector.url}/api/events`);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toContain(': connected');
    await post({ server: 'live', report: round('r9', 2, { outer: { inner: 'asking' } }) });
    let text = '';
    while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    const [event, data] = text.trim().split('\n');
    expect(event).toBe('event: round');
    expect(JSON.parse(data!.slice('data: '.length))).toMatchObject({
      run: 'r9',
      server: 'live',
      round: { round: 2, active: ['confirm_it.outer.inner.asking'] },
    });
  });
});

describe('a question asked again', () => {
  // a step whose check refuses a date in the past: the flow asks it again, with the reason in its message
  const bookDay = defineFlowTool({
    name: 'book_day',
    description: 'Books a day',
    input: z.object({}),
    steps: {
      day: ask({
        message: 'Which day?',
        fields: { date: field.text({ title: 'Date', format: 'date' }), people: field.integer({ title: 'People', min: 1, max: 9 }) },
        check: ({ answer }) => (answer.date < '2000-01-01' ? `${answer.date} is in the past` : undefined),
      }),
    },
    final: ({ answers }) => ({ text: `booked ${answers.day!.date}` }),
  });

  it("carries the reason from the engine's round report to the inspector: a check's, and a schema's", async () => {
    const reporter = createInspectReporter(inspector.url, 'checks', () => {});
    const engine = createEngine({
      tools: [bookDay],
      keyring: createKeyring([generateKey()]),
      audience: 'inspector-server-test',
      ledger: createMemoryLedger(),
      inspect: (report) => reporter.report(report),
    });
    let last: StepOutcome<unknown> | undefined;
    const answer = async (content?: Record<string, unknown>) => {
      const requestState = last?.type === 'input_required' ? last.requestState : undefined;
      last = await engine.callTool({
        name: 'book_day',
        arguments: {},
        principal: 'ada',
        capabilities: { elicitation: {} },
        ...(requestState && { requestState, inputResponses: { day: { action: 'accept', content } } }),
      });
      await reporter.flushed();
    };
    await answer();
    await answer({ date: '1999-12-31', people: 2 });
    await answer({ date: '2030-01-01', people: 12 });
    await answer({ date: '2030-01-01', people: 2 });
    expect(last?.type).toBe('complete');
    const { runs } = await getJson<RunsBody>('/api/runs');
    const rounds = runs.find((r) => r.server === 'checks')!.rounds;
    expect(rounds.map((r) => [r.round, r.asked, r.reasked])).toEqual([
      [1, ['day'], undefined],
      [2, ['day'], { day: '1999-12-31 is in the past' }],
      // what the user was told: the flow keeps its check's note until the step is answered well
      [3, ['day'], { day: '1999-12-31 is in the past; people: Too big: expected number to be <=9' }],
      [4, [], undefined],
    ]);
  });

  it('refuses reasons that are not text', async () => {
    const response = await post({ server: 's', report: { ...round('x', 1), reasked: { sure: 42 } } });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('report.reasked must map question keys to reasons (strings)\n');
  });
});

describe('activeStateIds', () => {
  it('reads a state value as the full ids of its active leaves', () => {
    expect(activeStateIds('book_meeting', 'when')).toEqual(['book_meeting.when']);
    expect(activeStateIds('report_incident', { report: { details: 'asking', oncall: 'asking' } })).toEqual([
      'report_incident.report.details.asking',
      'report_incident.report.oncall.asking',
    ]);
    expect(activeStateIds('m', undefined)).toEqual([]);
  });
});

describe('roundtrip inspect', () => {
  it('prints its address, serves until stopped, then exits 0', async () => {
    let out = '';
    let stop = () => {};
    const io = { out: { write: (t: string) => (out += t) }, err: { write: () => true }, cwd: here };
    const done = inspectCommand(['fixtures/good-definitions.ts', '--port', '0'], io, () => new Promise((resolve) => (stop = resolve)));
    await expect.poll(() => out).toMatch(/^roundtrip inspect: http:\/\/127\.0\.0\.1:\d+\n$/);
    const { machines } = (await (await fetch(`${out.trim().split(' ').pop()}/api/machines`)).json()) as { machines: unknown[] };
    expect(machines).toHaveLength(2);
    stop();
    expect(await done).toBe(0);
  });

  it('refuses a bad port or no module with its usage', async () => {
    let err = '';
    const io = { out: { write: () => true }, err: { write: (t: string) => (err += t) }, cwd: here };
    expect(await inspectCommand(['--port', 'x', 'm.ts'], io)).toBe(2);
    expect(err).toContain('--port needs a port number');
    expect(await inspectCommand([], io)).toBe(2);
    expect(err).toContain('Usage: roundtrip inspect <module>');
  });
});

describe('tasks', () => {
  const TASK_ID = 'AbCdEfGh1234567890abcd';
  const task = (version: number, fields: Partial<TaskReport> = {}): TaskReport => ({
    tool: 'export_orders',
    run: 'run-t',
    taskId: TASK_ID,
    status: 'working',
    statusMessage: `Collected ${version} of 5 months`,
    asked: [],
    version,
    createdAt: 2_000,
    lastUpdatedAt: 2_000 + version,
    at: 2_000 + version,
    ...fields,
  });
  const postTask = (body: unknown, type?: string) => post(body, type, '/api/tasks');
  type Shown = Omit<TaskReport, 'taskId'> & { server: string; task: string };

  it("keeps each task's latest change with its id shortened, pushing each to an open page; an older change is not shown", async () => {
    const stream = await fetch(`${inspector.url}/api/events`);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    // through the reporter a server uses (ROUNDTRIP_INSPECT), then by hand: a change older than the one kept
    const reporter = createInspectReporter(inspector.url, 'tasks', () => {});
    reporter.reportTask(task(0));
    reporter.reportTask(task(2, { status: 'input_required', asked: ['send.1'] }));
    await reporter.flushed();
    expect((await postTask({ server: 'tasks', task: task(1) })).status).toBe(204);
    expect((await postTask({ server: 'tasks', task: task(3, { status: 'completed', statusMessage: undefined }) })).status).toBe(204);
    const events = await readEvents(reader, 3);
    await reader.cancel();
    expect(events.map(([event, data]) => [event, (data as Shown).version, (data as Shown).status])).toEqual([
      ['task', 0, 'working'],
      ['task', 2, 'input_required'],
      ['task', 3, 'completed'],
    ]);
    const { taskId: _whole, ...asking } = task(2, { status: 'input_required', asked: ['send.1'] });
    expect(events[1]![1]).toStrictEqual({ ...asking, server: 'tasks', task: 'AbCdEfGh' });
    const { tasks } = await getJson<{ tasks: Shown[] }>('/api/tasks');
    expect(tasks.map((t) => [t.task, t.status, t.server])).toEqual([['AbCdEfGh', 'completed', 'tasks']]);
    // the whole id stays in the inspector
    expect(JSON.stringify(tasks)).not.toContain(TASK_ID);
    expect(JSON.stringify(events)).not.toContain(TASK_ID);
  });

  it('keeps at most maxTasks tasks, dropping the one changed longest ago', async () => {
    for (const id of ['t1xxxxxxxx', 't2xxxxxxxx', 't3xxxxxxxx', 't4xxxxxxxx', 't2xxxxxxxx']) {
      expect((await postTask({ server: 'bound', task: task(id === 't2xxxxxxxx' ? 5 : 0, { taskId: id }) })).status).toBe(204);
    }
    const { tasks } = await getJson<{ tasks: Shown[] }>('/api/tasks');
    expect(tasks.map((t) => t.task)).toEqual(['t3xxxxxx', 't4xxxxxx', 't2xxxxxx']);
  });

  it.each([
    ['not json', 'the body is not JSON'],
    [{ task: task(0) }, 'server must be a string'],
    [{ server: 's', report: task(0) }, 'task must be an object'],
    [{ server: 's', task: { ...task(0), taskId: '' } }, 'task.taskId must be a task id (a non-empty string)'],
    [{ server: 's', task: { ...task(0), status: 'done' } }, 'task.status must be working, input_required, completed, failed or cancelled'],
    [{ server: 's', task: { ...task(0), statusMessage: 3 } }, 'task.statusMessage must be a string when given'],
    [{ server: 's', task: { ...task(0), asked: 'send.1' } }, 'task.asked must be a list of question keys (strings)'],
    [{ server: 's', task: { ...task(0), cancelRequested: 'yes' } }, 'task.cancelRequested must be true when given'],
    [{ server: 's', task: { ...task(0), version: -1 } }, 'task.version must be a whole number'],
    [{ server: 's', task: { ...task(0), lastUpdatedAt: '12:00' } }, 'task.lastUpdatedAt must be a time in ms'],
  ])('refuses a bad task body with the reason: %j', async (body, reason) => {
    const response = await postTask(body);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(`${reason}\n`);
  });

  it("refuses another content type, saying what to post, and a page elsewhere's post", async () => {
    const response = await postTask(JSON.stringify({ server: 's', task: task(0) }), 'text/plain');
    expect(response.status).toBe(415);
    expect(await response.text()).toBe("post a task's change as application/json: { server, task }\n");
    const body = JSON.stringify({ server: 'web', task: task(0, { taskId: 'from-a-page' }) });
    const refused = await rawRequest('POST', '/api/tasks', { 'content-type': 'application/json', origin: 'https://evil.example' }, body);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await getJson('/api/tasks'))).not.toContain('from-a-');
  });

  it('shows a real task end to end: the round that became it, then each change, under the same run', async () => {
    const reporter = createInspectReporter(inspector.url, 'end-to-end', () => {});
    const engine = createEngine({
      tools: [exportOrders],
      keyring: createKeyring([generateKey()]),
      audience: 'inspector-server-test',
      inspect: reporter.report,
      inspectTasks: reporter.reportTask,
    });
    const asAda = { principal: 'ada', capabilities: { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } } };
    const started = await engine.callTool({ name: 'export_orders', arguments: { month: '2026-05' }, ...asAda });
    if (started.type !== 'task') throw new Error(JSON.stringify(started));
    const { taskId } = started.task;
    const shown = async () => {
      await reporter.flushed();
      return (await getJson<{ tasks: Shown[] }>('/api/tasks')).tasks.find((t) => t.task === taskId.slice(0, 8));
    };
    await expect.poll(async () => (await shown())?.status).toBe('input_required');
    expect((await shown())?.asked).toEqual(['send.1']);
    const inputResponses = { 'send.1': { action: 'accept', content: { email: 'ada@example.com' } } };
    await engine.updateTask({ taskId, ...asAda, inputResponses });
    await expect.poll(async () => (await shown())?.status).toBe('completed');
    // the round that started the task is its conversation's one round (a round becoming a task is taken)
    const run = (await getJson<RunsBody>('/api/runs')).runs.find((r) => r.server === 'end-to-end');
    expect(run?.rounds.map((r) => r.outcome)).toEqual(['task']);
    expect((await shown())?.run).toBe(run?.run);
    expect(JSON.stringify(await getJson('/api/tasks'))).not.toContain('ada@example.com');
    await engine.close();
  });
});
