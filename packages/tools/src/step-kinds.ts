// The kinds of step a flow is made of, as a table: how each kind's parts are gathered, how it is checked
// against the whole flow and how its state is built. compileFlow knows no kind by name; it asks this table.
// A new kind is one file (its spec, its builder function and its StepKind, like step-kind-load.ts), its
// spec in the StepSpec union, and one line in STEP_KINDS below. What a kind is: step-kind-types.ts.
import type { StepWays } from './flow-graph.ts';
import type { StepSpec } from './flow-spec.ts';
import { askKind } from './step-kind-ask.ts';
import { loadKind } from './step-kind-load.ts';
import { pageKind } from './step-kind-page.ts';
import { reviewKind } from './step-kind-review.ts';
import type { FlowParts, StepKind } from './step-kind-types.ts';

type KindName = StepSpec['kind'];

/** Every kind of step, by the `kind` its builder function writes. */
const STEP_KINDS: { readonly [K in KindName]: StepKind<Extract<StepSpec, { kind: K }>> } = {
  ask: askKind,
  review: reviewKind,
  page: pageKind,
  load: loadKind,
};

/** The kind of a step, or undefined when it is not one (a value not made by a step builder). */
export function stepKindOf(step: unknown): StepKind<StepSpec> | undefined {
  const kind = (step as { kind?: unknown } | null | undefined)?.kind;
  return typeof kind === 'string' && Object.hasOwn(STEP_KINDS, kind) ? (STEP_KINDS[kind as KindName] as StepKind<StepSpec>) : undefined;
}

/** What the graph needs of a step of `steps` besides its `next` (nothing for a value that is not a step). */
export function stepWays(steps: Readonly<Record<string, StepSpec>>, name: string): StepWays {
  const step = steps[name];
  const kind = stepKindOf(step);
  return { silent: kind?.silent ?? false, exits: (kind && step && kind.exits?.(step)) ?? [] };
}

/** Parts with nothing gathered yet. */
export function emptyParts(): FlowParts {
  return {
    forms: new Map(),
    formsOfStep: new Map(),
    checks: new Map(),
    shows: new Map(),
    reviews: new Map(),
    pages: new Map(),
    loads: new Map(),
  };
}
