// The kinds of step a flow is made of, as a table: how each kind's parts are gathered, how it is checked
// against the whole flow and how its state is built. compileFlow knows no kind by name; it asks this table.
// A new kind is one file (its spec, its builder function and its StepKind, like step-kind-load.ts), its
// spec in the StepSpec union, and one line in STEP_KINDS below.
import type { FlowProblems } from './flow-checks.ts';
import type { FlowGraph, StepWays } from './flow-graph.ts';
import type { FormSpec, PageStep, ReviewStep, StepSpec } from './flow-spec.ts';
import type { StateBuilder, StateConfig } from './flow-transitions.ts';
import type { KnownPaths } from './known-paths.ts';
import type { Loader, LoadStep } from './load-spec.ts';
import { askKind } from './step-kind-ask.ts';
import { loadKind } from './step-kind-load.ts';
import { pageKind } from './step-kind-page.ts';
import { reviewKind } from './step-kind-review.ts';

/** What the steps of a flow declare, gathered step by step before the flow is checked as a whole. */
export interface FlowParts {
  /** Each form by name: the step asking it and its spec. */
  readonly forms: Map<string, { readonly step: string; readonly spec: FormSpec }>;
  /** The names each step's answers are kept under: its forms, a page's own name; none for a review or a load. */
  readonly formsOfStep: Map<string, string[]>;
  /** The check of each answer, by the name it is kept under (a form's, a page's). */
  readonly checks: Map<string, unknown>;
  /** The `show` of each review, by step. */
  readonly shows: Map<string, unknown>;
  /** Each review, with the steps it can send the user back to (known once the flow is built). */
  readonly reviews: Map<string, { readonly spec: ReviewStep; readonly changeable: readonly string[] }>;
  /** Each page step by name. */
  readonly pages: Map<string, PageStep>;
  /** Each load step by name. */
  readonly loads: Map<string, LoadStep>;
}

/** What the checks of one step know of the whole flow. */
export interface FlowFacts {
  readonly steps: Readonly<Record<string, StepSpec>>;
  readonly graph: FlowGraph;
  /** Every path the flow's conditions and messages may read. */
  readonly known: KnownPaths;
  readonly parts: FlowParts;
  /** The loaders the load steps run, by name (those that are functions). */
  readonly loaders: ReadonlyMap<string, Loader>;
}

/** One kind of step, for the step spec `S` (its `kind` is the key of this kind in STEP_KINDS). */
export interface StepKind<S extends StepSpec> {
  /** Gathers what the step declares into `parts` (its forms, checked; itself, for its kind's list). `p` adds under the step. */
  collect(p: FlowProblems, name: string, step: S, parts: FlowParts, steps: Readonly<Record<string, StepSpec>>): void;
  /**
   * Checks the step against the whole flow: its messages, ways of leaving and own parts (its `next` rules
   * are checked for every kind). `before` is what its messages can read; `p` adds under the step.
   */
  check(p: FlowProblems, f: FlowFacts, name: string, step: S, before: KnownPaths): void;
  /** The step asks nothing and takes no round (a load): going back passes over it. */
  readonly silent?: boolean;
  /** Steps (or 'finish') it can go to besides its `next` rules (a page's alternative). */
  exits?(step: S): readonly string[];
  /** The step's state config, once the flow has no problems; may record in `parts` what only the build knows. */
  build(b: StateBuilder, name: string, step: S, parts: FlowParts, steps: Readonly<Record<string, StepSpec>>): StateConfig;
}

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
