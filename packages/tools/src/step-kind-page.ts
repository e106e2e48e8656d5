// The `page` kind of step: the user is sent to a web page (openPage, a URL question); clients that cannot
// open one go to its alternative step. Its answer (an empty accept) is kept under the step's name, like a
// form's; its check says whether the user finished there.
import { assign } from 'xstate';
import { isAsyncFunction } from './async-functions.ts';
import { checkLeave, checkProgress, checkTemplate } from './flow-checks.ts';
import { valuesOf } from './flow-context.ts';
import { FINISH } from './flow-graph.ts';
import type { PageStep } from './flow-spec.ts';
import { checkFirst } from './flow-states.ts';
import {
  act,
  guard,
  leaveTransitions,
  passThrough,
  ruleTransitions,
  type StateBuilder,
  type StateConfig,
  targetOf,
} from './flow-transitions.ts';
import { note } from './form-questions.ts';
import { checkingState } from './invoked-states.ts';
import { renderText, renderUrl } from './safe-text.ts';
import { NO_ASYNC_CHECK } from './step-kind-ask.ts';
import type { StepKind } from './step-kind-types.ts';

/** Pages users are sent to: https, or http on this machine only. */
const PAGE_URL = /^(https:\/\/|http:\/\/(localhost|127\.0\.0\.1)[:/])/;

/**
 * A step sending the user to a page: it waits to learn what the client can open (the engine tells it at
 * the start of each round), then asks the URL question, or goes to the alternative step.
 */
function pageState(b: StateBuilder, name: string, step: PageStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const store = [act('store', { form: name })];
  const skip = ruleTransitions(b, name, rules, true, [act('skipStep', { step: name })]);
  const checked = b.asyncCheck(name);
  return {
    entry: [act('enterStep', { step: name })],
    initial: 'choosing',
    states: {
      choosing: {
        always: [
          ...passThrough(b, name, rules, true),
          { target: 'asking', guard: guard('clientOpensPages') },
          {
            target: targetOf(b, step.alternative, true),
            guard: guard('clientKnown'),
            actions: [act('skipStep', { step: name })],
          },
        ],
      },
      asking: {
        meta: { ask: [name] },
        on: {
          [`${name}.accept`]: checked
            ? { target: 'checking', actions: [act('hold', { form: name })] }
            : [...checkFirst(b, name), ...ruleTransitions(b, name, rules, true, store)],
          [`${name}.decline`]: leaveTransitions(b, name, step.onDecline ?? 'end', 'declined', true, skip),
          [`${name}.cancel`]: leaveTransitions(b, name, step.onCancel ?? 'end', 'cancelled', true, skip),
        },
      },
      ...(checked
        ? { checking: checkingState(name, ruleTransitions(b, name, rules, true, [act('storeHeld', { form: name })]), step.progress) }
        : {}),
    },
  } as StateConfig;
}

export const pageKind: StepKind<PageStep, 'clientOpensPages' | 'clientKnown', 'noteClient'> = {
  madeWith: 'openPage({ … })',
  needsClient: true,
  noun: 'page',

  collect(p, name, step) {
    if (step.check !== undefined && typeof step.check !== 'function')
      p.add([], 'invalid_step', 'its check is not a function.', 'Write check: ({ input, answers }) => reason or undefined.');
    return { forms: new Map(), answers: [name], checks: new Map([[name, step.check]]) };
  },

  check(p, f, { name, spec: step }, before) {
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

  build: (b, { name, spec }) => pageState(b, name, spec),

  questions: ({ name, spec }) => ({
    [name]: {
      message: ({ context }) => renderText(spec.message, valuesOf(context)) + note(context.problems[name]),
      url: ({ context }) => renderUrl(spec.url, valuesOf(context)),
    },
  }),

  templates: ({ name, spec }) => ({ [name]: spec.message }),

  // the accept only says the user agreed to open the page: its check says whether they finished there
  reason: ({ spec }, _key, { input, answers, loaded }) => spec.check?.({ input, answers, loaded }),

  guards: () => ({
    clientOpensPages: ({ context }) => context.client?.url === true,
    clientKnown: ({ context }) => context.client !== undefined,
  }),

  // the engine's client event, at the start of each round (see needsClient)
  actions: () => ({ noteClient: assign(({ event }) => ({ client: event.elicitation })) }),
};
