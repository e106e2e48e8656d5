// The version of a declared flow: written into its machine config (XState's own `version`, so exported
// files and Stately show it), where the engine reads it to seal states and pick migrations.
import type { MachineMigrations, MigrationSnapshot } from '@roundtrip/engine';
import type { CompiledFlow, DeclaredFlow } from './compiled-flow.ts';
import type { FinalInput } from './final-input.ts';
import { flowMachine } from './flow-setup.ts';

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
   * (a form of a step with several is `{ step: { form: … } }`); the answers are in `context.answers`
   * by form name, and the steps taken so far in `context.trail`: a renamed step is renamed in all three.
   * A migrated state that names a step or form this version does not have is refused as outdated.
   */
  readonly migrations?: MachineMigrations;
}

/** The flow with `version` in its config and its machine, or the flow itself when it has none. */
export function withVersion(flow: DeclaredFlow, version: string | undefined, final: (input: FinalInput) => unknown): DeclaredFlow {
  if (version === undefined) return flow;
  const compiled = { ...flow.compiled, config: { ...flow.compiled.config, version } };
  return { ...flow, compiled, machine: flowMachine(compiled, final) };
}

/** Why a migrated flow context does not fit this version of the flow, or undefined when it does. */
function unfitContext(flow: CompiledFlow, s: MigrationSnapshot): string | undefined {
  const context = s.context as { trail?: unknown; answers?: unknown } | null;
  const trail = context?.trail;
  if (!Array.isArray(trail)) return 'context.trail is not a list of steps';
  const unknownStep = trail.find((step) => typeof step !== 'string' || !flow.steps.has(step));
  if (unknownStep !== undefined) return `context.trail names ${JSON.stringify(unknownStep)}, which is not a step of this version`;
  const answers = context?.answers;
  if (typeof answers !== 'object' || answers === null) return 'context.answers is not an object of answers by form';
  const forms = new Set([...flow.steps.values()].flatMap((step) => step.answers)); // a page's answer is kept under its name
  const unknownForm = Object.keys(answers).find((form) => !forms.has(form));
  if (unknownForm !== undefined) return `context.answers has '${unknownForm}', which is not a form of this version`;
  const step = typeof s.value === 'string' ? s.value : Object.keys(s.value)[0];
  if (step !== undefined && flow.steps.has(step) && trail[trail.length - 1] !== step)
    return `the state is at step '${step}', but context.trail ends at ${JSON.stringify(trail[trail.length - 1] ?? null)}`;
  return undefined;
}

/**
 * The author's migrations, each one that leads to the current version checked to leave a context this
 * flow can continue (steps and forms it has, the current step last on the trail); a misfit throws, so
 * the engine refuses the state as outdated and logs why, instead of continuing with answers lost.
 */
export function checkedMigrations(flow: CompiledFlow, version: string | undefined, migrations: MachineMigrations): MachineMigrations {
  const current = version ?? '0';
  const checked: Record<string, MachineMigrations[string]> = {};
  for (const [from, step] of Object.entries(migrations)) {
    // anything malformed goes to the engine unchanged, which reports it when the flow is defined
    if (typeof step !== 'object' || step === null || step.to !== current || typeof step.migrate !== 'function') {
      checked[from] = step;
      continue;
    }
    checked[from] = {
      to: step.to,
      migrate: (snapshot) => {
        const migrated = step.migrate(snapshot);
        const problem = typeof migrated === 'object' && migrated !== null ? unfitContext(flow, migrated) : undefined;
        if (problem) throw new Error(`${problem}.`);
        return migrated;
      },
    };
  }
  return checked;
}
