// What the guards and actions of a running flow read, whatever the kinds of its steps: what the flow has
// seen on the way here, why an answer does not count (its step's kind checks it), whether a condition
// holds, and what a step shows of the server's data. Each step's own part comes from its kind.
import { notAPromise } from './async-functions.ts';
import type { CompiledFlow, CompiledStep } from './compiled-flow.ts';
import { type Condition, evaluateCondition } from './conditions.ts';
import { answersOnTrail, type FlowContext, type FlowEvent, loadedOnTrail, valuesOf } from './flow-context.ts';
import type { ShowArgs, Shown } from './flow-spec.ts';
import type { FlowReads } from './step-kind-types.ts';
import { kindOf } from './step-kinds.ts';

/** The step asking question `key`: the step of a form, or the step named so (a review's choice, a page). */
export const askingStep = (flow: CompiledFlow, key: string): CompiledStep | undefined => flow.steps.get(flow.forms.get(key)?.step ?? key);

/** What step `name` shows of the server's data now: its kind's `shows` with the input, answers and values loaded on the way here. */
export function shownNow(flow: CompiledFlow, name: string, args: ShowArgs): Shown | Promise<Shown> | undefined {
  const step = flow.steps.get(name);
  return step && kindOf(step.spec).shows?.(step.spec)?.({ input: args.input, answers: args.answers, loaded: args.loaded });
}

/** What the guards and actions of `flow` read (see FlowReads). */
export function flowReads(flow: CompiledFlow): FlowReads {
  const formsOf = (step: string) => flow.steps.get(step)?.answers ?? [];
  const seen = (context: FlowContext) => ({
    input: context.input,
    answers: answersOnTrail(context, formsOf),
    loaded: loadedOnTrail(context),
  });
  // sync checks run as guards; async ones as the `check` actor (flow-work.ts)
  const reasonFor = (key: string, context: FlowContext, event: FlowEvent): string | undefined => {
    const step = askingStep(flow, key);
    const kind = step && kindOf(step.spec);
    if (!step || !kind?.reason) return undefined;
    const what = `the check of ${kind.noun ? `${kind.noun} ` : ''}'${key}'`;
    return notAPromise(kind.reason(step, key, { answer: event.content, ...seen(context) }), what) ?? undefined;
  };
  // the step before this one on the trail that asked something (loads are passed over)
  const askedBefore = (trail: readonly string[]) => [...trail.slice(0, -1)].reverse().find((step) => !flow.graph.silent.has(step));
  // an answer kept from before a review's change, whose check no longer passes (the room is now too small)
  const keptAnswerReason = (form: string, context: FlowContext): string | undefined => {
    const answer = context.answers[form];
    return answer ? reasonFor(form, context, { type: `${form}.accept`, key: form, content: answer }) : undefined;
  };
  // a step's rules may read the value it is working on from its done event, before it is kept (a load's):
  // that step is the one entered last
  const withLoading = (values: Record<string, unknown>, context: FlowContext, event?: FlowEvent) => {
    const name = context.trail[context.trail.length - 1];
    const step = name === undefined || event === undefined ? undefined : flow.steps.get(name);
    const loading = step && kindOf(step.spec).loading?.(step, event!);
    if (loading) values[name!] = loading.value;
    return values;
  };
  // valuesOf gives a new object each call: the loading value is written into it
  const holds = (condition: Condition | undefined, context: FlowContext, event?: FlowEvent) =>
    condition === undefined || evaluateCondition(condition, withLoading(valuesOf(context, event), context, event));
  const chosen = (event: FlowEvent) => event.content?.choice;
  const lastShowingStep = (context: FlowContext) =>
    [...context.trail].reverse().find((name) => {
      const step = flow.steps.get(name);
      return step !== undefined && kindOf(step.spec).shows?.(step.spec) !== undefined;
    });
  return {
    formsOf,
    seen,
    reasonFor,
    askedBefore,
    keptAnswerReason,
    holds,
    chosen,
    shownNow: (step, args) => shownNow(flow, step, args),
    lastShowingStep,
  };
}
