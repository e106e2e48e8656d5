// The questions of a compiled flow, for the engine: each step's kind asks its own (forms, a review's
// choice, a page), messages rendered from the context.
import type { AnyQuestions, QuestionFallback } from '@roundtrip/engine';
import type { CompiledFlow } from './compiled-flow.ts';
import { flowQuestionSet } from './engine-door.ts';
import type { FlowContext } from './flow-context.ts';
import type { FlowQuestion } from './step-kind-types.ts';
import { kindOf } from './step-kinds.ts';

/** The question set of a compiled flow, for the engine; `fallback` is the flow's default for every question. */
export function flowQuestions(flow: CompiledFlow, fallback?: QuestionFallback): AnyQuestions {
  const specs: Record<string, FlowQuestion> = {};
  for (const step of flow.steps.values()) Object.assign(specs, kindOf(step.spec).questions?.(step, flow, fallback));
  return flowQuestionSet<FlowContext>(specs);
}
