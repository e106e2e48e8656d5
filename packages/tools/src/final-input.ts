// What a declared flow's final action is given: the input, the answers and the values loaded on the way
// taken; the final actor also gets what the last review showed, to read again before it acts.
import type { Shown } from './flow-spec.ts';

/** What the final action receives. */
export interface FinalInput {
  readonly input: Record<string, unknown>;
  readonly answers: Record<string, Record<string, unknown>>;
  readonly loaded: Record<string, unknown>;
}

/** The final actor's input: the final action's, plus what the last review showed, to check again. */
export interface FinishInput extends FinalInput {
  readonly review?: string;
  readonly shown?: Shown;
}
