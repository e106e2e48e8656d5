// Where tasks (SEP-2663) are kept between the requests that create, poll, answer and cancel them. A contract
// like the effect ledger's: in memory (memory-task-store.ts), in SQLite and in PostgreSQL (the Node subpaths).
import type { StepError } from './step-outcome.ts';
import type { TaskStatus } from './task-shapes.ts';
import type { CallToolResult, ClientCapabilities, InputRequest, JsonObject } from './wire-shapes.ts';

/** A question a parked task asks, under the key minted for it. */
export interface PendingQuestion {
  /** Minted `<question>.<n>`: never used twice in one task. */
  key: string;
  /** The question's own key, as the machine asks it. */
  question: string;
  /** The digest of the question as asked: an answer counts only for the question it answers (as MRTR pins). */
  hash: Uint8Array;
  request: InputRequest;
}

/** Everything the engine keeps of one task. */
export interface TaskRecord {
  /** 128 random bits, base64url. */
  taskId: string;
  /** Who created it: another principal is told the task does not exist. */
  principalTag: Uint8Array;
  tool: string;
  /** The tool's validated arguments. */
  args: JsonObject;
  /** The creating request's capabilities: what later questions may use. */
  capabilities: ClientCapabilities | undefined;
  /** The run its effects are recorded under (base64url), the same for the task's life. */
  run: string;
  status: TaskStatus;
  statusMessage?: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  /**
   * The machine's snapshot sealed with the engine's keyring (it holds answers): while the task is parked on
   * questions; and while it works, as it was when it last settled, where something runs it on from there (a
   * queue's job, or `resumeTasks` on a store with `abandoned`).
   */
  sealed?: string;
  pending: PendingQuestion[];
  /** The next number a minted key gets. */
  nextKey: number;
  result?: CallToolResult;
  error?: StepError;
  cancelRequested: boolean;
  /** Grows by one with every write. */
  version: number;
}

export interface TaskStore {
  /** Records a new task; resolves once a read sees it. */
  create(record: TaskRecord): Promise<void>;
  /** The task, or undefined when there is none or it expired (createdAt + ttlMs before `now`; it is removed then). */
  read(taskId: string, now: number): Promise<TaskRecord | undefined>;
  /** Replaces the task if it is still at `expectedVersion` (the record's version is then one more). */
  write(record: TaskRecord, expectedVersion: number): Promise<'ok' | 'conflict'>;
  /**
   * Tasks left `working` by a process that is known to have ended (killed, crashed), for `resumeTasks` to take
   * over. A store that cannot tell (one shared by machines) leaves it out, and such tasks are not resumed.
   */
  abandoned?(now: number): Promise<TaskRecord[]>;
}
