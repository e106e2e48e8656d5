// The shapes of MCP tasks (SEP-2663) as the engine hands them to a binding: the extension's name, a task's
// status, its handle (what tools/call answers); its view (what tasks/get answers) is in task-view.ts.
import type { ClientCapabilities } from './wire-shapes.ts';

/** The extension a client declares to consent to task answers, and a server to offer them. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The flat fields of a task as SEP-2663 puts them on the wire (CreateTaskResult less resultType). */
export interface TaskHandle {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/** Which task, asked by whom, with what the request declared. */
export interface TaskRequest {
  taskId: string;
  principal: string;
  capabilities: ClientCapabilities | undefined;
}

/** Whether capabilities declare the tasks extension. */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = capabilities?.extensions;
  return typeof extensions === 'object' && extensions !== null && (extensions as Record<string, unknown>)[TASKS_EXTENSION] !== undefined;
}
