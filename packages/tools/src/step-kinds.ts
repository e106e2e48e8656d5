// The kinds of step a flow is made of, as a table. Nothing outside a kind's own file knows a kind by name:
// compileFlow, the questions, the machine's guards, actions and actors, the presentation and the checks
// of a tool's options ask the kind of each step through this table. A new kind is one file (its StepKind,
// like step-kind-load.ts), its spec in the StepSpec union, and one line in STEP_KINDS below. What a kind
// is: step-kind-types.ts.
import type { AnyActorLogic } from 'xstate';
import type { CompiledFlow } from './compiled-flow.ts';
import type { StepWays } from './flow-graph.ts';
import type { ActionImplementations, GuardImplementations } from './flow-params.ts';
import type { StepSpec } from './flow-spec.ts';
import { askKind } from './step-kind-ask.ts';
import { chooseKind } from './step-kind-choose.ts';
import { loadKind } from './step-kind-load.ts';
import { pageKind } from './step-kind-page.ts';
import { reviewKind } from './step-kind-review.ts';
import type { FlowReads, StepKind } from './step-kind-types.ts';

type KindName = StepSpec['kind'];

/** Every kind of step, by the `kind` its builder function writes. */
const STEP_KINDS = {
  ask: askKind,
  review: reviewKind,
  page: pageKind,
  load: loadKind,
  choose: chooseKind,
} satisfies { readonly [K in KindName]: StepKind<Extract<StepSpec, { kind: K }>> };

type Kinds = typeof STEP_KINDS;
type Returned<F> = F extends (...args: never[]) => infer R ? R : never;
/** The names of the guards and actions the kinds implement: the rest of the params map is flow-setup.ts's. */
export type KindGuardName = { [K in KindName]: keyof Returned<NonNullable<Kinds[K]['guards']>> }[KindName];
export type KindActionName = { [K in KindName]: keyof Returned<NonNullable<Kinds[K]['actions']>> }[KindName];

const kinds = Object.values(STEP_KINDS) as ReadonlyArray<StepKind<StepSpec>>;

/** How an author makes a step of each kind: `ask({ … }), askAll({ forms }), review({ … }) or load({ … })`. */
export const stepBuilders = (): string => {
  const made = kinds.map((kind) => kind.madeWith);
  return `${made.slice(0, -1).join(', ')} or ${made[made.length - 1]}`;
};

/** The kind of a step, or undefined when it is not one (a value not made by a step builder). */
export function stepKindOf(step: unknown): StepKind<StepSpec> | undefined {
  const kind = (step as { kind?: unknown } | null | undefined)?.kind;
  return typeof kind === 'string' && Object.hasOwn(STEP_KINDS, kind) ? (STEP_KINDS[kind as KindName] as StepKind<StepSpec>) : undefined;
}

/** The kind of a step of a compiled flow (every one has a kind: compileFlow refuses the others). */
export const kindOf = (step: StepSpec): StepKind<StepSpec> => stepKindOf(step)!;

/** What the graph needs of a step of `steps` besides its `next` (nothing for a value that is not a step). */
export function stepWays(steps: Readonly<Record<string, StepSpec>>, name: string): StepWays {
  const step = steps[name];
  const kind = stepKindOf(step);
  return {
    silent: kind?.silent ?? false,
    exits: (kind && step && kind.exits?.(step)) ?? [],
    changeable: kind?.changeable ?? false,
    rules: kind && step ? kind.rules?.(name, step) : undefined,
  };
}

/** The guards the kinds implement, for every flow (a flow without a step of a kind never names its guards). */
export function kindGuards(flow: CompiledFlow, reads: FlowReads): Pick<GuardImplementations, KindGuardName> {
  return Object.assign({}, ...kinds.map((kind) => kind.guards?.(flow, reads))) as Pick<GuardImplementations, KindGuardName>;
}

/** The actions the kinds implement, for every flow. */
export function kindActions(flow: CompiledFlow, reads: FlowReads): Pick<ActionImplementations, KindActionName> {
  return Object.assign({}, ...kinds.map((kind) => kind.actions?.(flow, reads))) as Pick<ActionImplementations, KindActionName>;
}

/** The actors the kinds' invoked work runs (a load's loaders, a review's show), for every flow. */
export function kindActors(flow: CompiledFlow): Record<string, AnyActorLogic> {
  return Object.assign({}, ...kinds.map((kind) => kind.actors?.(flow))) as Record<string, AnyActorLogic>;
}
