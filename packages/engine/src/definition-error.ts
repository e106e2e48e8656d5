/** What kind of mistake a definition problem is; stable, for tests and tooling. */
export type DefinitionProblemCode =
  | 'invalid_name'
  | 'duplicate_name'
  | 'invalid_question'
  | 'unknown_question'
  | 'unused_question'
  | 'question_asked_twice'
  | 'unexpressible_schema'
  | 'unhandled_answer'
  | 'unnamed_invoke'
  | 'delayed_transition'
  | 'not_json'
  | 'unknown_effect'
  | 'invalid_uri'
  | 'invalid_key'
  | 'invalid_option'
  | 'invalid_migration'
  // of declared flows (@roundtrip/tools)
  | 'invalid_step'
  | 'invalid_condition'
  | 'invalid_template'
  | 'round_budget';

/** One mistake in a definition: where it is, what is wrong, and how to fix it. */
export interface DefinitionProblem {
  /** Where: `refund_order › state confirming › ask confirm`. */
  readonly path: string;
  readonly code: DefinitionProblemCode;
  readonly message: string;
  readonly fix: string;
}

/**
 * Thrown when a tool, prompt, resource or engine is defined in a way the engine cannot serve. Aimed at
 * the author: it lists every problem found (not only the first), each with where, what and the fix.
 */
export class RoundtripDefinitionError extends Error {
  override readonly name = 'RoundtripDefinitionError';
  readonly problems: readonly DefinitionProblem[];

  constructor(problems: readonly DefinitionProblem[]) {
    const lines = problems.map((p) => `  - ${p.path}: ${p.message} Fix: ${p.fix}`);
    super(
      problems.length === 1
        ? `${problems[0]!.path}: ${problems[0]!.message} Fix: ${problems[0]!.fix}`
        : `${problems.length} problems:\n${lines.join('\n')}`,
    );
    this.problems = problems;
  }

  /** The code of the first problem, for the common one-problem case. */
  get code(): DefinitionProblemCode {
    return this.problems[0]!.code;
  }
}

/** Collects problems while a definition is checked, then throws them together. */
export class ProblemList {
  readonly items: DefinitionProblem[] = [];

  add(path: string, code: DefinitionProblemCode, message: string, fix: string): void {
    this.items.push({ path, code, message, fix });
  }

  /** Throws a RoundtripDefinitionError listing every problem, if there is any. */
  throwIfAny(): void {
    if (this.items.length > 0) throw new RoundtripDefinitionError(this.items);
  }
}

/** Throws one problem at once (for checks where nothing further can be checked). */
export function definitionError(path: string, code: DefinitionProblemCode, message: string, fix: string): RoundtripDefinitionError {
  return new RoundtripDefinitionError([{ path, code, message, fix }]);
}
