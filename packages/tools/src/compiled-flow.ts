// What checking and building a declared flow gives: the flow compiled (its machine config and the named
// parts its guards, actions and actors read) and the flow declared (that, with its questions and machine).
import type { AnyQuestions } from '@roundtrip/engine';
import type { AnyStateMachine } from 'xstate';
import type { FormSpec, PageStep, ReviewStep } from './flow-spec.ts';
import type { Loader, LoadStep } from './load-spec.ts';

/** A flow written as a machine config, and what its named parts need to know. */
export interface CompiledFlow {
  readonly machineId: string;
  /** The whole machine config: plain JSON. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Each form by name: the step asking it and its spec. */
  readonly forms: ReadonlyMap<string, { readonly step: string; readonly spec: FormSpec }>;
  /** The forms of each step (none for a review or a load). */
  readonly formsOfStep: ReadonlyMap<string, readonly string[]>;
  /** Each review by name, with the steps it can send the user back to. */
  readonly reviews: ReadonlyMap<string, { readonly spec: ReviewStep; readonly changeable: readonly string[] }>;
  /** Each page step by name. */
  readonly pages: ReadonlyMap<string, PageStep>;
  /** Each load step by name. */
  readonly loads: ReadonlyMap<string, LoadStep>;
  /** The loaders the load steps run, by name. */
  readonly loaders: ReadonlyMap<string, Loader>;
}

/** A flow checked and built: compiled, its questions named, its machine made (see declareFlow). */
export interface DeclaredFlow {
  readonly compiled: CompiledFlow;
  readonly questions: AnyQuestions;
  readonly machine: AnyStateMachine;
}
