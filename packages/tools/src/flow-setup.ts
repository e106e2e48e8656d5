// The one setup() behind every declared flow: the named guards, actions and the final actor that the
// JSON config refers to. Only the answers' checks and the final action differ from flow to flow.
import { ConfirmedValueChangedError } from '@roundtrip/engine';
import { type AnyStateMachine, assign, fromPromise, type PromiseActorLogic, setup, spawnChild, stopChild } from 'xstate';
import type { CompiledFlow } from './compiled-flow.ts';
import { type Condition, evaluateCondition } from './conditions.ts';
import { confirmedChanged, finalNameOf, finalTransaction } from './final-action.ts';
import type { FinalInput, FinishInput } from './final-input.ts';
import {
  answersOnTrail,
  enteredTrail,
  type FlowContext,
  type FlowEvent,
  loadedOnTrail,
  outcomeOf,
  stableJson,
  valuesOf,
  withLastAnswer,
} from './flow-context.ts';
import type { ActionImplementations, GuardImplementations } from './flow-params.ts';
import type { Shown } from './flow-spec.ts';
import { changeOption } from './flow-states.ts';
import { notAPromise, withWorkInputs, workActions, workActors } from './flow-work.ts';
import { renderText } from './safe-text.ts';

/** What the final actor returns (and the effect ledger records): the result, and the answers it was made for. */
interface FinishOutput {
  readonly result: unknown;
  readonly answers: string;
}

/** The final action, as the actor setup() is given (under its own name at run time, see finalNameOf). */
type FinishActor = { src: 'finish'; logic: PromiseActorLogic<FinishOutput, FinishInput>; id: string | undefined };

/** The last review on the way here that showed values from the server's data. */
function lastShowingReview(flow: CompiledFlow, context: FlowContext): string | undefined {
  return [...context.trail].reverse().find((step) => flow.reviews.get(step)?.spec.show !== undefined);
}

/** What a review shows now: its `show` with the input, the answers and the values loaded on the way here. */
export function shownNow(flow: CompiledFlow, review: string, input: FinalInput): Shown | Promise<Shown> | undefined {
  return flow.reviews.get(review)?.spec.show?.({ input: input.input, answers: input.answers, loaded: input.loaded });
}

/** Why a review's choice did not count: it named a step this conversation did not pass through. */
const NOT_ON_THE_WAY = 'that step was not part of this conversation, so there is nothing to change there';
/** Why a review is shown again: what it showed changed before the final action could run. */
const CHANGED = 'what was shown changed before it could be done; the new values are above';

/** What the guards and actions of a flow read: its forms, what the flow has seen on the way here, its checks and conditions. */
function flowReads(flow: CompiledFlow) {
  const formsOf = (step: string) => flow.formsOfStep.get(step) ?? [];
  const seen = (context: FlowContext) => ({
    input: context.input,
    answers: answersOnTrail(context, formsOf),
    loaded: loadedOnTrail(context),
  });
  // sync checks run as guards; async ones as the `check` actor (flow-work.ts)
  const reasonFor = (form: string, context: FlowContext, event: FlowEvent): string | undefined => {
    if (flow.reviews.has(form)) return NOT_ON_THE_WAY;
    const page = flow.pages.get(form);
    if (page) return notAPromise(page.check?.(seen(context)), `the check of page '${form}'`) ?? undefined;
    const check = flow.forms.get(form)?.spec.check;
    if (!check || !event.content) return undefined;
    return notAPromise(check({ answer: event.content, ...seen(context) }), `the check of '${form}'`) ?? undefined;
  };
  // the step before this one on the trail that asked something (loads are passed over)
  const askedBefore = (trail: readonly string[]) => [...trail.slice(0, -1)].reverse().find((step) => !flow.loads.has(step));
  // an answer kept from before a review's change, whose check no longer passes (the room is now too small)
  const keptAnswerReason = (form: string, context: FlowContext): string | undefined => {
    const answer = context.answers[form];
    return answer ? reasonFor(form, context, { type: `${form}.accept`, key: form, content: answer }) : undefined;
  };
  // a load's rules read its value from its done event, before it is kept: the load is the step entered last
  const withLoading = (values: Record<string, unknown>, context: FlowContext, event?: FlowEvent) => {
    const step = context.trail[context.trail.length - 1];
    const load = step === undefined ? undefined : flow.loads.get(step);
    if (load && event?.type === `xstate.done.actor.${load.run}`) values[step!] = event.output ?? null;
    return values;
  };
  // valuesOf gives a new object each call: the loading value is written into it
  const holds = (condition: Condition | undefined, context: FlowContext, event?: FlowEvent) =>
    condition === undefined || evaluateCondition(condition, withLoading(valuesOf(context, event), context, event));
  const chosen = (event: FlowEvent) => event.content?.choice;
  return { formsOf, seen, reasonFor, askedBefore, keptAnswerReason, holds, chosen };
}
type FlowReads = ReturnType<typeof flowReads>;

/** The named guards of every declared flow: exactly the names of FlowGuards, each reading its params from the map. */
function flowGuards(flow: CompiledFlow, { formsOf, reasonFor, askedBefore, keptAnswerReason, holds, chosen }: FlowReads) {
  return {
    when: ({ context, event }, { condition }) => holds(condition, context, event),
    answeredBefore: ({ context, event }, { step, condition }) =>
      context.reviewing && formsOf(step).every((form) => context.answers[form] !== undefined) && holds(condition, context, event),
    formAnsweredBefore: ({ context }, { form }) => context.reviewing && context.answers[form] !== undefined,
    // an answer given before (not skipped), to check again while reviewing
    keptAnswer: ({ context }, { form }) => context.reviewing && Boolean(context.answers[form]),
    checkRefused: ({ event }) => typeof event.output === 'string',
    keptAnswerFails: ({ context }, { forms = [] }) =>
      context.reviewing && forms.some((form) => keptAnswerReason(form, context) !== undefined),
    answerFails: ({ context, event }, { form }) => reasonFor(form, context, event) !== undefined,
    // a value a form asked to confirm changed before the final action could act (final-action.ts)
    confirmedChanged: ({ event }, { form }) => event.error instanceof ConfirmedValueChangedError && confirmedChanged(event.error, form),
    shownChanged: ({ context, event }, { step }) =>
      event.error instanceof ConfirmedValueChangedError && lastShowingReview(flow, context) === step,
    clientOpensPages: ({ context }) => context.client?.url === true,
    clientKnown: ({ context }) => context.client !== undefined,
    cameFrom: ({ context }, { step }) => askedBefore(context.trail) === step,
    reviewChoice: ({ context, event }, { option, condition }) => chosen(event) === option && holds(condition, context, event),
    changeStep: ({ context, event }, { step }) => chosen(event) === changeOption(step) && context.trail.includes(step),
  } satisfies GuardImplementations;
}

/** The named actions of every declared flow (FlowActions): the invoked work's (flow-work.ts) and these. */
function flowActions(flow: CompiledFlow, finalName: string, { formsOf, seen, reasonFor, keptAnswerReason }: FlowReads) {
  return {
    ...workActions(flow, formsOf),
    takeInput: assign(({ event }) => ({
      input: (event.input ?? {}) as Record<string, unknown>,
      answers: {},
      loaded: {},
      trail: [],
      problems: {},
      reviewing: false,
    })),
    enterStep: assign(({ context }, { step }) => ({ trail: enteredTrail(context.trail, step) })),
    store: assign(({ context, event }, { form }) => {
      const { [form]: _solved, ...problems } = context.problems;
      return {
        answers: { ...context.answers, [form]: event.content ?? {} },
        problems,
        ...withLastAnswer(context, form, event.content),
      };
    }),
    skipStep: assign(({ context }, { step }) => ({
      answers: { ...context.answers, ...Object.fromEntries(formsOf(step).map((form) => [form, null])) },
    })),
    skipForm: assign(({ context }, { form }) => ({ answers: { ...context.answers, [form]: null } })),
    forgetStep: assign(({ context }, { step }) => {
      const forget = new Set(formsOf(step));
      return { answers: Object.fromEntries(Object.entries(context.answers).filter(([form]) => !forget.has(form))) };
    }),
    dropFailingAnswers: assign(({ context }, { forms = [] }) => {
      const answers = { ...context.answers };
      const problems = { ...context.problems };
      for (const form of forms) {
        const reason = keptAnswerReason(form, context);
        if (reason === undefined) continue;
        delete answers[form];
        problems[form] = reason;
      }
      return { answers, problems };
    }),
    rememberProblem: assign(({ context, event }, { form }) => {
      // a refused answer is kept to fill the form in again; a review's choice is not
      const kept = flow.forms.has(form) ? withLastAnswer(context, form, event.content) : {};
      return { problems: { ...context.problems, [form]: reasonFor(form, context, event) ?? NOT_ON_THE_WAY }, ...kept };
    }),
    endFlow: assign(({ context }, { step, how, message }) => {
      // an `end` rule's message, rendered with what the flow knows now
      return { ended: message === undefined ? { step, how } : { step, how, message: renderText(message, valuesOf(context)) } };
    }),
    startReview: assign({ reviewing: true }),
    noteClient: assign(({ event }) => ({ client: event.elicitation })),
    noteShown: assign(({ context }, { step }) => {
      const shown = notAPromise(shownNow(flow, step, seen(context)), `the show of review '${step}'`);
      return { shown: { ...context.shown, [step]: shown ?? {} } };
    }),
    rememberChange: assign(({ context }, { step }) => ({ problems: { ...context.problems, [step]: CHANGED } })),
    keepResult: assign(({ context, event }) => {
      const output = event.output as FinishOutput;
      return { result: output.result, earlier: output.answers !== stableJson(answersOnTrail(context, formsOf)) };
    }),
    runFinal: spawnChild(finalName as 'finish', {
      id: finalName,
      input: ({ context }): FinishInput => {
        const review = lastShowingReview(flow, context);
        const base = seen(context);
        return review ? { ...base, review, shown: context.shown?.[review] ?? {} } : base;
      },
    }),
    stopFinal: stopChild(finalName),
    // the confirmed value changed: the form is asked again, without its answer (it confirmed the old value)
    forgetConfirmed: assign(({ context }, { form }) => {
      const { [form]: _answer, ...answers } = context.answers;
      const { [form]: _last, ...lastAnswers } = context.lastAnswers ?? {};
      return { answers, lastAnswers };
    }),
    // the tool words a failed final action (its `failed`): the error is kept for the result, this round only
    keepFailure: assign(({ event }) => ({ failure: event.error ?? null })),
    failFinal: ({ event }) => {
      throw event.error instanceof Error ? event.error : new Error(String(event.error));
    },
  } satisfies ActionImplementations<FinishActor>;
}

/**
 * The machine of a compiled flow: its JSON config with the shared implementations. `final` is the
 * declared final action; the flow's output is `{ status: 'done', result }` or `{ status: 'ended', … }`.
 */
export function flowMachine(flow: CompiledFlow, final: (input: FinalInput) => unknown): AnyStateMachine {
  // the final action runs as the actor (and effect) of this name: 'finish' unless the tool names it
  const finalName = finalNameOf(flow.config);
  const reads = flowReads(flow);
  const { formsOf, seen } = reads;
  const finishActor = fromPromise<FinishOutput, FinishInput>(async ({ input, system }) => ({
    // with finalInLedgerTransaction, the ledger's transaction it runs in too (never in the input: it is not sealed)
    result: await final({ input: input.input, answers: input.answers, loaded: input.loaded, ...finalTransaction(system) }),
    answers: stableJson(input.answers),
  }));
  const machineSetup = setup({
    types: { context: {} as FlowContext, events: {} as FlowEvent, input: {} as Record<string, unknown> },
    // typed here through their own signatures (flow-work.ts); the config names them as JSON
    actors: {
      ...(workActors(flow) as Record<never, never>),
      // the result is recorded with the answers it was made for, so a later round can tell a replay for other answers
      ...({ [finalName]: finishActor } as { finish: typeof finishActor }),
    },
    guards: flowGuards(flow, reads),
    actions: flowActions(flow, finalName, reads),
  });
  // the config is JSON made from the steps at run time, its references typed by the map (guard(), act()):
  // XState types a config written out in the code, so the engine checks this one when it compiles the
  // definition (every guard, action and actor named)
  return machineSetup.createMachine({
    ...withWorkInputs(flow.config, flow),
    output: ({ context }: { context: FlowContext }) =>
      context.failure === undefined ? outcomeOf(context, formsOf) : { status: 'failed', error: context.failure, ...seen(context) },
  } as Parameters<typeof machineSetup.createMachine>[0]);
}
