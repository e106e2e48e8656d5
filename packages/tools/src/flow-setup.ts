// The one setup() behind every declared flow: the named guards, actions and the final actor that the
// JSON config refers to, those every flow shares here and each kind's own from its kind (step-kinds.ts).
// Only the answers' checks and the final action differ from flow to flow.
import { ConfirmedValueChangedError } from '@roundtrip/engine';
import { type AnyStateMachine, assign, fromPromise, type PromiseActorLogic, setup, spawnChild, stopChild } from 'xstate';
import type { CompiledFlow } from './compiled-flow.ts';
import { confirmedChanged, finalNameOf, finalTransaction } from './final-action.ts';
import type { FinalInput, FinishInput } from './final-input.ts';
import {
  answersOnTrail,
  enteredTrail,
  type FlowContext,
  type FlowEvent,
  outcomeOf,
  stableJson,
  valuesOf,
  withLastAnswer,
} from './flow-context.ts';
import type { ActionImplementations, GuardImplementations } from './flow-params.ts';
import { flowReads } from './flow-reads.ts';
import { withWorkInputs, workActions, workActors } from './flow-work.ts';
import { renderText } from './safe-text.ts';
import type { FlowReads } from './step-kind-types.ts';
import { type KindActionName, type KindGuardName, kindActions, kindGuards } from './step-kinds.ts';

/** What the final actor returns (and the effect ledger records): the result, and the answers it was made for. */
interface FinishOutput {
  readonly result: unknown;
  readonly answers: string;
}

/** The final action, as the actor setup() is given (under its own name at run time, see finalNameOf). */
type FinishActor = { src: 'finish'; logic: PromiseActorLogic<FinishOutput, FinishInput>; id: string | undefined };

/** Why an answer was refused when its check gave no reason the second time it ran (a check that changed its mind). */
const REFUSED = 'it does not fit';
/** Why a review is shown again: what it showed changed before the final action could run. */
const CHANGED = 'what was shown changed before it could be done; the new values are above';

/** The named guards every declared flow shares: with the kinds' own, exactly the names of FlowGuards, each reading its params from the map. */
function flowGuards({ formsOf, reasonFor, askedBefore, keptAnswerReason, holds, lastShowingStep }: FlowReads) {
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
    // what a step showed of the server's data (a review's `show`) changed before the final action could act
    shownChanged: ({ context, event }, { step }) => event.error instanceof ConfirmedValueChangedError && lastShowingStep(context) === step,
    cameFrom: ({ context }, { step }) => askedBefore(context.trail) === step,
  } satisfies Omit<GuardImplementations, KindGuardName>;
}

/** The named actions every declared flow shares (with the kinds' own, FlowActions): the invoked work's (flow-work.ts) and these. */
function flowActions(flow: CompiledFlow, finalName: string, { formsOf, seen, reasonFor, keptAnswerReason, lastShowingStep }: FlowReads) {
  return {
    ...workActions(),
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
      return { problems: { ...context.problems, [form]: reasonFor(form, context, event) ?? REFUSED }, ...kept };
    }),
    endFlow: assign(({ context }, { step, how, message }) => {
      // an `end` rule's message, rendered with what the flow knows now
      return { ended: message === undefined ? { step, how } : { step, how, message: renderText(message, valuesOf(context)) } };
    }),
    rememberChange: assign(({ context }, { step }) => ({ problems: { ...context.problems, [step]: CHANGED } })),
    keepResult: assign(({ context, event }) => {
      const output = event.output as FinishOutput;
      return { result: output.result, earlier: output.answers !== stableJson(answersOnTrail(context, formsOf)) };
    }),
    runFinal: spawnChild(finalName as 'finish', {
      id: finalName,
      input: ({ context }): FinishInput => {
        const review = lastShowingStep(context);
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
  } satisfies Omit<ActionImplementations<FinishActor>, KindActionName>;
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
    guards: { ...flowGuards(reads), ...kindGuards(flow, reads) } satisfies GuardImplementations,
    actions: { ...flowActions(flow, finalName, reads), ...kindActions(flow, reads) } satisfies ActionImplementations<FinishActor>,
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
