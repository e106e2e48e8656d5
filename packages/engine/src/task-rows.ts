// A task record as a table row, the same for the SQLite and the PostgreSQL task stores: the principal tag as
// bytes, the JSON fields (arguments, capabilities, questions, result, error) as JSON text written as given
// (so keys keep their order), a question's hash inside it as base64url. `expires_at` (createdAt + ttlMs) is
// kept beside, so expired tasks are found by an index.
import { decodeBase64url, encodeBase64url } from './base64url.ts';
import type { PendingQuestion, TaskRecord } from './task-store.ts';

/** The columns of the tasks table, in the order `TASK_COLUMNS` names them. */
export interface TaskRow {
  task_id: string;
  principal_tag: Uint8Array;
  tool: string;
  args: string;
  capabilities: string | null;
  run: string;
  status: string;
  status_message: string | null;
  created_at: number;
  last_updated_at: number;
  ttl_ms: number;
  poll_interval_ms: number;
  expires_at: number;
  sealed: string | null;
  pending: string;
  next_key: number;
  result: string | null;
  error: string | null;
  cancel_requested: boolean;
  version: number;
}

/** The columns in insert order. */
export const TASK_COLUMNS = [
  'task_id',
  'principal_tag',
  'tool',
  'args',
  'capabilities',
  'run',
  'status',
  'status_message',
  'created_at',
  'last_updated_at',
  'ttl_ms',
  'poll_interval_ms',
  'expires_at',
  'sealed',
  'pending',
  'next_key',
  'result',
  'error',
  'cancel_requested',
  'version',
] as const satisfies readonly (keyof TaskRow)[];

const STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** When a task stops existing: it reads as absent from this millisecond on. */
const expiresAt = (record: TaskRecord): number => record.createdAt + record.ttlMs;

/** The row of a record (at the version given). */
export function encodeTaskRow(record: TaskRecord, version: number): TaskRow {
  const pending = record.pending.map((p) => ({ key: p.key, question: p.question, hash: encodeBase64url(p.hash), request: p.request }));
  return {
    task_id: record.taskId,
    principal_tag: record.principalTag,
    tool: record.tool,
    args: JSON.stringify(record.args),
    capabilities: record.capabilities === undefined ? null : JSON.stringify(record.capabilities),
    run: record.run,
    status: record.status,
    status_message: record.statusMessage ?? null,
    created_at: record.createdAt,
    last_updated_at: record.lastUpdatedAt,
    ttl_ms: record.ttlMs,
    poll_interval_ms: record.pollIntervalMs,
    expires_at: expiresAt(record),
    sealed: record.sealed ?? null,
    pending: JSON.stringify(pending),
    next_key: record.nextKey,
    result: record.result === undefined ? null : JSON.stringify(record.result),
    error: record.error === undefined ? null : JSON.stringify(record.error),
    cancel_requested: record.cancelRequested,
    version,
  };
}

/** The record a row holds; `where` names the store in the error for a row this code cannot read. */
export function decodeTaskRow(row: TaskRow, where: string): TaskRecord {
  const malformed = (what: string) =>
    new Error(
      `The task store at ${where} holds a malformed record for task "${row.task_id}" (${what}). ` +
        'Check that nothing else writes to roundtrip_tasks; delete that row to forget the task.',
    );
  const json = (name: string, text: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw malformed(`${name} is not JSON`);
    }
  };
  if (!STATUSES.has(row.status)) throw malformed(`status "${row.status}"`);
  const pending = json('pending', row.pending);
  if (!Array.isArray(pending)) throw malformed('pending is not a list');
  const record: TaskRecord = {
    taskId: row.task_id,
    principalTag: Uint8Array.from(row.principal_tag),
    tool: row.tool,
    args: json('args', row.args) as TaskRecord['args'],
    capabilities: row.capabilities === null ? undefined : (json('capabilities', row.capabilities) as TaskRecord['capabilities']),
    run: row.run,
    status: row.status as TaskRecord['status'],
    createdAt: Number(row.created_at),
    lastUpdatedAt: Number(row.last_updated_at),
    ttlMs: Number(row.ttl_ms),
    pollIntervalMs: Number(row.poll_interval_ms),
    pending: pending.map((p: Omit<PendingQuestion, 'hash'> & { hash: string }) => {
      const hash = decodeBase64url(p.hash);
      if (!hash) throw malformed(`the hash of question "${p.key}" is not base64url`);
      return { key: p.key, question: p.question, hash: Uint8Array.from(hash), request: p.request };
    }),
    nextKey: Number(row.next_key),
    cancelRequested: Boolean(row.cancel_requested),
    version: Number(row.version),
  };
  if (row.status_message !== null) record.statusMessage = row.status_message;
  if (row.sealed !== null) record.sealed = row.sealed;
  if (row.result !== null) record.result = json('result', row.result) as TaskRecord['result'];
  if (row.error !== null) record.error = json('error', row.error) as TaskRecord['error'];
  return record;
}
