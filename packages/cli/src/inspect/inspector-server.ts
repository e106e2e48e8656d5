// The inspector's HTTP server (node:http): the page, the module's machines, the rounds and task changes a
// Roundtrip server posts (checked, bounded) and a live feed of them. Bound to 127.0.0.1 by default; on a loopback
// address, requests naming another host are refused, so no web page can reach it through DNS rebinding,
// and a state-changing request from a page elsewhere (its Origin) is refused too (own-origins.ts).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Definition } from '../find-definitions.ts';
import { createEventStream } from './event-stream.ts';
import { drawMachines } from './inspector-machines.ts';
import { inspectorPage } from './inspector-page.ts';
import { INSPECTOR_SCRIPT } from './inspector-script.ts';
import { foreignOriginProblem, ownOrigins } from './own-origins.ts';
import { readRoundBody } from './round-body.ts';
import { createRunStore } from './run-store.ts';
import { readTaskBody } from './task-body.ts';
import { createTaskList } from './task-list.ts';

/** The largest body accepted: a report is a few hundred bytes. */
const BODY_LIMIT = 64 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface InspectorOptions {
  readonly definitions: readonly Definition[];
  /** 0 picks a free port. */
  readonly port: number;
  /** Default: 127.0.0.1. */
  readonly host?: string;
  /** Runs kept at most; the oldest is dropped first. Default 200. */
  readonly maxRuns?: number;
  /** Tasks kept at most; the one changed longest ago is dropped first. Default 200. */
  readonly maxTasks?: number;
}

export interface RunningInspector {
  /** `http://127.0.0.1:<port>`: the page, and the address to give a server as ROUNDTRIP_INSPECT. */
  readonly url: string;
  /** Ends the live feeds and every connection, then stops listening. */
  close(): Promise<void>;
}

const send = (response: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8') => {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  response.end(body);
};
const sendJson = (response: ServerResponse, value: unknown) => send(response, 200, JSON.stringify(value), 'application/json');

/** The request's body as text, or undefined (after answering 413) once it passes the limit. */
function readBody(request: IncomingMessage, response: ServerResponse): Promise<string | undefined> {
  const tooLarge = () => {
    response.setHeader('connection', 'close');
    send(response, 413, `a report's body holds at most ${BODY_LIMIT} bytes\n`);
  };
  if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT) {
    tooLarge();
    request.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        request.removeAllListeners('data');
        request.resume();
        tooLarge();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(size > BODY_LIMIT ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Starts the inspector for a module's definitions; resolves once it listens. */
export async function startInspector(options: InspectorOptions): Promise<RunningInspector> {
  const host = options.host ?? '127.0.0.1';
  const machines = await drawMachines(options.definitions);
  const store = createRunStore({ maxRuns: options.maxRuns });
  const taskList = createTaskList({ maxTasks: options.maxTasks });
  const stream = createEventStream();
  const scriptHash = createHash('sha256').update(INSPECTOR_SCRIPT).digest('base64');
  const page = inspectorPage();
  const security = `default-src 'none'; script-src 'sha256-${scriptHash}'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'`;
  // known once listening (port 0 picks the port); no request arrives before
  let url = '';
  let own: ReadonlySet<string> = new Set();

  /**
   * Takes a posted report (`what`: how a refusal names it, `a round as application/json: { server, report }`);
   * `take` checks the text and keeps what it holds, or says why it does not.
   */
  const postReport = async (
    request: IncomingMessage,
    response: ServerResponse,
    what: string,
    take: (text: string) => string | undefined,
  ) => {
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      send(response, 415, `post ${what}\n`);
      return;
    }
    const text = await readBody(request, response);
    if (text === undefined) return;
    const refused = take(text);
    if (refused !== undefined) send(response, 400, `${refused}\n`);
    else response.writeHead(204).end();
  };
  const takeRound = (text: string) => {
    const checked = readRoundBody(text);
    if (!checked.ok) return checked.reason;
    stream.send('round', store.add(checked.round));
    return undefined;
  };
  const takeTask = (text: string) => {
    const checked = readTaskBody(text);
    if (!checked.ok) return checked.reason;
    // a change older than the one kept (one task reported by two servers sharing a store) is not shown
    const shown = taskList.add(checked.task);
    if (shown) stream.send('task', shown);
    return undefined;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const hostname = (request.headers.host ?? '').replace(/:\d+$/, '');
    if (LOOPBACK.has(host) && !LOOPBACK.has(hostname)) {
      send(response, 403, 'this inspector answers requests for 127.0.0.1 or localhost only\n');
      return;
    }
    const foreign = foreignOriginProblem(request.method, request.headers.origin, own, url);
    if (foreign) {
      request.resume();
      send(response, 403, `${foreign}\n`);
      return;
    }
    const path = new URL(request.url ?? '/', 'http://inspector').pathname;
    const route = `${request.method} ${path}`;
    if (route === 'GET /') {
      response.setHeader('content-security-policy', security);
      send(response, 200, page, 'text/html; charset=utf-8');
    } else if (route === 'GET /api/machines') sendJson(response, { machines });
    else if (route === 'GET /api/runs') sendJson(response, { runs: store.runs() });
    else if (route === 'GET /api/tasks') sendJson(response, { tasks: taskList.tasks() });
    else if (route === 'GET /api/events') stream.attach(response);
    else if (route === 'POST /api/rounds')
      await postReport(request, response, 'a round as application/json: { server, report }', takeRound);
    else if (route === 'POST /api/tasks')
      await postReport(request, response, "a task's change as application/json: { server, task }", takeTask);
    else if (['/', '/api/machines', '/api/runs', '/api/events', '/api/rounds', '/api/tasks'].includes(path))
      send(response, 405, 'method not allowed\n');
    else send(response, 404, 'not found\n');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, `${(error as Error).message}\n`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  url = `http://${shownHost}:${port}`;
  own = ownOrigins(host, port);
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        stream.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
