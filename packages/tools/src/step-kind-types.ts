// What one kind of step is (StepKind: how its parts are gathered, how it is checked against the whole flow,
// how its state is built) and what it sees of the flow while compileFlow asks it: the parts the steps
// declare (FlowParts) and the facts of the whole flow (FlowFacts). The kinds themselves: step-kinds.ts.
import type { FlowProblems } from './flow-checks.ts';
import type { FlowGraph } from './flow-graph.ts';
import type { FormSpec, PageStep, ReviewStep, StepSpec } from './flow-spec.ts';
import type { StateBuilder, StateConfig } from './flow-transitions.ts';
import type { KnownPaths } from './known-paths.ts';
import type { Loader, LoadStep } from './load-spec.ts';

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
