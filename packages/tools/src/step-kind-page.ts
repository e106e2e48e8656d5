// The `page` kind of step: the user is sent to a web page (openPage); clients that cannot open one go to
// its alternative step. Its answer (an empty accept) is kept under the step's name, like a form's.
import { checkLeave, checkProgress, checkTemplate } from './flow-checks.ts';
import { FINISH } from './flow-graph.ts';
import type { PageStep } from './flow-spec.ts';
import { pageState } from './flow-states.ts';
import { isAsyncFunction } from './flow-work.ts';
import { NO_ASYNC_CHECK } from './step-kind-ask.ts';
import type { StepKind } from './step-kind-types.ts';

/** Pages users are sent to: https, or http on this machine only. */
const PAGE_URL = /^(https:\/\/|http:\/\/(localhost|127\.0\.0\.1)[:/])/;

export const pageKind: StepKind<PageStep> = {
  collect(p, name, step, parts) {
    parts.formsOfStep.set(name, [name]);
    if (step.check !== undefined && typeof step.check !== 'function')
      p.add([], 'invalid_step', 'its check is not a function.', 'Write check: ({ input, answers }) => reason or undefined.');
    parts.checks.set(name, step.check);
    parts.pages.set(name, step);
  },

  check(p, f, name, step, before) {
    checkLeave(p, ['onDecline'], step.onDecline, f.graph, name);
    checkLeave(p, ['onCancel'], step.onCancel, f.graph, name);
    checkTemplate(p, ['message'], step.message, f.known, [], before);
    checkTemplate(p, ['url'], step.url, f.known, [], before);
    checkProgress(p, ['progress'], step.progress, isAsyncFunction(step.check) ? undefined : NO_ASYNC_CHECK);
    if (typeof step.url === 'string' && !PAGE_URL.test(step.url)) {
      p.add(
        ['url'],
        'invalid_step',
        `the page '${step.url}' is not an https URL.`,
        'Send users to https pages only (http only for localhost).',
      );
    }
    if (step.alternative !== FINISH && (!(step.alternative in f.steps) || step.alternative === name)) {
      p.add(
        ['alternative'],
        'invalid_step',
        `'${String(step.alternative)}' is not another step.`,
        `Name the step for clients that cannot open pages: one of ${[...Object.keys(f.steps).filter((n) => n !== name), FINISH].join(', ')}.`,
      );
    }
  },

  exits: (step) => [step.alternative],

  build: (b, name, step) => pageState(b, name, step),
};
