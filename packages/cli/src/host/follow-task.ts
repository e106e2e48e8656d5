// Follows a task a tool call answered (MCP tasks, SEP-2663) to its end: polls tasks/get at the task's
// pollIntervalMs, shows its statusMessage as it changes (task-status-line.ts: on a terminal one line
// rewritten in place, a progress bar when the message says "<n> of <m>", a spinner otherwise; one line per
// change elsewhere), asks the questions the task waits on with the same forms as the call's
// own questions and sends the answers with tasks/update. Ctrl-C (the signal) sends tasks/cancel and waits
// until the task says cancelled.
import { setTimeout as delay } from 'node:timers/promises';
import { type Client, type ElicitRequest, ProtocolError, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { createElicitationAnswerer } from './answer-elicitation.ts';
import { REQUEST_TIMEOUT_MS } from './answer-wait.ts';
import { displayLine } from './display-text.ts';
import type { TaskHandle } from './task-handle.ts';
import { createTaskStatusLine } from './task-status-line.ts';
import type { Terminal } from './terminal.ts';

type ToolResult = { content?: unknown[]; structuredContent?: unknown; isError?: boolean };

/** A task as tasks/get answers it: its status and what the status inlines. */
interface TaskState extends TaskHandle {
  readonly inputRequests?: Record<string, { method?: unknown; params?: unknown }>;
  readonly result?: ToolResult;
  readonly error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** How often to poll when the task names no interval. */
const DEFAULT_POLL_MS = 1000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** tasks/* results are checked here, not by the client's registry (tasks/update is no spec method). */
const TASK_RESULT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'roundtrip',
    validate: (value) => (isObject(value) ? { value } : { issues: [{ message: 'the result is not an object' }] }),
  },
};

/**
 * Follows the task to its end: resolves with the result of a completed task; rejects with the task's
 * error when it failed, with the signal's reason once a cancel asked for by Ctrl-C is done, and with
 * the client's error when a request fails.
 */
export async function followTask(client: Client, handle: TaskHandle, terminal: Terminal, signal: AbortSignal): Promise<ToolResult> {
  const { taskId } = handle;
  const send = async (method: string, params: Record<string, unknown> = {}) =>
    (await client.request({ method, params: { taskId, ...params } }, TASK_RESULT, { timeout: REQUEST_TIMEOUT_MS })) as unknown as TaskState;
  const answer = createElicitationAnswerer(terminal);
  const line = createTaskStatusLine(terminal);
  let task: TaskState = handle;
  let cancelling = false;
  try {
    for (;;) {
      if (signal.aborted && !cancelling) {
        cancelling = true;
        line.clear();
        terminal.say(`${terminal.style.dim('Cancelling the task…')}\n`);
        await send('tasks/cancel');
        task = await send('tasks/get');
      }
      line.show(task);
      if (task.status === 'completed') return task.result ?? { content: [] };
      if (task.status === 'failed') {
        const { code, message, data } = task.error ?? {};
        throw new ProtocolError(typeof code === 'number' ? code : -32603, typeof message === 'string' ? message : 'the task failed', data);
      }
      if (task.status === 'cancelled') throw cancelling ? signal.reason : new Error('the server cancelled the task.');
      if (task.status === 'input_required' && !cancelling) {
        line.clear();
        const inputResponses: Record<string, unknown> = {};
        for (const [key, request] of Object.entries(task.inputRequests ?? {})) {
          if (request.method !== 'elicitation/create')
            throw new Error(`the task asks ${displayLine(String(request.method))}, which this host cannot answer; it is cancelled.`);
          // once Ctrl-C interrupted one question, those after it are not asked (cancelled, and the task with them)
          inputResponses[key] = await answer({ method: 'elicitation/create', params: request.params } as ElicitRequest, {
            mcpReq: { signal },
          });
        }
        if (!signal.aborted) await send('tasks/update', { inputResponses });
      } else {
        await delay(task.pollIntervalMs ?? DEFAULT_POLL_MS, undefined, cancelling ? {} : { signal }).catch(() => undefined);
      }
      if (!signal.aborted || cancelling) task = await send('tasks/get');
    }
  } catch (error) {
    // a question the task cannot have answered here: the task is not left waiting on this host
    if (!cancelling && !(error instanceof ProtocolError) && task.status === 'input_required')
      await send('tasks/cancel').catch(() => undefined);
    throw error;
  } finally {
    line.clear();
  }
}
