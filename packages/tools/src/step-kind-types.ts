// What one kind of step is (StepKind): everything a step of that kind does, from its definition's checks
// to its state, its questions, its work and its guards and actions, so a kind is one file (step-kind-*.ts)
// and one line of the table (step-kinds.ts). Also what a kind sees of the flow while compileFlow asks it
// (FlowFacts) and what its guards and actions read of a running flow (FlowReads).
import type { FormView, QuestionFallback } from '@roundtrip/engine';
import type { AnyActorLogic } from 'xstate';
import type { z } from 'zod';
import type { CompiledFlow, CompiledStep } from './compiled-flow.ts';
import type { Condition } from './conditions.ts';
import type { FlowProblems } from './flow-checks.ts';
import type { FlowContext, FlowEvent } from './flow-context.ts';
import type { FlowGraph } from './flow-graph.ts';
import type { ActionImplementations, ActionName, GuardImplementations, GuardName } from './flow-params.ts';
import type { ShowArgs, Shown, StepSpec } from './flow-spec.ts';
import type { StateBuilder, StateConfig } from './flow-transitions.ts';
import type { KnownPaths } from './known-paths.ts';
import type { Loader } from './load-spec.ts';
import type { NextRule } from './step-next.ts';

/** What a kind compiles of one step (the rest of a CompiledStep is its name and spec). */
type StepParts = Omit<CompiledStep, 'name' | 'spec'>;

/** What the checks of one step know of the whole flow. */
export interface FlowFacts {
  readonly steps: Readonly<Record<string, StepSpec>>;
  readonly graph: FlowGraph;
  /** Every path the flow's conditions and messages may read. */
  readonly known: KnownPaths;
  /** The loaders the load steps run, by name (those that are functions). */
  readonly loaders: ReadonlyMap<string, Loader>;
}

/** What a check of an answer sees: what the flow has seen on the way here, and the answer (none for a page). */
interface AnswerArgs extends ShowArgs {
  readonly answer?: Record<string, unknown> | undefined;
}

/** Why an answer does not fit (it is asked again with the reason), or undefined when it does. */
type CheckResult = string | undefined;

/** What a question's message, URL and form are rendered from. */
interface ContextArgs {
  readonly context: FlowContext;
}

/** One question of a flow for the engine: a form (its schema, and how it starts), or a page (its URL). */
export type FlowQuestion =
  | {
      message(args: ContextArgs): string;
      schema: z.ZodObject;
      form(args: ContextArgs): FormView;
      fallback?: QuestionFallback;
    }
  | { message(args: ContextArgs): string; url(args: ContextArgs): string };

/** What the guards and actions of a running flow read (flow-reads.ts), whatever the kind of its steps. */
export interface FlowReads {
  /** The names a step's answers are kept under. */
  formsOf(step: string): readonly string[];
  /** What the flow has seen on the way here: the input, the answers and the values loaded. */
  seen(context: FlowContext): ShowArgs & { readonly answers: Record<string, Record<string, unknown>> };
  /** Why the answer `event` gives to question `key` does not count, or undefined when it does. */
  reasonFor(key: string, context: FlowContext, event: FlowEvent): string | undefined;
  /** Why an answer kept from before a review's change no longer passes its check, or undefined. */
  keptAnswerReason(form: string, context: FlowContext): string | undefined;
  /** The step before the last one on the trail that asked something (loads are passed over). */
  askedBefore(trail: readonly string[]): string | undefined;
  /** Whether a condition holds now (none: it holds). */
  holds(condition: Condition | undefined, context: FlowContext, event?: FlowEvent): boolean;
  /** The option a review's answer chose. */
  chosen(event: FlowEvent): unknown;
  /** What step `step` shows of the server's data now (its kind's `shows`), or undefined. */
  shownNow(step: string, args: ShowArgs): Shown | Promise<Shown> | undefined;
  /** The last step on the way here that showed values from the server's data. */
  lastShowingStep(context: FlowContext): string | undefined;
}

/**
 * One kind of step, for the step spec `S` (its `kind` is the key of this kind in STEP_KINDS). `G` and `A`
 * are the names of the guards and actions only this kind's states use, which it implements.
 */
export interface StepKind<S extends StepSpec, G extends GuardName = never, A extends ActionName = never> {
  /** How an author makes a step of this kind, for the problem of a value that is no step (`ask({ … })`). */
  readonly madeWith: string;
  /**
   * What the step declares (its forms, checked, and the names its answers are kept under). `forms` are the
   * names of the forms of the steps before; `p` adds under the step.
   */
  collect(
    p: FlowProblems,
    name: string,
    step: S,
    forms: ReadonlyMap<string, unknown>,
    steps: Readonly<Record<string, StepSpec>>,
  ): StepParts;
  /**
   * Checks the step against the whole flow: its messages, ways of leaving and own parts (its `next` rules
   * are checked for every kind). `before` is what its messages can read; `p` adds under the step.
   */
  check(p: FlowProblems, f: FlowFacts, step: CompiledStep<S>, before: KnownPaths): void;
  /** The step asks nothing and takes no round (a load): going back passes over it, its value is kept under its name. */
  readonly silent?: boolean;
  /** A review can send the user back to the step to change its answers. */
  readonly changeable?: boolean;
  /** The flow learns each round whether the client can open pages (the engine's client event). */
  readonly needsClient?: boolean;
  /** How the step's check is named in an author's error (`page` → "the check of page 'pay'"). */
  readonly noun?: string;
  /** Steps (or 'finish') it can go to besides its `next` rules (a page's alternative). */
  exits?(step: S): readonly string[];
  /**
   * Its rules, derived from what it declares (a choice's options), instead of a `next` the author writes:
   * its own `check` then checks what they are made of, with problems where the author wrote it. Undefined
   * when it declares nothing to derive them from (a problem its check reports): it goes on as if without `next`.
   */
  rules?(name: string, step: S): readonly NextRule[] | undefined;
  /** The loaders it runs, by name. */
  loaders?(step: S): readonly string[];
  /** Its work may take long (the work of a task). */
  long?(step: S): boolean;
  /** The step's state config, once the flow has no problems. */
  build(b: StateBuilder, step: CompiledStep<S>): StateConfig;
  /** The questions it asks the engine, by key; `fallback` is the flow's default. */
  questions?(step: CompiledStep<S>, flow: CompiledFlow, fallback: QuestionFallback | undefined): Record<string, FlowQuestion>;
  /** The message template of each of its questions, by key. */
  templates?(step: CompiledStep<S>): Record<string, string>;
  /** Why the answer to its question `key` does not fit (its check), or undefined; async when the check is. */
  reason?(step: CompiledStep<S>, key: string, args: AnswerArgs): CheckResult | Promise<CheckResult>;
  /** Values it shows from the server's data, read again before the final action (a review's `show`). */
  shows?(step: S): ((args: ShowArgs) => Shown | Promise<Shown>) | undefined;
  /** The value `event` brings the step while it works, before it is kept (a load's done event), or undefined. */
  loading?(step: CompiledStep<S>, event: FlowEvent): { readonly value: unknown } | undefined;
  /** The guards only its states use. */
  guards?(flow: CompiledFlow, reads: FlowReads): Pick<GuardImplementations, G>;
  /** The actions only its states use. */
  actions?(flow: CompiledFlow, reads: FlowReads): Pick<ActionImplementations, A>;
  /** The actors its invoked work runs, by name. */
  actors?(flow: CompiledFlow): Record<string, AnyActorLogic>;
}
