// The task runner (SEP-2663, one process): carries a tool's long work on after the request that started it,
// without the request's settle timeout (bounded by the task's lifetime), and keeps the task's record in the
// store: working (with the author's progress words), input_required (questions under minted keys, the
// snapshot sealed, the actor stopped), completed, failed, cancelled. tasks/update rehydrates a parked task
// and feeds it the answers; every change to one task is made one after another, and recorded before it is
// acknowledged.
import type { Actor, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { encodeBase64url } from './base64url.ts';
import { clientEvent } from './client-event.ts';
import { logEngineEvent } from './engine-events.ts';
import { feedAnswers } from './feed-answers.ts';
import { workWords } from './long-work.ts';
import { randomBytes } from './random-bytes.ts';
import { createRoundActor, endRoundActor } from './round-actor.ts';
import { note, roundThrew } from './round-note.ts';
import type { Round, StepContext, StepTarget } from './round-types.ts';
import { type SettleResult, settleActor, settledNow } from './settle-actor.ts';
import { sameBytes } from './state-envelope.ts';
import { ErrorCode, type StepOutcome } from './step-outcome.ts';
import { answersFor } from './task-questions.ts';
import { type Carried, endedBy, failedOnServerOf, NOTHING_CARRIED, park } from './task-settled.ts';
import type { TaskRequest } from './task-shapes.ts';
import { openTaskSnapshot, sealTaskSnapshot, taskRound } from './task-snapshot.ts';
import type { TaskRecord, TaskStore } from './task-store.ts';
import { handleOf, type TaskAnswer, type TaskView, TERMINAL, UNKNOWN_TASK, viewOf } from './task-view.ts';
import type { CallToolResult, JsonObject } from './wire-shapes.ts';

export interface TaskRunnerOptions {
  ctx: StepContext;
  store: TaskStore;
  ttlMs: number;
  pollIntervalMs: number;
  /** The target of a task's rounds: its tool with the arguments it was called with. */
  targetOf: (tool: string, args: JsonObject) => StepTarget<CallToolResult> | undefined;
}

export interface TaskRunner {
  start(round: Round<CallToolResult>, actor: Actor<AnyStateMachine>): Promise<StepOutcome<CallToolResult>>;
  finished(round: Round<CallToolResult>, result: CallToolResult): Promise<StepOutcome<CallToolResult>>;
  get(request: TaskRequest): Promise<TaskAnswer<{ task: TaskView }>>;
  update(request: TaskRequest & { inputResponses: unknown }): Promise<TaskAnswer<object>>;
  cancel(request: TaskRequest): Promise<TaskAnswer<object>>;
  /** Takes over the tasks a process that is gone left working (a store that can tell), and runs them on; how many. */
  resumeAbandoned(): Promise<number>;
  /** Stops the work of every task still running; resolves once it has stopped. */
  close(): Promise<void>;
}

/** What this process holds of a task besides its record: the signal its work stops on, the queue of its changes. */
interface Live {
  controller: AbortController;
  queue: Promise<void>;
  /** The work running in the background, until it settles and its outcome is recorded. */
  work?: Promise<void>;
}

/** The task changed under a change based on what was read before (another engine on the store wrote it first). */
class TaskChanged extends Error {}

/** How often tasks/update starts again from a fresh read when another engine changed the task under it. */
const UPDATE_ATTEMPTS = 5;
const ACK: TaskAnswer<object> = { type: 'complete' };
const resumed = (record: TaskRecord) =>
  ({ level: 'info', event: 'task_resumed', code: 'owner_gone', tool: record.tool, taskId: record.taskId }) as const;

export function createTaskRunner({ ctx, store, ttlMs, pollIntervalMs, targetOf }: TaskRunnerOptions): TaskRunner {
  const live = new Map<string, Live>();
  const liveOf = (taskId: string): Live => {
    const entry = live.get(taskId);
    if (entry) return entry;
    const made: Live = { controller: new AbortController(), queue: Promise.resolve() };
    live.set(taskId, made);
    return made;
  };

  /** Runs `change` after every change to the task made before it. */
  function serial<T>(taskId: string, change: () => Promise<T>): Promise<T> {
    const entry = liveOf(taskId);
    const run = entry.queue.then(change);
    entry.queue = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  /**
   * Reads the task, edits it (`edit` returns false to leave it as it is), and writes it back; a terminal task is
   * left as it is. `basedOn`: the version the change was worked out from (a parked task's snapshot); if the task
   * moved on since, or another writer gets in first, it throws TaskChanged and writes nothing.
   */
  async function change(taskId: string, edit: (record: TaskRecord) => unknown, basedOn?: number): Promise<TaskRecord | undefined> {
    const record = await store.read(taskId, ctx.now());
    if (!record || TERMINAL.has(record.status)) return record;
    const version = record.version;
    if (basedOn !== undefined && version !== basedOn) throw new TaskChanged(`task ${taskId} was changed by another writer`);
    if (edit(record) === false) return record;
    record.lastUpdatedAt = ctx.now();
    if (TERMINAL.has(record.status)) {
      delete record.sealed;
      delete record.statusMessage;
      record.pending = [];
      const entry = live.get(taskId);
      if (entry && !entry.work) live.delete(taskId);
    }
    if ((await store.write(record, version)) === 'conflict') throw new TaskChanged(`task ${taskId} was changed by another writer`);
    return { ...record, version: version + 1 };
  }

  /** A new task's record, recorded before its handle is answered. */
  async function create(round: Round<CallToolResult>, fields: Partial<TaskRecord>): Promise<TaskRecord> {
    const now = ctx.now();
    const record: TaskRecord = {
      taskId: encodeBase64url(randomBytes(16)),
      principalTag: round.binding.sub,
      tool: round.target.task!.tool,
      args: round.target.args as JsonObject,
      capabilities: round.request.capabilities,
      run: round.run,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs,
      pending: [],
      nextKey: 1,
      cancelRequested: false,
      version: 0,
      ...fields,
    };
    await store.create(record);
    return record;
  }

  async function start(round: Round<CallToolResult>, actor: Actor<AnyStateMachine>): Promise<StepOutcome<CallToolResult>> {
    const machine = round.target.definition.machine.machine;
    let record: TaskRecord;
    try {
      const words = workWords(machine, actor.getSnapshot() as AnyMachineSnapshot);
      // the settled machine, sealed: where a process started after this one dies runs the task on from
      const now = ctx.now();
      const sealed = sealTaskSnapshot(round, actor, now + ttlMs);
      record = await create(round, {
        createdAt: now,
        lastUpdatedAt: now,
        sealed,
        ...(words === undefined ? {} : { statusMessage: words }),
      });
    } catch (error) {
      endRoundActor(actor);
      return roundThrew(round, error);
    }
    carryOn(record, round, actor);
    return { type: 'task', task: handleOf(record) };
  }

  /** Lets the actor's work run on in the background; its outcome is recorded when it settles. */
  function carryOn(record: TaskRecord, round: Round<CallToolResult>, actor: Actor<AnyStateMachine>): void {
    const { taskId } = record;
    const entry = liveOf(taskId);
    const machine = round.target.definition.machine.machine;
    let said = record.statusMessage;
    let at = JSON.stringify(actor.getSnapshot().value);
    const words = actor.subscribe({
      next: (snapshot) => {
        const now = workWords(machine, snapshot as AnyMachineSnapshot);
        // settled in another state while working: sealed again, the point a resumed task starts from
        const moved = snapshot.status === 'active' && JSON.stringify(snapshot.value) !== at;
        at = JSON.stringify(snapshot.value);
        if ((now === undefined || now === said) && !moved) return;
        if (now !== undefined) said = now;
        let sealed: string | undefined;
        try {
          if (moved) sealed = sealTaskSnapshot(round, actor, record.createdAt + record.ttlMs);
        } catch (error) {
          failedToRecord(round, error);
        }
        const say = (r: TaskRecord) => {
          if (r.status !== 'working') return false;
          if (now !== undefined) r.statusMessage = now;
          if (sealed !== undefined) r.sealed = sealed;
        };
        void serial(taskId, () => change(taskId, say)).catch((error: unknown) => failedToRecord(round, error));
      },
      error: () => {},
    });
    const remaining = Math.max(1, record.createdAt + record.ttlMs - ctx.now());
    let queued: Promise<void> | undefined;
    entry.work = settleActor(actor, remaining, entry.controller.signal)
      .then((settled) => {
        words.unsubscribe();
        const concluded = serial(taskId, () => conclude(taskId, round, actor, settled, NOTHING_CARRIED));
        queued = entry.queue;
        return concluded;
      })
      .catch((error: unknown) => {
        endRoundActor(actor);
        failedToRecord(round, error);
      })
      .finally(() => {
        delete entry.work;
        // a task whose work ended keeps nothing in this process until it is asked about again
        if (entry.queue === queued) live.delete(taskId);
      });
  }

  const failedToRecord = (round: Round<unknown>, error: unknown) =>
    note(round, { level: 'error', event: 'engine_error', code: 'threw', round: round.number, label: round.target.label, error });

  /** Records what the settled (or stopped) work came to, and ends the actor. */
  async function conclude(
    taskId: string,
    round: Round<CallToolResult>,
    actor: Actor<AnyStateMachine>,
    settled: SettleResult,
    carried: Carried,
    basedOn?: number,
  ): Promise<void> {
    const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
    const failedOnServer = failedOnServerOf(round);
    const ended = await endedBy(round, snapshot, settled, failedOnServer);
    try {
      await change(
        taskId,
        (record) => {
          if (ended) Object.assign(record, ended);
          else park(record, round, actor, snapshot, carried, failedOnServer);
        },
        basedOn,
      );
    } finally {
      endRoundActor(actor);
    }
  }

  /** The task, if it exists and is the caller's. */
  async function own(request: TaskRequest): Promise<TaskRecord | undefined> {
    const record = await store.read(request.taskId, ctx.now());
    return record && sameBytes(record.principalTag, ctx.principalTag(request.principal)) ? record : undefined;
  }

  /** Fails a task whose state cannot be reopened (its sealing key retired, its tool changed or no longer served). */
  async function refuse(record: TaskRecord, code: 'state_not_opened' | 'tool_not_served', basedOn?: number): Promise<void> {
    const refused = { level: 'warn', event: 'task_state_refused', code, tool: record.tool, taskId: record.taskId } as const;
    if (ctx.log) logEngineEvent(ctx.log, `tool ${record.tool}`, record.run, refused);
    const message = `Tool '${record.tool}' can no longer continue this task (the server was updated since it started); call the tool again.`;
    const error = { code: ErrorCode.InternalError, message };
    await change(record.taskId, (r) => void Object.assign(r, { status: 'failed', error }), basedOn);
  }

  /** Feeds the answers to the rehydrated task; recorded (parked again, working or ended) before it resolves. */
  async function resume(record: TaskRecord, request: TaskRequest & { inputResponses: unknown }): Promise<void> {
    const answers = answersFor(record.pending, request.inputResponses);
    if (answers.consumed.size === 0) return;
    const target = targetOf(record.tool, record.args);
    const round = target && taskRound(ctx, record, target, request, answers.responses);
    const snapshot = round && record.sealed !== undefined ? openTaskSnapshot(ctx, round, record.sealed) : undefined;
    if (!round || !snapshot) return refuse(record, round ? 'state_not_opened' : 'tool_not_served');
    const actor = createRoundActor(round, snapshot);
    actor.start();
    const machine = target.definition.machine;
    if (machine.handlesClientEvent && actor.getSnapshot().status === 'active') actor.send(clientEvent(record.capabilities));
    const { notes } = feedAnswers({ round, actor, machine, rendered: new Map(), pinned: answers.pinned, continuing: false });
    const carried = { notes, consumed: answers.consumed };
    // what the answers led to is recorded only on the version whose snapshot they were fed to
    if (settledNow(actor)) return conclude(record.taskId, round, actor, 'settled', carried, record.version);
    const words = workWords(machine.machine, actor.getSnapshot() as AnyMachineSnapshot);
    let working: TaskRecord | undefined;
    try {
      working = await change(
        record.taskId,
        (r) => {
          Object.assign(r, { status: 'working', pending: r.pending.filter((p) => !answers.consumed.has(p.key)) });
          r.sealed = sealTaskSnapshot(round, actor, r.createdAt + r.ttlMs);
          if (words === undefined) delete r.statusMessage;
          else r.statusMessage = words;
          return true;
        },
        record.version,
      );
    } catch (error) {
      endRoundActor(actor);
      throw error;
    }
    if (working?.status === 'working') carryOn(working, round, actor);
    else endRoundActor(actor);
  }

  /** Runs on a task a gone process left working, from its sealed snapshot; false when another process took it first. */
  async function takeOver(record: TaskRecord): Promise<boolean> {
    const target = targetOf(record.tool, record.args);
    // no request asks for it: the round is the creator's, known by the principal's tag alone
    const round =
      target && taskRound(ctx, record, target, { taskId: record.taskId, principal: '', capabilities: record.capabilities }, undefined);
    const snapshot = round && record.sealed !== undefined ? openTaskSnapshot(ctx, round, record.sealed) : undefined;
    try {
      if (!round || !snapshot) await refuse(record, round ? 'state_not_opened' : 'tool_not_served', record.version);
      else {
        // the write (compare-and-set) makes the task this process's: of two processes starting, one takes it
        const working = await change(record.taskId, () => true, record.version);
        if (working?.status !== 'working') return false;
        if (ctx.log) logEngineEvent(ctx.log, `tool ${record.tool}`, record.run, resumed(record));
        const actor = createRoundActor(round, snapshot);
        actor.start();
        carryOn(working, round, actor);
      }
      return true;
    } catch (error) {
      if (error instanceof TaskChanged) return false;
      throw error;
    }
  }

  return {
    start,
    async resumeAbandoned() {
      const abandoned = (await store.abandoned?.(ctx.now())) ?? [];
      let taken = 0;
      for (const record of abandoned) if (await serial(record.taskId, () => takeOver(record))) taken++;
      return taken;
    },
    async finished(round, result) {
      try {
        const record = await create(round, { status: 'completed', result });
        return { type: 'task', task: handleOf(record) };
      } catch (error) {
        return roundThrew(round, error);
      }
    },
    async get(request) {
      const record = await own(request);
      return record ? { type: 'complete', task: viewOf(record) } : UNKNOWN_TASK;
    },
    async update(request) {
      if (!(await own(request))) return UNKNOWN_TASK;
      return serial(request.taskId, async () => {
        // another engine on the store that changed the task first (answered it, cancelled it) goes first: the
        // answers are then taken as if they came after its change (keys it retired are ignored)
        for (let attempt = 1; ; attempt++) {
          const record = await store.read(request.taskId, ctx.now());
          try {
            // answers to a task that asks nothing now are ignored, like answers to keys it never asked
            if (record?.status === 'input_required') await resume(record, request);
            return ACK;
          } catch (error) {
            if (!(error instanceof TaskChanged) || attempt === UPDATE_ATTEMPTS) throw error;
          }
        }
      });
    },
    async cancel(request) {
      if (!(await own(request))) return UNKNOWN_TASK;
      return serial(request.taskId, async () => {
        const entry = live.get(request.taskId);
        if (entry?.work) {
          // the work stops on its signal, and the task is cancelled once it has
          await change(request.taskId, (r) => {
            r.cancelRequested = true;
          });
          entry.controller.abort();
        } else {
          // parked on questions (or between rounds): nothing runs, so it is cancelled at once
          await change(request.taskId, (r) => {
            Object.assign(r, { cancelRequested: true, status: 'cancelled' });
          });
        }
        return ACK;
      });
    },
    async close() {
      const running = [...live.values()].filter((entry) => entry.work);
      for (const entry of running) entry.controller.abort();
      await Promise.all(running.map((entry) => entry.work));
    },
  };
}
