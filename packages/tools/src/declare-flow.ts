// One flow, checked and built: compile the declaration, name its questions, make its machine. Shared by
// the tool, prompt and resource forms; problems from every stage are reported together.
import { type AnyQuestions, ProblemList, type QuestionFallback, RoundtripDefinitionError } from '@roundtrip/engine';
import type { z } from 'zod';
import { compileFlow } from './compile-flow.ts';
import type { DeclaredFlow } from './compiled-flow.ts';
import { asDeclared } from './engine-door.ts';
import type { FinalInput } from './final-input.ts';
import type { FlowProblems } from './flow-checks.ts';
import type { FlowOutcome } from './flow-context.ts';
import { flowQuestions } from './flow-questions.ts';
import { flowMachine } from './flow-setup.ts';
import type { StepSpec } from './flow-spec.ts';

/** How a flow ended without its final action, for a default message: the flow's own message when it has one. */
export function endedText(owner: string, outcome: Ended): string {
  if (outcome.message !== undefined) return outcome.message;
  const how =
    outcome.how === 'abandoned'
      ? 'the answers were abandoned at the review'
      : outcome.how === 'failed' || outcome.how === 'stopped'
        ? `step '${outcome.step}' could not load what it needs. Try again later`
        : `the question of step '${outcome.step}' was ${outcome.how === 'declined' ? 'declined' : 'cancelled'}`;
  return `${owner}: nothing was done, because ${how}.`;
}

type Ended = Extract<FlowOutcome, { status: 'ended' }>;

/** What the author's functions are given for an ended flow; `never`: each define function types them. */
interface EndedHooks<T> {
  /** The user declined, cancelled or abandoned. */
  readonly ended?: ((info: never) => T) | undefined;
  /** A rule ended the flow, or a load failed. */
  readonly stopped?: ((info: never) => T) | undefined;
}

/**
 * The result of a flow that ended without its final action: `ended` words it when the user left,
 * `stopped` when a rule ended the flow or a load failed; by default `otherwise` gets the text (the
 * flow's message, or a sentence saying nothing was done) and whether it is an error for the caller.
 */
export function endedResult<T>(owner: string, outcome: Ended, hooks: EndedHooks<T>, otherwise: (text: string, error: boolean) => T): T {
  const { status: _ended, ...info } = outcome;
  if (outcome.how === 'stopped' || outcome.how === 'failed') {
    const message = endedText(owner, outcome);
    return hooks.stopped ? asDeclared(hooks.stopped)({ ...info, message }) : otherwise(message, true);
  }
  return hooks.ended ? asDeclared(hooks.ended)(info) : otherwise(endedText(owner, outcome), false);
}

export function declareFlow(
  owner: string,
  name: string,
  input: z.ZodObject,
  steps: Readonly<Record<string, StepSpec>>,
  final: (input: FinalInput) => unknown,
  /** The functions the flow's load steps run, by name. */
  loaders: unknown,
  /** The default fallback of every question (tools only: prompts and resources have no model in the loop). */
  fallback?: QuestionFallback,
): DeclaredFlow {
  const problems: FlowProblems = new ProblemList();
  const compiled = compileFlow(owner, name, input, steps, problems, loaders);
  problems.throwIfAny();
  let questions: AnyQuestions;
  try {
    questions = flowQuestions(compiled, fallback);
  } catch (error) {
    if (!(error instanceof RoundtripDefinitionError)) throw error;
    // the engine names questions by form; say which flow they belong to
    throw new RoundtripDefinitionError(error.problems.map((p) => ({ ...p, path: [owner, ...p.path] })));
  }
  return { compiled, questions, machine: flowMachine(compiled, final) };
}
