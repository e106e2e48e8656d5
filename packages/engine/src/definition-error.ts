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
  | 'invalid_migration';

/** The separator of a problem's path segments when it is printed: `Tool 'refund_order' › state 'confirming'`. */
const PATH_SEPARATOR = ' › ';

/**
 * One mistake in a definition: where it is, what is wrong, and how to fix it. `TCode` is the codes it
 * may have: the engine's own by default; a package that checks more (such as @roundtrip/tools, whose
 * declared flows add step and condition codes) widens it with its own union.
 */
export interface DefinitionProblem<TCode extends string = DefinitionProblemCode> {
  /**
   * Where, from the outside in, one segment each: `["Tool 'refund_order'", "state 'confirming'", "ask 'confirm'"]`.
   * Printed joined with ` › `.
   */
  readonly path: readonly string[];
  readonly code: TCode;
  readonly message: string;
  readonly fix: string;
}

/**
 * The code of a problem in a thrown error: the engine's own, or one a package that checks more adds
 * (@roundtrip/tools' FlowProblemCode). Spelled so the engine's codes are still suggested.
 */
type AnyProblemCode = DefinitionProblemCode | (string & {});

/**
 * Thrown when a tool, prompt, resource or engine is defined in a way the engine cannot serve. Aimed at
 * the author: it lists every problem found (not only the first), each with where, what and the fix.
 * Its problems may carry codes of the package that found them (a declared flow's, for one).
 */
export class RoundtripDefinitionError extends Error {
  override readonly name = 'RoundtripDefinitionError';
  readonly problems: readonly DefinitionProblem<AnyProblemCode>[];

  constructor(problems: readonly DefinitionProblem<AnyProblemCode>[]) {
    const line = (p: DefinitionProblem<AnyProblemCode>) => `${p.path.join(PATH_SEPARATOR)}: ${p.message} Fix: ${p.fix}`;
    super(problems.length === 1 ? line(problems[0]!) : `${problems.length} problems:\n${problems.map((p) => `  - ${line(p)}`).join('\n')}`);
    this.problems = problems;
  }

  /** The code of the first problem, for the common one-problem case. */
  get code(): AnyProblemCode {
    return this.problems[0]!.code;
  }
}

/**
 * Collects problems while a definition is checked, then throws them together. `at(...segments)` is the
 * same list seen from a part of the definition: what it adds has those segments in front of its path.
 */
export class ProblemList<TCode extends string = DefinitionProblemCode> {
  readonly items: DefinitionProblem<TCode>[];
  readonly #prefix: readonly string[];

  constructor(items: DefinitionProblem<TCode>[] = [], prefix: readonly string[] = []) {
    this.items = items;
    this.#prefix = prefix;
  }

  /** Adds a problem at `path` (after this list's own segments; `[]` for the part itself). */
  add(path: readonly string[], code: TCode, message: string, fix: string): void {
    this.items.push({ path: [...this.#prefix, ...path], code, message, fix });
  }

  /** The same list, adding under `segments`. */
  at(...segments: readonly string[]): ProblemList<TCode> {
    return new ProblemList(this.items, [...this.#prefix, ...segments]);
  }

  /** Throws a RoundtripDefinitionError listing every problem, if there is any. */
  throwIfAny(): void {
    if (this.items.length > 0) throw new RoundtripDefinitionError(this.items);
  }
}

/** Throws one problem at once (for checks where nothing further can be checked). */
export function definitionError(
  path: readonly string[],
  code: DefinitionProblemCode,
  message: string,
  fix: string,
): RoundtripDefinitionError {
  return new RoundtripDefinitionError([{ path, code, message, fix }]);
}
