// One flow, checked and built: compile the declaration, name its questions, make its machine. Shared by
// the tool, prompt and resource forms; problems from every stage are reported together.
import { type AnyQuestions, type DefinitionProblem, type QuestionFallback, RoundtripDefinitionError } from '@roundtrip/engine';
import type { AnyStateMachine } from 'xstate';
import type { z } from 'zod';
import { type CompiledFlow, compileFlow } from './compile-flow.ts';
import type { FlowOutcome } from './flow-context.ts';
import { flowQuestions } from './flow-questions.ts';
import { type FinalInput, flowMachine } from './flow-setup.ts';
import type { StepSpec } from './flow-spec.ts';

export interface DeclaredFlow {
  readonly compiled: CompiledFlow;
  readonly questions: AnyQuestions;
  readonly machine: AnyStateMachine;
}

/** How a flow ended without its final action, for a default message: the flow's own message when it has one. */
export function endedText(owner: string, outcome: Extract<FlowOutcome, { status: 'ended' }>): string {
  if (outcome.message !== undefined) return outcome.message;
  const how =
    outcome.how === 'abandoned'
      ? 'the answers were abandoned at the review'
      : outcome.how === 'failed' || outcome.how === 'stopped'
        ? `step '${outcome.step}' could not load what it needs. Try again later`
        : `the question of step '${outcome.step}' was ${outcome.how === 'declined' ? 'declined' : 'cancelled'}`;
  return `${owner}: nothing was done, because ${how}.`;
}

/** What an `ended` function is told of an ended flow (typed by each define function). */
export function endedInfo(outcome: Extract<FlowOutcome, { status: 'ended' }>): never {
  const { status: _ended, ...info } = outcome;
  return info as never;
}

/** The ended flow is an error for the caller: a load failed, or a rule ended it (the order does not exist). */
export const endedInError = (outcome: Extract<FlowOutcome, { status: 'ended' }>): boolean =>
  outcome.how === 'failed' || outcome.how === 'stopped';

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
  const problems: DefinitionProblem[] = [];
  const compiled = compileFlow(owner, name, input, steps, problems, loaders);
  if (problems.length > 0) throw new RoundtripDefinitionError(problems);
  let questions: AnyQuestions;
  try {
    questions = flowQuestions(compiled, fallback);
  } catch (error) {
    if (!(error instanceof RoundtripDefinitionError)) throw error;
    // the engine names questions by form; say which flow they belong to
    throw new RoundtripDefinitionError(error.problems.map((p) => ({ ...p, path: `${owner} › ${p.path}` })));
  }
  return { compiled, questions, machine: flowMachine(compiled, final) };
}
