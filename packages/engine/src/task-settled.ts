// What a task's settled (or stopped) work comes to: ended (completed, failed, cancelled), or, when the machine
// still asks, parked with its questions under minted keys and its snapshot sealed, or failed with why it
// cannot ask (nothing asked, a capability the client lacks).
import type { Actor, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { activeQuestions } from './active-questions.ts';
import { gateRound, inputRequestsOf, missingCapability } from './answer-round.ts';
import { note } from './round-note.ts';
import type { Round } from './round-types.ts';
import type { SettleResult } from './settle-actor.ts';
import { ErrorCode, type StepError } from './step-outcome.ts';
import { mintPending } from './task-questions.ts';
import { sealTaskSnapshot } from './task-snapshot.ts';
import type { TaskRecord } from './task-store.ts';
import type { CallToolResult } from './wire-shapes.ts';

/** What the last answers left to say on the questions asked again, and which minted keys they retired. */
export interface Carried {
  notes: ReadonlyMap<string, string>;
  consumed: ReadonlySet<string>;
}

export const NOTHING_CARRIED: Carried = { notes: new Map(), consumed: new Set() };

/** A settled machine still asking: its questions under minted keys and its snapshot sealed; or why it cannot ask. */
export function park(
  record: TaskRecord,
  round: Round<CallToolResult>,
  actor: Actor<AnyStateMachine>,
  snapshot: AnyMachineSnapshot,
  carried: Carried,
  failedOnServer: StepError,
): void {
  const { definition } = round.target;
  const asks = activeQuestions(definition.machine, snapshot, new Map());
  if (asks.length === 0) {
    note(round, { level: 'error', event: 'machine_stuck', code: 'asks_nothing', machine: definition.machine.id, value: snapshot.value });
    Object.assign(record, { status: 'failed', error: failedOnServer });
    return;
  }
  const gate = gateRound(asks, record.capabilities, false);
  if (gate.kind !== 'elicit') {
    Object.assign(record, { status: 'failed', error: missingCapability(definition.owner, asks, gate.missing).error });
    return;
  }
  const previous = record.pending.filter((p) => !carried.consumed.has(p.key));
  const minted = mintPending(asks, inputRequestsOf(asks, carried.notes), carried.notes, previous, record.nextKey);
  record.sealed = sealTaskSnapshot(round, actor, record.createdAt + record.ttlMs);
  Object.assign(record, { status: 'input_required', pending: minted.pending, nextKey: minted.nextKey });
  delete record.statusMessage;
}

/** The error of a task whose work failed on the server: the details go to the log. */
export function failedOnServerOf(round: Round<CallToolResult>): StepError {
  const { owner } = round.target.definition;
  return {
    code: ErrorCode.InternalError,
    message: `${owner} failed on the server before it could finish; the details are in the server's log.`,
  };
}

/** How the settled work ended the task (its result, or why it failed), or undefined when the machine still runs. */
export async function endedBy(
  round: Round<CallToolResult>,
  snapshot: AnyMachineSnapshot,
  settled: SettleResult,
  failedOnServer: StepError,
): Promise<Partial<TaskRecord> | undefined> {
  const { definition } = round.target;
  if (settled === 'aborted') return { status: 'cancelled' };
  if (settled === 'timeout')
    return { status: 'failed', error: { ...failedOnServer, message: `${definition.owner} did not finish within the task's lifetime.` } };
  if (snapshot.status === 'error') {
    note(round, {
      level: 'error',
      event: 'machine_error',
      code: 'machine_failed',
      machine: definition.machine.id,
      round: round.number,
      error: snapshot.error,
    });
    return { status: 'failed', error: failedOnServer };
  }
  if (snapshot.status !== 'done') return undefined;
  try {
    const result = (await definition.finish(snapshot.output, {})) as CallToolResult;
    note(round, { level: 'info', event: 'run_complete', code: 'finished', round: round.number });
    return { status: 'completed', result };
  } catch (error) {
    note(round, { level: 'error', event: 'result_error', code: 'finish_threw', owner: definition.owner, error });
    return { status: 'failed', error: failedOnServer };
  }
}
