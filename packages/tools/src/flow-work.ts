// The invoked work of a declared flow: its loaders (each an actor named after the loader), async checks
// and async shows, what each is given (read from the flow's context when it starts), and the actions
// that keep what they return. The config names them; this file implements the names.
import { firstNonJson } from '@roundtrip/engine';
import { type AnyActorLogic, assign, fromPromise, log } from 'xstate';
import type { CompiledFlow } from './compiled-flow.ts';
import { answersOnTrail, type FlowContext, loadedOnTrail, valuesOf, withLastAnswer } from './flow-context.ts';
import type { ActionImplementations } from './flow-params.ts';
import type { Shown } from './flow-spec.ts';
import { renderText } from './safe-text.ts';

type Params = Record<string, unknown>;

/** What every piece of invoked work is given: the input, the answers and the values loaded on the way here. */
interface WorkInput {
  readonly input: Record<string, unknown>;
  readonly answers: Record<string, Record<string, unknown>>;
  readonly loaded: Record<string, unknown>;
}
interface LoadInput extends WorkInput {
  readonly step: string;
}
interface CheckInput extends WorkInput {
  readonly form: string;
  readonly answer: Record<string, unknown>;
}
interface ShowInput extends WorkInput {
  readonly step: string;
}

const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The function was declared `async`: the flow runs it as an invoked actor, which the round waits for. */
export const isAsyncFunction = (fn: unknown): boolean =>
  typeof fn === 'function' && (fn as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'AsyncFunction';

/** For sync checks and shows run as guards and actions: a Promise there cannot be waited for. */
export function notAPromise<T>(value: T | Promise<T>, what: string): T {
  if (value instanceof Promise) {
    void value.catch(() => undefined);
    throw new TypeError(
      `${what} returned a Promise, but it is not declared async, so it ran where nothing can wait for it. Write it as an async function (async (…) => …): it then runs as an invoked actor the round waits for.`,
    );
  }
  return value;
}

/** Calls a loader, trying again as its step allows; throws the last error. */
async function runLoader(flow: CompiledFlow, { step, ...args }: LoadInput, signal: AbortSignal): Promise<unknown> {
  const spec = flow.loads.get(step)!;
  const loader = flow.loaders.get(spec.run)!;
  const tries = 1 + (spec.retries ?? 0);
  for (let attempt = 1; ; attempt++) {
    try {
      // the step's own earlier value is on the trail only when the flow came back to the step
      const previous = Object.hasOwn(args.loaded, step) ? args.loaded[step] : undefined;
      // Object.assign, not { ...args, signal, … }: on Node 20 that spread makes a hidden class per call
      // (BENCHMARKS.md, "Spreads on Node 20")
      return await loader(Object.assign({}, args, previous === undefined ? { signal, attempt } : { signal, attempt, previous }));
    } catch (error) {
      if (attempt >= tries || signal.aborted) throw error;
    }
  }
}

/** The actors of a flow's invoked work: one per loader (by its name), `check` and `show`. */
export function workActors(flow: CompiledFlow): Record<string, AnyActorLogic> {
  const actors: Record<string, AnyActorLogic> = {};
  for (const name of flow.loaders.keys())
    actors[name] = fromPromise<unknown, LoadInput>(({ input, signal }) => runLoader(flow, input, signal));
  actors.check = fromPromise<string | null, CheckInput>(async ({ input: { form, answer, ...args } }) => {
    const page = flow.pages.get(form);
    const reason = page ? await page.check?.(args) : await flow.forms.get(form)?.spec.check?.({ answer, ...args });
    return reason ?? null;
  });
  actors.show = fromPromise<Shown, ShowInput>(
    async ({ input: { step, ...args } }) => (await flow.reviews.get(step)?.spec.show?.(args)) ?? {},
  );
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
  const formsOf = (step: string) => flow.formsOfStep.get(step) ?? [];
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
          // given's names go onto the fresh base, not into a spread (BENCHMARKS.md, "Spreads on Node 20")
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

/** What the user reads when a load failed: the step's `onError` (a template, where {{error}} is the message, or a function). */
function failureMessage(flow: CompiledFlow, step: string, context: FlowContext, error: unknown, formsOf: (s: string) => readonly string[]) {
  const onError = flow.loads.get(step)?.onError;
  if (onError === undefined) return undefined;
  if (typeof onError === 'function') return String(onError({ error, ...workInput(context, formsOf) }));
  return renderText(onError, { ...valuesOf(context), error: messageOf(error) });
}

/** The named actions that keep what invoked work returned, and end the flow when a load failed. */
/** The actions workActions implements. */
type WorkActionName =
  | 'keepLoaded'
  | 'loadFailed'
  | 'logLoadFailure'
  | 'hold'
  | 'holdKept'
  | 'storeHeld'
  | 'rememberRefusal'
  | 'keepShown'
  | 'failStep';

export function workActions(flow: CompiledFlow, formsOf: (step: string) => readonly string[]): Pick<ActionImplementations, WorkActionName> {
  return {
    keepLoaded: assign(({ context, event }, { step }) => {
      const value = event.output === undefined ? null : event.output;
      const found = firstNonJson(value, 'result');
      if (found)
        throw new TypeError(
          `load step '${step}': loader '${flow.loads.get(step)?.run}' returned a value whose ${found.path} is ${found.what}; a loaded value is kept in the sealed state between rounds, so it must be plain JSON: ${found.fix}.`,
        );
      return { loaded: { ...context.loaded, [step]: value } };
    }),
    loadFailed: assign(({ context, event }, { step }) => {
      const message = failureMessage(flow, step, context, event.error, formsOf);
      return { ended: message === undefined ? { step, how: 'failed' as const } : { step, how: 'failed' as const, message } };
    }),
    // the user reads the step's message; the author reads why in the server's log
    logLoadFailure: log(({ event }, { step }) => {
      const spec = flow.loads.get(step);
      const tries = 1 + (spec?.retries ?? 0);
      return `load step '${step}': loader '${spec?.run}' failed (${tries === 1 ? 'one try' : `${tries} tries`}), so the flow ended: ${errorText(event.error)}`;
    }),
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
    keepShown: assign(({ context, event }, { step }) => ({
      shown: { ...context.shown, [step]: (event.output ?? {}) as Shown },
    })),
    failStep: ({ event }, { what }) => {
      throw new Error(`${what} failed: ${errorText(event.error)}`, { cause: event.error });
    },
  } satisfies Partial<ActionImplementations>;
}
