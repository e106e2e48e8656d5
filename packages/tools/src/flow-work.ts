// The invoked work every declared flow shares: the async check of an answer (its step's kind checks it),
// what each piece of work is given (read from the flow's context when it starts), and the actions that
// hold an answer while it is checked. The work of one kind (a load's loader, a review's show) is its
// kind's (step-kinds.ts). The config names them; this file and the kinds implement the names.
import { type AnyActorLogic, assign, fromPromise } from 'xstate';
import { errorText } from './async-functions.ts';
import type { CompiledFlow } from './compiled-flow.ts';
import { answersOnTrail, type FlowContext, loadedOnTrail, withLastAnswer } from './flow-context.ts';
import type { ActionImplementations } from './flow-params.ts';
import { askingStep } from './flow-reads.ts';
import { kindActors, kindOf } from './step-kinds.ts';

type Params = Record<string, unknown>;

/** What every piece of invoked work is given: the input, the answers and the values loaded on the way here. */
interface WorkInput {
  readonly input: Record<string, unknown>;
  readonly answers: Record<string, Record<string, unknown>>;
  readonly loaded: Record<string, unknown>;
}
interface CheckInput extends WorkInput {
  readonly form: string;
  readonly answer: Record<string, unknown>;
}

/** The actors of a flow's invoked work: `check`, and its kinds' (one per loader, `show`). */
export function workActors(flow: CompiledFlow): Record<string, AnyActorLogic> {
  const actors = kindActors(flow);
  actors.check = fromPromise<string | null, CheckInput>(async ({ input: { form, answer, ...args } }) => {
    const step = askingStep(flow, form);
    const reason = step ? await kindOf(step.spec).reason?.(step, form, { answer, ...args }) : undefined;
    return reason ?? null;
  });
  return actors;
}

const workInput = (context: FlowContext, formsOf: (step: string) => readonly string[]): WorkInput => ({
  input: context.input,
  answers: answersOnTrail(context, formsOf),
  loaded: loadedOnTrail(context),
});

/**
 * The machine config with each invoke of a loader, `check` or `show` given its input from the context
 * when it starts (the JSON config names only the step or form). Returns a copy; the JSON is not changed.
 */
export function withWorkInputs(config: Readonly<Record<string, unknown>>, flow: CompiledFlow): Record<string, unknown> {
  const formsOf = (step: string) => flow.steps.get(step)?.answers ?? [];
  const mapState = (state: unknown): unknown => {
    if (typeof state !== 'object' || state === null) return state;
    const { invoke, states, ...rest } = state as Record<string, unknown>;
    const out: Record<string, unknown> = { ...rest };
    if (states && typeof states === 'object')
      out.states = Object.fromEntries(Object.entries(states).map(([key, child]) => [key, mapState(child)]));
    if (invoke && typeof invoke === 'object') {
      const given = (invoke as { input?: Params }).input ?? {};
      out.invoke = {
        ...invoke,
        input: ({ context }: { context: FlowContext }) => {
          // given's names go onto the fresh base, not into a spread (BENCHMARKS.md, "The tail's GC pauses")
          const base = workInput(context, formsOf);
          if ('form' in given) return Object.assign(base, { form: given.form, answer: context.held?.[String(given.form)] ?? {} });
          return Object.assign(base, given);
        },
      };
    }
    return out;
  };
  return mapState(config) as Record<string, unknown>;
}

/** The actions workActions implements. */
type WorkActionName = 'hold' | 'holdKept' | 'storeHeld' | 'rememberRefusal' | 'failStep';

/** The named actions that hold an answer while its async check runs, keep it or refuse it, and fail a round when work failed. */
export function workActions(): Pick<ActionImplementations, WorkActionName> {
  return {
    hold: assign(({ context, event }, { form }) => ({
      held: { ...context.held, [form]: event.content ?? {} },
      ...withLastAnswer(context, form, event.content),
    })),
    holdKept: assign(({ context }, { form }) => {
      return { held: { ...context.held, [form]: context.answers[form] ?? {} } };
    }),
    storeHeld: assign(({ context }, { form }) => {
      const { [form]: answer, ...held } = context.held ?? {};
      const { [form]: _solved, ...problems } = context.problems;
      return { answers: { ...context.answers, [form]: answer ?? {} }, held, problems };
    }),
    rememberRefusal: assign(({ context, event }, { form }) => {
      const { [form]: _refused, ...held } = context.held ?? {};
      const { [form]: _kept, ...answers } = context.answers;
      return { answers, held, problems: { ...context.problems, [form]: String(event.output) } };
    }),
    failStep: ({ event }, { what }) => {
      throw new Error(`${what} failed: ${errorText(event.error)}`, { cause: event.error });
    },
  } satisfies Partial<ActionImplementations>;
}
