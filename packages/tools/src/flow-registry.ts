// The compiled flow behind each definition made by this package, for tests of the JSON and the testing
// entry; registering a flow also gives its definition the engine's presentation view.
import { setPresentation } from '@roundtrip/engine';
import type { AnyStateMachine } from 'xstate';
import type { DeclaredFlow } from './compiled-flow.ts';
import type { FinalInput } from './final-input.ts';
import { configCopy, flowPresentation, questionFields, questionTemplates } from './flow-presentation.ts';
import { flowMachine } from './flow-setup.ts';

interface Registered {
  readonly flow: DeclaredFlow;
  readonly final: (input: FinalInput) => unknown;
}

const registry = new WeakMap<object, Registered>();

export function registerFlow(definition: object, flow: DeclaredFlow, final: (input: FinalInput) => unknown): void {
  registry.set(definition, { flow, final });
  setPresentation(definition, () => flowPresentation(flow.compiled));
}

/**
 * Whether a definition is a declared flow (made with defineFlowTool, defineFlowPrompt or
 * defineFlowResource): only these have the flow* exports' JSON config, question templates and fields.
 */
export function isDeclaredFlow(definition: object): boolean {
  return registry.has(definition);
}

function registered(definition: object): Registered {
  const found = registry.get(definition);
  if (!found) throw new TypeError('Not a declared flow: make it with defineFlowTool, defineFlowPrompt or defineFlowResource.');
  return found;
}

/**
 * The machine config of a declared flow: plain JSON (states, transitions, named guards and actions with
 * JSON params, questions asked by name), ready for a file or Stately. A fresh copy on every call.
 */
export function flowMachineConfig(definition: object): Record<string, unknown> {
  return configCopy(registered(definition).flow.compiled);
}

/**
 * A machine made from a JSON config with the flow's own implementations (its guards, actions, checks
 * and final action): given the flow's config, the same machine the definition serves.
 */
export function flowMachineFrom(definition: object, config: Record<string, unknown>): AnyStateMachine {
  const { flow, final } = registered(definition);
  return flowMachine({ ...flow.compiled, config }, final);
}

/** The message template of each question of a declared flow (forms, reviews and pages), by question key. */
export function flowQuestionTemplates(definition: object): Record<string, string> {
  return questionTemplates(registered(definition).flow.compiled);
}

/** The titles of each form's fields, by question key (forms only: a review's choice and a page list none). */
export function flowQuestionFields(definition: object): Record<string, string[]> {
  return questionFields(registered(definition).flow.compiled);
}
