// A task's work running in this process: the actor carried on after the round (or the job) that started it,
// its progress words and the snapshot where it last settled recorded as it goes, and its outcome recorded when
// it settles: ended (completed, failed, cancelled) or parked on questions. As a queue's job, work stopped without
// a cancel is handed back instead (nothing recorded), for another process to run on.
import type { Actor, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { workWords } from './long-work.ts';
import { endRoundActor } from './round-actor.ts';
import { note } from './round-note.ts';
import type { Round, StepContext } from './round-types.ts';
import { type SettleResult, settleActor } from './settle-actor.ts';
import type { TaskChanges } from './task-changes.ts';
import { type Carried, endedBy, failedOnServerOf, NOTHING_CARRIED, park } from './task-settled.ts';
import { sealTaskSnapshot } from './task-snapshot.ts';
import type { TaskRecord, TaskStore } from './task-store.ts';
import type { CallToolResult } from './wire-shapes.ts';

interface CarryOptions {
  /** The work runs as a queue's job: stopped without a cancel, it is handed back. */
  job?: boolean;
  /** The snapshot the record was written from, when the actor may have moved on since (it is looked at once if it did). */
  recorded?: AnyMachineSnapshot;
}

export interface TaskWorkRunner {
  /**
   * Lets the actor's work run on in the background; its outcome is recorded when it settles. As a queue's job
   * (`job`), work stopped without a cancel is handed back: nothing is recorded, and the promise says so.
   */
  carryOn(
    record: TaskRecord,
    round: Round<CallToolResult>,
    actor: Actor<AnyStateMachine>,
    options?: CarryOptions,
  ): Promise<'handed_back' | undefined>;
  /** Records what the settled (or stopped) work came to, and ends the actor. */
  conclude(
    taskId: string,
    round: Round<CallToolResult>,
    actor: Actor<AnyStateMachine>,
    settled: SettleResult,
    carried: Carried,
    basedOn?: number,
  ): Promise<void>;
}

/** `sealWorking`: whether the record of a working task holds its snapshot, sealed where it last settled. */
export function taskWork(
  ctx: StepContext,
  store: TaskStore,
  { live, liveOf, serial, change }: TaskChanges,
  sealWorking: boolean,
): TaskWorkRunner {
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

  function carryOn(
    record: TaskRecord,
    round: Round<CallToolResult>,
    actor: Actor<AnyStateMachine>,
    { job = false, recorded }: CarryOptions = {},
  ): Promise<'handed_back' | undefined> {
    const { taskId } = record;
    const entry = liveOf(taskId);
    if (entry.controller.signal.aborted) entry.controller = new AbortController();
    const machine = round.target.definition.machine.machine;
    let said = record.statusMessage;
    const current = actor.getSnapshot() as AnyMachineSnapshot;
    let at = JSON.stringify((recorded ?? current).value);
    const observe = (snapshot: AnyMachineSnapshot) => {
      const now = workWords(machine, snapshot as AnyMachineSnapshot);
      // settled in another state while working: sealed again, the point a resumed task starts from
      const moved = snapshot.status === 'active' && JSON.stringify(snapshot.value) !== at;
      at = JSON.stringify(snapshot.value);
      if ((now === undefined || now === said) && !moved) return;
      if (now !== undefined) said = now;
      let sealed: string | undefined;
      try {
        // sealed at every recorded change, not only a new state: work that loops in one state (one order after
        // another) resumes from its last step, not its first
        if (sealWorking && snapshot.status === 'active') sealed = sealTaskSnapshot(round, actor, record.createdAt + record.ttlMs);
      } catch (error) {
        failedToRecord(round, error);
      }
      const say = (r: TaskRecord) => {
        if (r.status !== 'working') return false;
        if (now !== undefined) r.statusMessage = now;
        if (sealed !== undefined) r.sealed = sealed;
      };
      void serial(taskId, () => change(taskId, say)).catch((error: unknown) => failedToRecord(round, error));
    };
    // what the work did while its record was written is recorded too
    if (recorded !== undefined && current !== recorded) observe(current);
    const remaining = Math.max(1, record.createdAt + record.ttlMs - ctx.now());
    const work = (async (): Promise<'handed_back' | undefined> => {
      let queued: Promise<void> | undefined;
      try {
        const settled = await settleActor(actor, remaining, entry.controller.signal, observe);
        if (settled === 'aborted' && job && !(await store.read(taskId, ctx.now()))?.cancelRequested) {
          endRoundActor(actor);
          return 'handed_back';
        }
        const concluded = serial(taskId, () => conclude(taskId, round, actor, settled, NOTHING_CARRIED));
        queued = entry.queue;
        await concluded;
      } catch (error) {
        endRoundActor(actor);
        failedToRecord(round, error);
      } finally {
        delete entry.work;
        // a task whose work ended keeps nothing in this process until it is asked about again
        if (entry.queue === queued) live.delete(taskId);
      }
      return undefined;
    })();
    entry.work = work;
    return work;
  }

  return { carryOn, conclude };
}
