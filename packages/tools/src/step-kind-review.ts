// The `review` kind of step: the answers so far, with confirm, change one step's answers, or abandon.
import { checkLeave, checkProgress, checkTemplate } from './flow-checks.ts';
import { stepsLeadingTo } from './flow-graph.ts';
import type { ReviewStep } from './flow-spec.ts';
import { reviewState } from './flow-states.ts';
import { isAsyncFunction } from './flow-work.ts';
import type { StepKind } from './step-kind-types.ts';

const NO_ASYNC_SHOW = {
  why: 'its show is not async (or it has none), so it does no work the user waits for',
  fix: 'Remove progress, or declare the show that reads your store async: show: async ({ answers }) => ….',
};

export const reviewKind: StepKind<ReviewStep> = {
  collect(_p, name, step, parts) {
    parts.formsOfStep.set(name, []);
    parts.shows.set(name, step.show);
  },

  check(p, f, name, step, before) {
    checkLeave(p, ['onDecline'], step.onDecline, f.graph, name, false);
    checkLeave(p, ['onCancel'], step.onCancel, f.graph, name, false);
    checkTemplate(p, ['message'], step.message, f.known, [], before);
    checkProgress(p, ['progress'], step.progress, isAsyncFunction(step.show) ? undefined : NO_ASYNC_SHOW);
  },

  build(b, name, step, parts, steps) {
    // the steps it can send the user back to: those asking on the way here, in the flow's order
    const changeable = [...stepsLeadingTo(b.graph, name)]
      .filter((s) => steps[s]?.kind === 'ask')
      .sort((x, y) => b.graph.order.indexOf(x) - b.graph.order.indexOf(y));
    parts.reviews.set(name, { spec: step, changeable });
    return reviewState(b, name, step, changeable);
  },
};
