// What an MRTR method entry is (mrtr-methods.ts holds the table): how a request becomes a round, and what is done
// to the round's outcome. A leaf, so the entries and the table can both name it.
import type { RoundRequest, StepTarget } from './round-types.ts';
import type { StepOutcome } from './step-outcome.ts';

/** What a method entry makes of a request: the round to run (its target, and the request as the round sees it), or the answer. */
type Resolved<TResult> = { target: StepTarget<TResult>; round: RoundRequest } | StepOutcome<TResult>;

/** One MRTR method: how a request becomes a round, and what is done to the round's outcome, if anything. */
export interface MethodEntry<TRequest, TResult> {
  resolve(request: TRequest): Resolved<TResult>;
  after?(outcome: StepOutcome<TResult>, request: TRequest, target: StepTarget<TResult>): StepOutcome<TResult>;
}
