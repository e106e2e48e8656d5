// MCP tasks (SEP-2663) through the official client: it declares the extension in each request's client
// capabilities, but its result decoder refuses `resultType: 'task'` (UnsupportedResultType, without the
// handle). So the link hands a task answer to the caller as a JSON-RPC error of its own code, carrying
// the handle, before the client decodes it: `taskHandleOf` reads it back where the call was made.
import type { Transport } from '@modelcontextprotocol/client';

/** The extension's id, declared in the client capabilities on 2026-07-28. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The code of the error the link turns a task answer into (never sent by a server: -32000 to -32099 is implementation-defined, this host's). */
const TASK_ANSWER = -32098;

export interface TaskHandle {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly pollIntervalMs?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Makes the connected client's transport pass a task answer on as the error `taskHandleOf` reads. */
export function passTaskAnswers(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const result = 'result' in message && isObject(message.result) ? message.result : undefined;
    if (result?.resultType !== 'task' || !('id' in message)) return deliver(message, extra);
    deliver({ jsonrpc: '2.0', id: message.id, error: { code: TASK_ANSWER, message: 'the call answered a task', data: result } }, extra);
  };
}

/** The task handle a call answered, when `error` is the link's task answer. */
export function taskHandleOf(error: unknown): TaskHandle | undefined {
  if (!isObject(error) || error.code !== TASK_ANSWER || !isObject(error.data)) return undefined;
  const { taskId, status } = error.data;
  return typeof taskId === 'string' && typeof status === 'string' ? (error.data as unknown as TaskHandle) : undefined;
}
