// How a round tells the operator what happened, and how it ends on a failure: the entry is built only
// when the engine has a log.
import { type EngineEvent, logEngineEvent } from './engine-events.ts';
import type { Round } from './round-types.ts';
import type { StepOutcome } from './step-outcome.ts';

/** Logs one entry of the round, if the engine has a log. */
export function note(round: Round<unknown>, event: EngineEvent): void {
  const log = round.ctx.log;
  if (log) logEngineEvent(log, round.target.label, round.run || undefined, event);
}

/** Logs why the round failed and gives the method's failure: `clientText`, or words pointing to the log. */
export function failRound<TResult>(round: Round<TResult>, event: EngineEvent, clientText?: string): StepOutcome<TResult> {
  note(round, event);
  return round.target.fail(
    clientText ?? `${round.target.definition.owner} failed on the server before it could finish; the details are in the server's log.`,
  );
}

/** A round whose code threw (the engine's, a machine's, a store's): logged, and the method's failure. */
export function roundThrew<TResult>(round: Round<TResult>, error: unknown): StepOutcome<TResult> {
  const label = round.target.label;
  return failRound(round, { level: 'error', event: 'engine_error', code: 'threw', round: round.number, label, error });
}
