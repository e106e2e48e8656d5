// The `load` kind of step: a loader runs by name (an invoked actor named after it) and its value is kept
// under the step's name. It asks nothing and takes no round of its own; when the loader fails (after its
// retries), the flow ends with the step's message and the log says why.
import { firstNonJson } from '@roundtrip/engine';
import { type AnyActorLogic, assign, fromPromise, log } from 'xstate';
import { errorText } from './async-functions.ts';
import type { CompiledFlow } from './compiled-flow.ts';
import { checkLoadStep } from './flow-checks.ts';
import { valuesOf } from './flow-context.ts';
import type { ShowArgs } from './flow-spec.ts';
import { act, ENDED, json, ruleTransitions, type StateBuilder, type StateConfig } from './flow-transitions.ts';
import { WORK_WORDS } from './invoked-states.ts';
import type { LoadStep } from './load-spec.ts';
import { renderText } from './safe-text.ts';
import type { StepKind } from './step-kind-types.ts';

/** What a loader's actor is given: what the flow has seen, and the load step it runs for. */
interface LoadInput extends ShowArgs {
  readonly step: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The spec of load step `name`. */
const loadOf = (flow: CompiledFlow, name: string): LoadStep | undefined => {
  const spec = flow.steps.get(name)?.spec;
  return spec?.kind === 'load' ? spec : undefined;
};

/** A load step: its loader runs on entry; once done, the value is kept and the rules (which may read it) lead on. */
function loadState(b: StateBuilder, name: string, step: LoadStep): StateConfig {
  const rules = b.graph.rules.get(name)!;
  return {
    entry: [act('enterStep', { step: name })],
    // a long load is the work of a task (meta is not structure: marking it keeps states sealed before valid)
    meta: { progress: step.progress ?? WORK_WORDS.load, ...(step.long === true && { long: true }) },
    invoke: {
      // named after its loader, so diagrams say what runs (progress says the step's words); the loader's
      // input is the flow's
      id: step.run,
      src: step.run,
      input: { step: name },
      // the rules' conditions read the value from the done event, before it is kept
      onDone: json(ruleTransitions(b, name, rules, false, [act('keepLoaded', { step: name })])),
      // after the loader's own retries: the flow ends with the step's message, and the log says why
      onError: { target: ENDED, actions: [act('logLoadFailure', { step: name }), act('loadFailed', { step: name })] },
    },
  } as StateConfig;
}

/** Calls a loader, trying again as its step allows; throws the last error. */
async function runLoader(flow: CompiledFlow, { step, ...args }: LoadInput, signal: AbortSignal): Promise<unknown> {
  const spec = loadOf(flow, step)!;
  const loader = flow.loaders.get(spec.run)!;
  const tries = 1 + (spec.retries ?? 0);
  for (let attempt = 1; ; attempt++) {
    try {
      // the step's own earlier value is on the trail only when the flow came back to the step
      const previous = Object.hasOwn(args.loaded, step) ? args.loaded[step] : undefined;
      // Object.assign, not { ...args, signal, … }: on Node 20 that spread makes a hidden class per call
      // (BENCHMARKS.md, "The tail's GC pauses")
      return await loader(Object.assign({}, args, previous === undefined ? { signal, attempt } : { signal, attempt, previous }));
    } catch (error) {
      if (attempt >= tries || signal.aborted) throw error;
    }
  }
}

export const loadKind: StepKind<LoadStep, never, 'keepLoaded' | 'loadFailed' | 'logLoadFailure'> = {
  madeWith: 'load({ … })',
  silent: true,

  collect: () => ({ forms: new Map(), answers: [], checks: new Map() }),

  check: (p, f, { spec }, before) => checkLoadStep(p, spec, f.loaders, f.known, before),

  loaders: (step) => [step.run],

  long: (step) => step.long === true,

  build: (b, { name, spec }) => loadState(b, name, spec),

  // its rules read the value from the loader's done event, before it is kept
  loading: ({ spec }, event) => (event.type === `xstate.done.actor.${spec.run}` ? { value: event.output ?? null } : undefined),

  actions: (flow, { seen }) => ({
    keepLoaded: assign(({ context, event }, { step }) => {
      const value = event.output === undefined ? null : event.output;
      const found = firstNonJson(value, 'result');
      if (found)
        throw new TypeError(
          `load step '${step}': loader '${loadOf(flow, step)?.run}' returned a value whose ${found.path} is ${found.what}; a loaded value is kept in the sealed state between rounds, so it must be plain JSON: ${found.fix}.`,
        );
      return { loaded: { ...context.loaded, [step]: value } };
    }),
    // what the user reads: the step's `onError` (a template, where {{error}} is the message, or a function)
    loadFailed: assign(({ context, event }, { step }) => {
      const onError = loadOf(flow, step)?.onError;
      const message =
        onError === undefined
          ? undefined
          : typeof onError === 'function'
            ? String(onError({ error: event.error, ...seen(context) }))
            : renderText(onError, { ...valuesOf(context), error: messageOf(event.error) });
      return { ended: message === undefined ? { step, how: 'failed' as const } : { step, how: 'failed' as const, message } };
    }),
    // the user reads the step's message; the author reads why in the server's log
    logLoadFailure: log(({ event }, { step }) => {
      const spec = loadOf(flow, step);
      const tries = 1 + (spec?.retries ?? 0);
      return `load step '${step}': loader '${spec?.run}' failed (${tries === 1 ? 'one try' : `${tries} tries`}), so the flow ended: ${errorText(event.error)}`;
    }),
  }),

  // one actor per loader, named after it: the loader's input is the flow's
  actors(flow) {
    const actors: Record<string, AnyActorLogic> = {};
    for (const name of flow.loaders.keys())
      actors[name] = fromPromise<unknown, LoadInput>(({ input, signal }) => runLoader(flow, input, signal));
    return actors;
  },
};
