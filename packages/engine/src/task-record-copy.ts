// A copy of a task record that shares nothing with it, for the memory task store: what it keeps and what it gives
// out can be changed by their holder without touching the other. Written for the record's shape (bytes, JSON
// fields, questions) because structuredClone, which walks the same objects through V8's serializer, made the copy
// on creating a task cost as much as sealing its snapshot (bench/tasks.bench.ts). Keys keep their order; a field
// absent stays absent, one set to undefined stays so.
import type { PendingQuestion, TaskRecord } from './task-store.ts';

/** A deep copy of a JSON value; anything that is not plain JSON (a Date an argument coerced to) is structuredClone'd. */
function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = copyJson((value as Record<string, unknown>)[key]);
    // a client's JSON may hold a "__proto__" key: kept as a key of the copy, as JSON.parse and structuredClone keep it
    // (assigned, it would set the copy's prototype instead)
    if (key === '__proto__') Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true, configurable: true });
    else copy[key] = field;
  }
  return copy as T;
}

const copyPending = (pending: PendingQuestion): PendingQuestion => ({
  ...pending,
  hash: pending.hash.slice(),
  request: copyJson(pending.request),
});

/** The record copied, at `version` when given. */
export function copyTaskRecord(record: TaskRecord, version = record.version): TaskRecord {
  const copy: TaskRecord = {
    ...record,
    principalTag: record.principalTag.slice(),
    args: copyJson(record.args),
    pending: record.pending.map(copyPending),
    version,
  };
  if (record.capabilities !== undefined) copy.capabilities = copyJson(record.capabilities);
  if (record.result !== undefined) copy.result = copyJson(record.result);
  if (record.error !== undefined) copy.error = copyJson(record.error);
  return copy;
}
