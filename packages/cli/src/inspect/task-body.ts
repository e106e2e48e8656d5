// The body a Roundtrip server posts to /api/tasks (`{ server, task }`: one change of one task), checked
// field by field like a round's (round-body.ts): a body of another shape is refused with the field at fault.
import type { TaskReport, TaskStatus } from '@roundtrip/engine';

export interface PostedTask {
  readonly server: string;
  readonly task: TaskReport;
}

type Checked = { ok: true; task: PostedTask } | { ok: false; reason: string };

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isTime = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

function taskProblem(task: Record<string, unknown>): string | undefined {
  for (const key of ['tool', 'run'] as const) {
    if (typeof task[key] !== 'string') return `task.${key} must be a string`;
  }
  if (typeof task.taskId !== 'string' || task.taskId === '') return 'task.taskId must be a task id (a non-empty string)';
  if (typeof task.status !== 'string' || !STATUSES.has(task.status)) {
    return 'task.status must be working, input_required, completed, failed or cancelled';
  }
  for (const key of ['statusMessage', 'error'] as const) {
    if (task[key] !== undefined && typeof task[key] !== 'string') return `task.${key} must be a string when given`;
  }
  if (!isStrings(task.asked)) return 'task.asked must be a list of question keys (strings)';
  if (task.cancelRequested !== undefined && task.cancelRequested !== true) return 'task.cancelRequested must be true when given';
  if (!Number.isInteger(task.version) || (task.version as number) < 0) return 'task.version must be a whole number';
  for (const key of ['createdAt', 'lastUpdatedAt', 'at'] as const) {
    if (!isTime(task[key])) return `task.${key} must be a time in ms`;
  }
  return undefined;
}

/** The posted task, or why the body is not one. */
export function readTaskBody(text: string): Checked {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
  if (!isRecord(body)) return { ok: false, reason: 'the body must be { server, task }' };
  if (typeof body.server !== 'string') return { ok: false, reason: 'server must be a string' };
  if (!isRecord(body.task)) return { ok: false, reason: 'task must be an object' };
  const problem = taskProblem(body.task);
  if (problem) return { ok: false, reason: problem };
  const t = body.task;
  const task: TaskReport = {
    tool: t.tool as string,
    run: t.run as string,
    taskId: t.taskId as string,
    status: t.status as TaskStatus,
    ...(t.statusMessage !== undefined && { statusMessage: t.statusMessage as string }),
    asked: t.asked as string[],
    ...(t.error !== undefined && { error: t.error as string }),
    ...(t.cancelRequested === true && { cancelRequested: true as const }),
    version: t.version as number,
    createdAt: t.createdAt as number,
    lastUpdatedAt: t.lastUpdatedAt as number,
    at: t.at as number,
  };
  return { ok: true, task: { server: body.server, task } };
}
