// What checking and building a declared flow gives: the flow compiled (its machine config and each step by
// name, with what its kind compiled of it) and the flow declared (that, with its questions and machine).
// What a step does is its kind's (step-kinds.ts): every reader asks the kind of the step's spec.
import type { AnyQuestions } from '@roundtrip/engine';
import type { AnyStateMachine } from 'xstate';
import type { FlowGraph } from './flow-graph.ts';
import type { FormSpec, StepSpec } from './flow-spec.ts';
import type { Loader } from './load-spec.ts';

/** One step of a compiled flow: its spec (whose `kind` names its kind) and what every kind compiles of a step. */
export interface CompiledStep<S extends StepSpec = StepSpec> {
  readonly name: string;
  readonly spec: S;
  /** The forms it asks, by name, checked: an `ask`'s one form (named after the step), an `askAll`'s, a `choose`'s select. */
  readonly forms: ReadonlyMap<string, FormSpec>;
  /** The names its answers are kept under in `answers`: its forms, a page's own name; none for a review or a load. */
  readonly answers: readonly string[];
  /** The check of each answer, by the name it is kept under (a form's, a page's). */
  readonly checks: ReadonlyMap<string, unknown>;
}

/** A flow written as a machine config, and its steps, which its named guards, actions and actors read. */
export interface CompiledFlow {
  readonly machineId: string;
  /** The whole machine config: plain JSON. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Each step by name, in the flow's order. */
  readonly steps: ReadonlyMap<string, CompiledStep>;
  /** Each form by name, with the step asking it (from `steps`): what conditions, reviews and confirmed values read. */
  readonly forms: ReadonlyMap<string, { readonly step: string; readonly spec: FormSpec }>;
  /** Where each step can go, and which steps can lead to it. */
  readonly graph: FlowGraph;
  /** The loaders the load steps run, by name. */
  readonly loaders: ReadonlyMap<string, Loader>;
}

/** A flow checked and built: compiled, its questions named, its machine made (see declareFlow). */
export interface DeclaredFlow {
  readonly compiled: CompiledFlow;
  readonly questions: AnyQuestions;
  readonly machine: AnyStateMachine;
}
