// The version of a declared flow: written into its machine config (XState's own `version`, so exported
// files and Stately show it), where the engine reads it to seal states and pick migrations.
import type { MachineMigrations } from '@roundtrip/engine';
import type { DeclaredFlow } from './declare-flow.ts';
import { type FinalInput, flowMachine } from './flow-setup.ts';

/** What every flow definition may say about the versions of its machine. */
export interface FlowVersioning {
  /**
   * The version of the flow's machine, sealed with every state. Change it when the steps change in a
   * way that states of the earlier version cannot simply continue, and add a migration from it.
   */
  readonly version?: string;
  /**
   * How states sealed by earlier versions continue, keyed by the version they were sealed under; each
   * step leads to a later version, the last to the current one. The state value is the step's name
   * (a form of a step with several is `{ step: { form: … } }`); the answers are in `context.answers`.
   */
  readonly migrations?: MachineMigrations;
}

/** The flow with `version` in its config and its machine, or the flow itself when it has none. */
export function withVersion(flow: DeclaredFlow, version: string | undefined, final: (input: FinalInput) => unknown): DeclaredFlow {
  if (version === undefined) return flow;
  const compiled = { ...flow.compiled, config: { ...flow.compiled.config, version } };
  return { ...flow, compiled, machine: flowMachine(compiled, final) };
}
