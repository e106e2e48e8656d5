// The `review` kind of step: the answers so far (and values read from the server's data, its `show`), with
// confirm, change one step's answers (that step is asked again), or abandon.
import { type AnyActorLogic, assign, fromPromise } from 'xstate';
import { z } from 'zod';
import { isAsyncFunction, notAPromise } from './async-functions.ts';
import type { CompiledFlow, CompiledStep } from './compiled-flow.ts';
import type { Condition } from './conditions.ts';
import { checkLeave, checkProgress, checkTemplate } from './flow-checks.ts';
import { type FlowContext, valuesOf } from './flow-context.ts';
import { type FlowGraph, stepsLeadingTo } from './flow-graph.ts';
import type { ReviewStep, ShowArgs, Shown } from './flow-spec.ts';
import {
  type Action,
  act,
  ENDED,
  type Guard,
  guard,
  json,
  leaveTransitions,
  ruleTarget,
  ruleTransitions,
  type StateBuilder,
  type StateConfig,
  targetOf,
  withoutEmptyActions,
} from './flow-transitions.ts';
import { answerLines, fallbackOf, fieldTitles, note, reviewValue } from './form-questions.ts';
import { showId, WORK_WORDS } from './invoked-states.ts';
import { renderText, safeValue } from './safe-text.ts';
import type { StepKind } from './step-kind-types.ts';

const NO_ASYNC_SHOW = {
  why: 'its show is not async (or it has none), so it does no work the user waits for',
  fix: 'Remove progress, or declare the show that reads your store async: show: async ({ answers }) => ….',
};

/** Why a review's choice did not count: it named a step this conversation did not pass through. */
const NOT_ON_THE_WAY = 'that step was not part of this conversation, so there is nothing to change there';

/** Names of the review's options: `confirm`, `abandon`, and `change_<step>` for each step it can send back to. */
const CONFIRM = 'confirm';
const ABANDON = 'abandon';
const changeOption = (step: string) => `change_${step}`;

/** The steps a review can send the user back to: those asking on the way to it (not loads, pages or reviews), in the flow's order. */
const changeableBefore = (graph: FlowGraph, review: string): string[] =>
  [...stepsLeadingTo(graph, review)]
    .filter((step) => graph.changeable.has(step))
    .sort((x, y) => graph.order.indexOf(x) - graph.order.indexOf(y));

/** A review whose `show` is async: the values are read first (`showing`, said as `progress`), then the review is asked. */
function showingReview(name: string, entry: Action[], asking: StateConfig, progress: string | undefined): StateConfig {
  return {
    entry: json(entry),
    initial: 'showing',
    states: {
      showing: {
        meta: { progress: progress ?? WORK_WORDS.show },
        invoke: {
          id: showId(name),
          src: 'show',
          input: { step: name },
          onDone: { target: 'asking', actions: [act('keepShown', { step: name })] },
          onError: { actions: [act('failStep', { what: `the show of review '${name}'` })] },
        },
      },
      asking,
    },
  } as StateConfig;
}

/**
 * A review: confirm goes on, abandon ends, `change_<step>` asks that step again (if it was on the way
 * here). With an async `show`, the values are read in a state of their own before the review is asked.
 */
function reviewState(b: StateBuilder, name: string, step: ReviewStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const changeable = changeableBefore(b.graph, name);
  const nested = isAsyncFunction(step.show);
  const choice = (option: string, condition?: Condition): Guard =>
    guard('reviewChoice', condition === undefined ? { option } : { option, condition });
  const ended = targetOf(b, ENDED, nested);
  const abandoned: Action[] = [act('endFlow', { step: name, how: 'abandoned' })];
  const on = {
    [`${name}.accept`]: [
      ...rules.map((rule) => ({ ...ruleTarget(b, name, rule, nested, []), guard: choice(CONFIRM, rule.if) })).map(withoutEmptyActions),
      { target: ended, guard: choice(ABANDON), actions: abandoned },
      ...changeable.map((target) => ({
        target: targetOf(b, target, nested),
        guard: guard('changeStep', { step: target }),
        actions: [act('forgetStep', { step: target })],
      })),
      // a change to a step this conversation did not pass through: say so and ask again
      { actions: [act('rememberProblem', { form: name })] },
    ],
    [`${name}.decline`]: [{ target: ended, actions: abandoned }],
    [`${name}.cancel`]: leaveTransitions(b, name, step.onCancel ?? 'end', 'cancelled', nested, ruleTransitions(b, name, rules, nested, [])),
  };
  const entry = [act('enterStep', { step: name }), act('startReview')];
  if (nested) return showingReview(name, entry, { meta: { ask: [name] }, on: json(on) }, step.progress);
  return { entry: [...entry, ...(step.show ? [act('noteShown', { step: name })] : [])], meta: { ask: [name] }, on: json(on) };
}

/** The review's summary: one line per answered field of every form on the way here, then what it shows. */
function summary(flow: CompiledFlow, context: FlowContext): string {
  const lines: string[] = [];
  for (const step of context.trail) {
    for (const [form, spec] of flow.steps.get(step)?.forms ?? []) {
      const answer = context.answers[form];
      if (answer) lines.push(...answerLines(spec, answer, context));
    }
  }
  const review = context.trail[context.trail.length - 1];
  for (const [label, value] of Object.entries((review && context.shown?.[review]) ?? {}))
    lines.push(`- ${safeValue(label)}: ${reviewValue(value)}`);
  return lines.join('\n');
}

/** The review's one field: confirm, change a step (by the titles of its forms' fields), or abandon. */
function choiceSchema(flow: CompiledFlow, { spec }: CompiledStep<ReviewStep>, changeable: readonly string[]) {
  const options: Array<[string, string]> = [[CONFIRM, spec.labels.confirm]];
  for (const step of changeable) {
    const titles = [...(flow.steps.get(step)?.forms.values() ?? [])].flatMap(fieldTitles);
    options.push([changeOption(step), `${spec.labels.change}: ${titles.join(', ')}`]);
  }
  options.push([ABANDON, spec.labels.abandon]);
  const literals = options.map(([value, title]) => z.literal(value).meta({ title }));
  return z.object({ choice: z.union(literals as unknown as [z.ZodLiteral<string>, z.ZodLiteral<string>]).meta({ title: 'Your choice' }) });
}

/** The `show` of step `name` when it is a review. */
const showOf = (flow: CompiledFlow, name: string) => {
  const spec = flow.steps.get(name)?.spec;
  return spec?.kind === 'review' ? spec.show : undefined;
};

export const reviewKind: StepKind<ReviewStep, 'reviewChoice' | 'changeStep', 'startReview' | 'noteShown' | 'keepShown'> = {
  madeWith: 'review({ … })',
  collect: () => ({ forms: new Map(), answers: [], checks: new Map() }),

  check(p, f, { name, spec: step }, before) {
    checkLeave(p, ['onDecline'], step.onDecline, f.graph, name, false);
    checkLeave(p, ['onCancel'], step.onCancel, f.graph, name, false);
    checkTemplate(p, ['message'], step.message, f.known, [], before);
    checkProgress(p, ['progress'], step.progress, isAsyncFunction(step.show) ? undefined : NO_ASYNC_SHOW);
  },

  build: (b, { name, spec }) => reviewState(b, name, spec),

  questions(step, flow, fallback) {
    const { name, spec } = step;
    const changeable = changeableBefore(flow.graph, name);
    return {
      [name]: {
        message: ({ context }) =>
          `${renderText(spec.message, valuesOf(context))}\n\n${summary(flow, context)}${note(context.problems[name])}`,
        schema: choiceSchema(flow, step, changeable),
        // the options this conversation can take: confirm, a change of a step it went through, abandon
        form: ({ context }) => ({
          offer: { choice: [CONFIRM, ...changeable.filter((s) => context.trail.includes(s)).map(changeOption), ABANDON] },
        }),
        ...fallbackOf(spec.fallback, fallback),
      },
    };
  },

  templates: ({ name, spec }) => ({ [name]: spec.message }),

  // its answer is a choice, not checked: a choice that does not count names a step not on the way here
  reason: () => NOT_ON_THE_WAY,

  shows: (step) => step.show,

  guards: (_flow, { holds, chosen }) => ({
    reviewChoice: ({ context, event }, { option, condition }) => chosen(event) === option && holds(condition, context, event),
    changeStep: ({ context, event }, { step }) => chosen(event) === changeOption(step) && context.trail.includes(step),
  }),

  actions: (_flow, { shownNow, seen }) => ({
    startReview: assign({ reviewing: true }),
    noteShown: assign(({ context }, { step }) => {
      const shown = notAPromise(shownNow(step, seen(context)), `the show of review '${step}'`);
      return { shown: { ...context.shown, [step]: shown ?? {} } };
    }),
    keepShown: assign(({ context, event }, { step }) => ({
      shown: { ...context.shown, [step]: (event.output ?? {}) as Shown },
    })),
  }),

  actors: (flow): Record<string, AnyActorLogic> => ({
    show: fromPromise<Shown, ShowArgs & { readonly step: string }>(
      async ({ input: { step, ...args } }) => (await showOf(flow, step)?.(args)) ?? {},
    ),
  }),
};
