// `roundtrip call --url` of tools that answer MCP tasks (SEP-2663) on 2026-07-28, over real Streamable HTTP:
// the task followed to its result, its question answered through tasks/update, a failed task said as an
// error, and Ctrl-C cancelling it (tasks/cancel, waited for). The server is the task definitions served in
// this process by the transport's own runHttpServer (what `roundtrip serve --http` runs), behind a front that
// passes every request on unchanged and notes what it carried: every tasks/* request names its task in the
// Mcp-Name header, as SEP-2663's HTTP binding asks (so that a balancer can route it to the instance holding
// the task). Over stdio: call-task.test.ts.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type EngineLogEntry, generateKey } from '@roundtrip/engine';
import { type RunningHttpServer, runHttpServer } from '@roundtrip/transport-http/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCommand, runInTerminal } from './fixtures/run-command.ts';
import { brokenExport, exportOrders, waitForCancel } from './fixtures/task-definitions.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

/** What one POST carried: the JSON-RPC method and taskId of its body, and its Mcp-Method and Mcp-Name headers. */
interface Carried {
  readonly method: unknown;
  readonly taskId: unknown;
  readonly mcpMethod: string | null;
  readonly mcpName: string | null;
}

/** Headers of one hop only, or set by fetch itself: not passed on. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** A front to `target` on 127.0.0.1 that passes each request on as it came and its answer back as it comes (event streams too). */
async function startFront(target: URL) {
  const carried: Carried[] = [];
  const front = createServer((incoming, outgoing) => {
    void (async () => {
      const body = Buffer.concat(await incoming.toArray());
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers))
        if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers.set(name, value);
      if (incoming.method === 'POST') {
        const message = JSON.parse(body.toString()) as { method?: unknown; params?: { taskId?: unknown } };
        const [mcpMethod, mcpName] = [headers.get('mcp-method'), headers.get('mcp-name')];
        carried.push({ method: message.method, taskId: message.params?.taskId, mcpMethod, mcpName });
      }
      const response = await fetch(target, { method: incoming.method ?? 'GET', headers, ...(body.length > 0 && { body }) });
      outgoing.writeHead(response.status, [...response.headers.entries()].flat());
      if (response.body) for await (const chunk of response.body) outgoing.write(chunk);
      outgoing.end();
    })().catch((error: unknown) => outgoing.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  front.listen(0, '127.0.0.1');
  await once(front, 'listening');
  const closed = () => {
    front.closeAllConnections();
    front.close();
  };
  fronts.push(closed);
  return { url: `http://127.0.0.1:${(front.address() as AddressInfo).port}/mcp`, carried };
}

let server: RunningHttpServer;
const logs: EngineLogEntry[] = [];
const fronts: Array<() => void> = [];
beforeAll(async () => {
  server = await runHttpServer({
    name: 'tasks-over-http',
    version: '1.0.0',
    tools: [exportOrders, waitForCancel, brokenExport],
    listen: '127.0.0.1:0',
    handleSignals: false,
    log: (entry) => logs.push(entry),
    env: { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada', ROUNDTRIP_LEDGER: ':memory:' },
  });
});
afterAll(async () => {
  for (const close of fronts.splice(0)) close();
  await server.close();
});
beforeAll(() => void vi.stubEnv('NO_COLOR', '1'));
afterAll(() => void vi.unstubAllEnvs());

/** `call <tool> --args {month} --url <front>`. */
const callArgs = (tool: string, url: string) => ['call', tool, '--args', '{"month":"2026-11"}', '--url', url];

/** The task methods the host sent, in order, after checking that each named its task in Mcp-Name (and Mcp-Method). */
function taskRequests(carried: readonly Carried[]): unknown[] {
  const tasks = carried.filter(({ method }) => typeof method === 'string' && method.startsWith('tasks/'));
  for (const request of tasks) {
    expect(request.taskId).toEqual(expect.any(String));
    expect(request).toMatchObject({ mcpMethod: request.method, mcpName: request.taskId });
  }
  expect(new Set(tasks.map(({ taskId }) => taskId)).size).toBe(1);
  return tasks.map(({ method }) => method);
}

describe('roundtrip call --url of a task', { timeout: 60_000, concurrent: true }, () => {
  it('follows the task: its status line, its question through the form and tasks/update, then the result', async () => {
    const front = await startFront(server.url);
    const { code, out, err } = await runCommand(callArgs('export_orders', front.url), { cwd: here, lines: ['ops@example.com'] });
    expect(err).toContain('Collecting the orders of 2026-11…\n\nThe orders of 2026-11 are in /tmp/2026-11.csv. Email the file?');
    expect(out).toBe('Exported 2026-11 to /tmp/2026-11.csv, sent to ops@example.com.\n');
    expect(code).toBe(0);
    const sent = taskRequests(front.carried);
    expect(sent).toContain('tasks/update');
    expect(sent.at(-1)).toBe('tasks/get');
    expect(sent).not.toContain('tasks/cancel');
  });

  it('says a failed task as an error, exit 1', async () => {
    const front = await startFront(server.url);
    const { code, out, err } = await runCommand(callArgs('broken_export', front.url), { cwd: here });
    expect(out).toBe('');
    expect(err).toContain("roundtrip call: the server refused the request: Tool 'broken_export' failed on the server");
    expect(code).toBe(1);
    expect(taskRequests(front.carried)).toContain('tasks/get');
  });

  it('in a terminal: Ctrl-C sends tasks/cancel, waits for cancelled, and exits 130', async () => {
    const front = await startFront(server.url);
    const { code, out, err } = await runInTerminal(callArgs('wait_for_cancel', front.url), {
      cwd: here,
      steps: [{ after: 'Collecting the orders of 2026-11…', keys: '\x03' }],
    });
    expect(err.replaceAll('\r\x1b[2K', '')).toMatch(/Cancelling the task…\nroundtrip call: interrupted\.\n$/);
    expect(out).toBe('');
    expect(code).toBe(130);
    // the cancel once, then polls only, until the task read cancelled
    const sent = taskRequests(front.carried);
    const [cancel, ...after] = sent.slice(sent.indexOf('tasks/cancel'));
    expect(cancel).toBe('tasks/cancel');
    expect(new Set(after)).toEqual(new Set(['tasks/get']));
  });
});

describe('roundtrip call --url on a 2025 era', { timeout: 60_000 }, () => {
  it('is asked on the call’s stream by a Roundtrip server (elicitation/create), answers from the form, and prints the result', async () => {
    const front = await startFront(server.url);
    const args = [...callArgs('export_orders', front.url), '--era', '2025-11-25'];
    const { code, out, err } = await runCommand(args, { cwd: here, lines: ['ops@example.com'] });
    expect(err).toContain('The orders of 2026-11 are in /tmp/2026-11.csv. Email the file?');
    expect(out).toBe('Exported 2026-11 to /tmp/2026-11.csv, sent to ops@example.com.\n');
    expect(code).toBe(0);
    // no task on a 2025 era: the work ran inside the call, and its question came on the call's own stream
    expect(front.carried.some(({ method }) => typeof method === 'string' && method.startsWith('tasks/'))).toBe(false);
  });
});
