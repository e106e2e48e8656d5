// The one setup() behind every declared flow: the named guards, actions and the final actor that the
// JSON config refers to. Only the answers' checks and the final action differ from flow to flow.
import { type ClientEvent, ConfirmedValueChangedError } from '@roundtrip/engine';
import { type AnyStateMachine, assign, fromPromise, setup, spawnChild, stopChild } from 'xstate';
import type { CompiledFlow } from './compile-flow.ts';
import { type Condition, evaluateCondition } from './conditions.ts';
import { confirmedChanged, finalNameOf } from './final-action.ts';
import {
  answersOnTrail,
  type EndedHow,
  enteredTrail,
  type FlowContext,
  type FlowEvent,
  loadedOnTrail,
  outcomeOf,
  stableJson,
  valuesOf,
  withLastAnswer,
} from './flow-context.ts';
import type { Shown } from './flow-spec.ts';
import { changeOption } from './flow-states.ts';
import { notAPromise, withWorkInputs, workActions, workActors } from './flow-work.ts';
import { renderText } from './safe-text.ts';

/** What the final action receives. */
export interface FinalInput {
  readonly input: Record<string, unknown>;
  readonly answers: Record<string, Record<string, unknown>>;
  readonly loaded: Record<string, unknown>;
}

/** The final actor's input: the final action's, plus what the last review showed, to check again. */
export interface FinishInput extends FinalInput {
  readonly review?: string;
  readonly shown?: Shown;
}

/** What the final actor returns (and the effect ledger records): the result, and the answers it was made for. */
interface FinishOutput {
  readonly result: unknown;
  readonly answers: string;
}

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

type Params = Record<string, unknown>;
const param = (params: unknown, key: string): unknown => (params as Params)[key];

/**
 * The machine of a compiled flow: its JSON config with the shared implementations. `final` is the
 * declared final action; the flow's output is `{ status: 'done', result }` or `{ status: 'ended', … }`.
 */
export function flowMachine(flow: CompiledFlow, final: (input: FinalInput) => unknown): AnyStateMachine {
  // the final action runs as the actor (and effect) of this name: 'finish' unless the tool names it
  const finalName = finalNameOf(flow.config);
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
    return notAPromise(check({ answer: event.content as never, ...seen(context) }), `the check of '${form}'`) ?? undefined;
  };
  // the step before this one on the trail that asked something (loads are passed over)
  const askedBefore = (trail: readonly string[]) => [...trail.slice(0, -1)].reverse().find((step) => !flow.loads.has(step));
  // an answer kept from before a review's change, whose check no longer passes (the room is now too small)
  const keptAnswerReason = (form: string, context: FlowContext): string | undefined => {
    const answer = context.answers[form];
    return answer ? reasonFor(form, context, { type: `${form}.accept`, key: form, content: answer }) : undefined;
  };
  const formsParam = (params: unknown) => (param(params, 'forms') as string[] | undefined) ?? [];
  // a load's rules read its value from its done event, before it is kept: the load is the step entered last
  const loading = (context: FlowContext, event?: FlowEvent) => {
    const step = context.trail[context.trail.length - 1];
    const load = step === undefined ? undefined : flow.loads.get(step);
    return load && event?.type === `xstate.done.actor.${load.run}` ? { [step!]: event.output ?? null } : {};
  };
  const holds = (condition: unknown, context: FlowContext, event?: FlowEvent) =>
    condition === undefined || evaluateCondition(condition as Condition, { ...valuesOf(context, event), ...loading(context, event) });
  const chosen = (event: FlowEvent) => event.content?.choice;

  const finishActor = fromPromise<FinishOutput, FinishInput>(async ({ input }) => ({
    result: await final({ input: input.input, answers: input.answers, loaded: input.loaded }),
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
    guards: {
      when: ({ context, event }, params: Params) => holds(param(params, 'condition'), context, event),
      answeredBefore: ({ context, event }, params: Params) =>
        context.reviewing &&
        formsOf(String(param(params, 'step'))).every((form) => context.answers[form] !== undefined) &&
        holds(param(params, 'condition'), context, event),
      formAnsweredBefore: ({ context }, params: Params) =>
        context.reviewing && context.answers[String(param(params, 'form'))] !== undefined,
      // an answer given before (not skipped), to check again while reviewing
      keptAnswer: ({ context }, params: Params) => context.reviewing && Boolean(context.answers[String(param(params, 'form'))]),
      checkRefused: ({ event }) => typeof event.output === 'string',
      keptAnswerFails: ({ context }, params: Params) =>
        context.reviewing && formsParam(params).some((form) => keptAnswerReason(form, context) !== undefined),
      answerFails: ({ context, event }, params: Params) => reasonFor(String(param(params, 'form')), context, event) !== undefined,
      // a value a form asked to confirm changed before the final action could act (final-action.ts)
      confirmedChanged: ({ event }, params: Params) =>
        event.error instanceof ConfirmedValueChangedError && confirmedChanged(event.error, String(param(params, 'form'))),
      shownChanged: ({ context, event }, params: Params) =>
        event.error instanceof ConfirmedValueChangedError && lastShowingReview(flow, context) === param(params, 'step'),
      clientOpensPages: ({ context }) => context.client?.url === true,
      clientKnown: ({ context }) => context.client !== undefined,
      cameFrom: ({ context }, params: Params) => askedBefore(context.trail) === param(params, 'step'),
      reviewChoice: ({ context, event }, params: Params) =>
        chosen(event) === param(params, 'option') && holds(param(params, 'condition'), context, event),
      changeStep: ({ context, event }, params: Params) => {
        const step = String(param(params, 'step'));
        return chosen(event) === changeOption(step) && context.trail.includes(step);
      },
    },
    actions: {
      ...(workActions(flow, formsOf) as Record<never, never>),
      takeInput: assign(({ event }) => ({
        input: (event.input ?? {}) as Record<string, unknown>,
        answers: {},
        loaded: {},
        trail: [],
        problems: {},
        reviewing: false,
      })),
      enterStep: assign(({ context }, params: Params) => ({ trail: enteredTrail(context.trail, String(param(params, 'step'))) })),
      store: assign(({ context, event }, params: Params) => {
        const form = String(param(params, 'form'));
        const { [form]: _solved, ...problems } = context.problems;
        return {
          answers: { ...context.answers, [form]: event.content ?? {} },
          problems,
          ...withLastAnswer(context, form, event.content),
        };
      }),
      skipStep: assign(({ context }, params: Params) => ({
        answers: { ...context.answers, ...Object.fromEntries(formsOf(String(param(params, 'step'))).map((form) => [form, null])) },
      })),
      skipForm: assign(({ context }, params: Params) => ({ answers: { ...context.answers, [String(param(params, 'form'))]: null } })),
      forgetStep: assign(({ context }, params: Params) => {
        const forget = new Set(formsOf(String(param(params, 'step'))));
        return { answers: Object.fromEntries(Object.entries(context.answers).filter(([form]) => !forget.has(form))) };
      }),
      dropFailingAnswers: assign(({ context }, params: Params) => {
        const answers = { ...context.answers };
        const problems = { ...context.problems };
        for (const form of formsParam(params)) {
          const reason = keptAnswerReason(form, context);
          if (reason === undefined) continue;
          delete answers[form];
          problems[form] = reason;
        }
        return { answers, problems };
      }),
      rememberProblem: assign(({ context, event }, params: Params) => {
        const form = String(param(params, 'form'));
        // a refused answer is kept to fill the form in again; a review's choice is not
        const kept = flow.forms.has(form) ? withLastAnswer(context, form, event.content) : {};
        return { problems: { ...context.problems, [form]: reasonFor(form, context, event) ?? NOT_ON_THE_WAY }, ...kept };
      }),
      endFlow: assign(({ context }, params: Params) => {
        const ended = { step: String(param(params, 'step')), how: param(params, 'how') as EndedHow };
        // an `end` rule's message, rendered with what the flow knows now
        const message = param(params, 'message');
        return { ended: typeof message === 'string' ? { ...ended, message: renderText(message, valuesOf(context)) } : ended };
      }),
      startReview: assign({ reviewing: true }),
      noteClient: assign(({ event }) => ({ client: (event as unknown as ClientEvent).elicitation })),
      noteShown: assign(({ context }, params: Params) => {
        const step = String(param(params, 'step'));
        const shown = notAPromise(shownNow(flow, step, seen(context)), `the show of review '${step}'`);
        return { shown: { ...context.shown, [step]: shown ?? {} } };
      }),
      rememberChange: assign(({ context }, params: Params) => ({
        problems: { ...context.problems, [String(param(params, 'step'))]: CHANGED },
      })),
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
      forgetConfirmed: assign(({ context }, params: Params) => {
        const form = String(param(params, 'form'));
        const { [form]: _answer, ...answers } = context.answers;
        const { [form]: _last, ...lastAnswers } = context.lastAnswers ?? {};
        return { answers, lastAnswers };
      }),
      // the tool words a failed final action (its `failed`): the error is kept for the result, this round only
      keepFailure: assign(({ event }) => ({ failure: event.error ?? null })),
      failFinal: ({ event }) => {
        throw event.error instanceof Error ? event.error : new Error(String(event.error));
      },
    },
  });
  return machineSetup.createMachine({
    ...withWorkInputs(flow.config, flow),
    output: ({ context }: { context: FlowContext }) =>
      context.failure === undefined ? outcomeOf(context, formsOf) : { status: 'failed', error: context.failure, ...seen(context) },
  } as never) as unknown as AnyStateMachine;
}
