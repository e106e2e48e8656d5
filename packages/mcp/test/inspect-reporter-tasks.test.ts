// Task reports posted to an inspector page beside the rounds: each change to /api/tasks, in the order they
// happened, from a Node server started with ROUNDTRIP_INSPECT too; an inspector from before tasks (404 there) is
// told once and sent no more, its rounds still sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EngineLogEntry, generateKey, type RoundReport, TASKS_EXTENSION, type TaskReport } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { untilStatus } from '../../engine/test/tasks-tools.ts';
import { createInspectReporter } from '../src/inspect-reporter.ts';
import { openServedEngine, resolveServerSettings } from '../src/node/index.ts';
import { createTaskTools } from './fixtures/task-definitions.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A stand-in inspector page: keeps every path and body posted; `tasks: false` answers /api/tasks 404, as one from before tasks. */
async function inspectorPage(options: { tasks: boolean }): Promise<{ address: string; received: Array<[string, unknown]> }> {
  const received: Array<[string, unknown]> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push([req.url ?? '', JSON.parse(body)]);
      res.writeHead(req.url === '/api/tasks' && !options.tasks ? 404 : 204).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { address: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const task = (version: number, status: TaskReport['status']): TaskReport => ({
  tool: 'export_orders',
  run: 'r1',
  taskId: 'AbCdEfGh1234567890abcd',
  status,
  asked: [],
  version,
  createdAt: 1_000,
  lastUpdatedAt: 1_000 + version,
  at: 1_000 + version,
});
const round = { target: 'tool export_orders', machine: 'export_orders', run: 'r1', round: 1 } as RoundReport;

describe('the inspect reporter, for tasks', () => {
  it('posts each change of a task as { server, task } to /api/tasks, in order with the rounds', async () => {
    const page = await inspectorPage({ tasks: true });
    const reporter = createInspectReporter(page.address, 'tasks-test', () => {});
    reporter.report(round);
    reporter.reportTask(task(0, 'working'));
    reporter.reportTask(task(1, 'completed'));
    await reporter.flushed();
    expect(page.received).toEqual([
      ['/api/rounds', { server: 'tasks-test', report: round }],
      ['/api/tasks', { server: 'tasks-test', task: task(0, 'working') }],
      ['/api/tasks', { server: 'tasks-test', task: task(1, 'completed') }],
    ]);
  });

  it('stops sending tasks to an inspector from before tasks, saying so once, and goes on sending its rounds', async () => {
    const page = await inspectorPage({ tasks: false });
    const logs: Array<Omit<EngineLogEntry, 'target'>> = [];
    const reporter = createInspectReporter(page.address, 'tasks-test', (entry) => logs.push(entry));
    reporter.reportTask(task(0, 'working'));
    reporter.report(round);
    reporter.reportTask(task(1, 'completed'));
    reporter.report(round);
    await reporter.flushed();
    expect(page.received.map(([path]) => path)).toEqual(['/api/tasks', '/api/rounds', '/api/rounds']);
    expect(logs).toEqual([
      {
        level: 'info',
        event: 'inspector',
        message: `inspector at ${page.address} shows no tasks (it is older than this server); task reports are not sent to it`,
      },
    ]);
  });

  it('reports the tasks of a Node server started with ROUNDTRIP_INSPECT', async () => {
    const page = await inspectorPage({ tasks: true });
    const { tools, compile } = createTaskTools();
    const env = { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada', ROUNDTRIP_INSPECT: page.address };
    const server = await openServedEngine({ name: 'served', tools }, resolveServerSettings('served', env), () => {});
    try {
      const capabilities = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
      const outcome = await server.engine.callTool({ name: 'gated_report', arguments: {}, principal: 'ada', capabilities });
      if (outcome.type !== 'task') throw new Error(JSON.stringify(outcome));
      compile.open();
      await untilStatus(server.engine, outcome.task.taskId, 'input_required');
      await expect
        .poll(() => page.received.filter(([path]) => path === '/api/tasks').map(([, body]) => (body as { task: TaskReport }).task.status))
        .toEqual(expect.arrayContaining(['working', 'input_required']));
      // the round that became the task, reported once it ended (after the task was recorded)
      expect(page.received).toContainEqual(['/api/rounds', expect.objectContaining({ server: 'served' })]);
    } finally {
      await server.close();
    }
  });
});
