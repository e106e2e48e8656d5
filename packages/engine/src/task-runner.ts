// The task runner (SEP-2663, one process): carries a tool's long work on after the request that started it,
// without the request's settle timeout (bounded by the task's lifetime), and keeps the task's record in the
// store: working (with the author's progress words), input_required (questions under minted keys, the
// snapshot sealed, the actor stopped), completed, failed, cancelled. tasks/update rehydrates a parked task
// and feeds it the answers; every change to one task is made one after another, and recorded before it is
// acknowledged. With a job queue (several processes on one store), a task's work runs as the queue's job on
// whichever process takes it, from the snapshot sealed where it last settled; otherwise in this process.
import type { Actor, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { encodeBase64url } from './base64url.ts';
import { clientEvent } from './client-event.ts';
import { logEngineEvent } from './engine-events.ts';
import { feedAnswers } from './feed-answers.ts';
import { workWords } from './long-work.ts';
import { randomBytes } from './random-bytes.ts';
import { createRoundActor, endRoundActor } from './round-actor.ts';
import { roundThrew } from './round-note.ts';
import type { Round, StepContext, StepTarget } from './round-types.ts';
import { settledNow } from './settle-actor.ts';
import { type CompactSnapshot, sameBytes } from './state-envelope.ts';
import { ErrorCode, type StepOutcome } from './step-outcome.ts';
import { TaskChanged, taskChanges } from './task-changes.ts';
import { answersFor } from './task-questions.ts';
import type { TaskQueue } from './task-queue.ts';
import { reportTaskChange } from './task-report.ts';
import type { TaskRequest } from './task-shapes.ts';
import { openTaskSnapshot, sealTaskSnapshot, taskRound } from './task-snapshot.ts';
import type { TaskRecord, TaskStore } from './task-store.ts';
import { handleOf, type TaskAnswer, type TaskView, UNKNOWN_TASK, viewOf } from './task-view.ts';
import { taskWork } from './task-work.ts';
import type { CallToolResult, JsonObject } from './wire-shapes.ts';

export interface TaskRunnerOptions {
  ctx: StepContext;
  store: TaskStore;
  ttlMs: number;
  pollIntervalMs: number;
  /** The target of a task's rounds: its tool with the arguments it was called with. */
  targetOf: (tool: string, args: JsonObject) => StepTarget<CallToolResult> | undefined;
  /** Where the work runs when several processes share the store; without, in the process that started it. */
  queue?: TaskQueue | undefined;
}

export interface TaskRunner {
  start(round: Round<CallToolResult>, actor: Actor<AnyStateMachine>): Promise<StepOutcome<CallToolResult>>;
  finished(round: Round<CallToolResult>, result: CallToolResult): Promise<StepOutcome<CallToolResult>>;
  get(request: TaskRequest): Promise<TaskAnswer<{ task: TaskView }>>;
  update(request: TaskRequest & { inputResponses: unknown }): Promise<TaskAnswer<object>>;
  cancel(request: TaskRequest): Promise<TaskAnswer<object>>;
  /**
   * Starts this process's part in running tasks: takes the queue's jobs, and takes over the tasks a process that
   * is gone left working (a store that can tell) and runs them on; resolves to how many it took over.
   */
  resumeAbandoned(): Promise<number>;
  /** Stops the work of every task still running (a queue's job is handed back); resolves once it has stopped. */
  close(): Promise<void>;
}

/** How often tasks/update starts again from a fresh read when another engine changed the task under it. */
const UPDATE_ATTEMPTS = 5;
const ACK: TaskAnswer<object> = { type: 'complete' };
const resumed = (record: TaskRecord) =>
  ({ level: 'info', event: 'task_resumed', code: 'owner_gone', tool: record.tool, taskId: record.taskId }) as const;

export function createTaskRunner({ ctx, store, ttlMs, pollIntervalMs, targetOf, queue }: TaskRunnerOptions): TaskRunner {
  const changes = taskChanges(ctx, store);
  const { live, liveOf, serial, change } = changes;
  // a working task's snapshot is sealed only where something runs the task on from it: a queue's job, or
  // resumeTasks on a store that can tell a process is gone (sealing it at creation cost as much as a round's seal)
  const sealWorking = queue !== undefined || store.abandoned !== undefined;
  const { carryOn, conclude } = taskWork(ctx, store, changes, sealWorking);
  let worker: { stop(): Promise<void> } | undefined;
  let closed = false;

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
    reportTaskChange(ctx, record);
    return record;
  }

  async function start(round: Round<CallToolResult>, actor: Actor<AnyStateMachine>): Promise<StepOutcome<CallToolResult>> {
    const machine = round.target.definition.machine.machine;
    let record: TaskRecord;
    let recorded: AnyMachineSnapshot | undefined;
    try {
      const words = workWords(machine, actor.getSnapshot() as AnyMachineSnapshot);
      // the settled machine, sealed: where a process started after this one dies runs the task on from
      const now = ctx.now();
      const sealed = sealWorking ? sealTaskSnapshot(round, actor, now + ttlMs) : undefined;
      recorded = actor.getSnapshot() as AnyMachineSnapshot;
      record = await create(round, {
        createdAt: now,
        lastUpdatedAt: now,
        ...(sealed === undefined ? {} : { sealed }),
        ...(words === undefined ? {} : { statusMessage: words }),
      });
    } catch (error) {
      endRoundActor(actor);
      return roundThrew(round, error);
    }
    if (!queue) void carryOn(record, round, actor, { recorded });
    else {
      try {
        await handOff(record, actor);
      } catch (error) {
        return roundThrew(round, error);
      }
    }
    return { type: 'task', task: handleOf(record) };
  }

  /**
   * Gives the task's work to the queue: this actor stops, and the process that takes the job runs the work on
   * from the snapshot just recorded (an effect this actor started still settles and records its outcome, which
   * the job then reads instead of acting again). A task the queue cannot take is failed.
   */
  async function handOff(record: TaskRecord, actor: Actor<AnyStateMachine>): Promise<void> {
    endRoundActor(actor);
    try {
      await queue!.dispatch(record.taskId);
    } catch (error) {
      const message = 'The server could not start this task (its job queue failed); call the tool again.';
      await serial(record.taskId, () =>
        change(record.taskId, (r) => void Object.assign(r, { status: 'failed', error: { code: ErrorCode.InternalError, message } })),
      ).catch(() => {});
      throw error;
    }
  }

  /** The queue's job for a task: runs its work on from where it last settled, until it settles again or is stopped. */
  async function runJob(taskId: string, signal: AbortSignal): Promise<void> {
    if (closed) throw new Error(`This process is stopping; task ${taskId} runs on in another.`);
    const record = await store.read(taskId, ctx.now());
    if (record?.status !== 'working' || live.get(taskId)?.work) return;
    if (record.cancelRequested) {
      await serial(taskId, () => change(taskId, (r) => void Object.assign(r, { status: 'cancelled' })));
      return;
    }
    const reopened = reopen(record);
    if (typeof reopened === 'string') return serial(taskId, () => refuse(record, reopened));
    const { round } = reopened;
    const said = (event: 'task_running' | 'task_handed_back') =>
      ctx.log &&
      logEngineEvent(ctx.log, `tool ${record.tool}`, record.run, {
        level: 'info',
        ...(event === 'task_running' ? { event, code: 'job' } : { event, code: 'job_stopped' }),
        tool: record.tool,
        taskId,
      });
    said('task_running');
    const actor = createRoundActor(round, reopened.snapshot);
    actor.start();
    const entry = liveOf(taskId);
    const work = carryOn(record, round, actor, { job: true });
    const stop = () => entry.controller.abort();
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    try {
      if ((await work) !== 'handed_back') return;
      said('task_handed_back');
      throw new Error(`Task ${taskId} was stopped in this process before it settled; it runs on in another.`);
    } finally {
      signal.removeEventListener('abort', stop);
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
    let recorded: AnyMachineSnapshot | undefined;
    try {
      working = await change(
        record.taskId,
        (r) => {
          Object.assign(r, { status: 'working', pending: r.pending.filter((p) => !answers.consumed.has(p.key)) });
          if (sealWorking) r.sealed = sealTaskSnapshot(round, actor, r.createdAt + r.ttlMs);
          else delete r.sealed;
          recorded = actor.getSnapshot() as AnyMachineSnapshot;
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
    if (working?.status !== 'working') endRoundActor(actor);
    else if (queue) await handOff(working, actor);
    else void carryOn(working, round, actor, { recorded });
  }

  /**
   * The round and snapshot a task's work runs on from, or why it cannot: no request asks for it, so the round is
   * the creator's, known by the principal's tag alone.
   */
  function reopen(
    record: TaskRecord,
  ): { round: Round<CallToolResult>; snapshot: CompactSnapshot } | 'state_not_opened' | 'tool_not_served' {
    const target = targetOf(record.tool, record.args);
    if (!target) return 'tool_not_served';
    const request = { taskId: record.taskId, principal: '', capabilities: record.capabilities };
    const round = taskRound(ctx, record, target, request, undefined);
    const snapshot = record.sealed === undefined ? undefined : openTaskSnapshot(ctx, round, record.sealed);
    return snapshot ? { round, snapshot } : 'state_not_opened';
  }

  /** Runs on a task a gone process left working, from its sealed snapshot; false when another process took it first. */
  async function takeOver(record: TaskRecord): Promise<boolean> {
    const reopened = reopen(record);
    try {
      if (typeof reopened === 'string') await refuse(record, reopened, record.version);
      else {
        // the write (compare-and-set) makes the task this process's: of two processes starting, one takes it
        const working = await change(record.taskId, () => true, record.version);
        if (working?.status !== 'working') return false;
        if (ctx.log) logEngineEvent(ctx.log, `tool ${record.tool}`, record.run, resumed(record));
        const actor = createRoundActor(reopened.round, reopened.snapshot);
        actor.start();
        void carryOn(working, reopened.round, actor);
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
      if (queue && !worker && !closed) worker = await queue.work(runJob);
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
        } else if (queue) {
          // running on another process, perhaps: stopped there (which records it cancelled), or cancelled here
          const after = await change(request.taskId, (r) => {
            r.cancelRequested = true;
            if (r.status !== 'working') r.status = 'cancelled';
          });
          if (after?.status === 'working' && (await queue.cancel(request.taskId)) === 'none')
            await change(request.taskId, (r) => void Object.assign(r, { status: 'cancelled' }));
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
      closed = true;
      // no new jobs; the running ones are handed back to the queue (another process runs them on)
      await worker?.stop();
      const running = [...live.values()].filter((entry) => entry.work);
      for (const entry of running) entry.controller.abort();
      await Promise.all(running.map((entry) => entry.work));
    },
  };
}
