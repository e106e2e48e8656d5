// The `load` kind of step: a loader runs by name and its value is kept under the step's name. It asks
// nothing and takes no round of its own.
import { checkLoadStep } from './flow-checks.ts';
import { loadState } from './invoked-states.ts';
import type { LoadStep } from './load-spec.ts';
import type { StepKind } from './step-kind-types.ts';

export const loadKind: StepKind<LoadStep> = {
  silent: true,

  collect(_p, name, step, parts) {
    parts.formsOfStep.set(name, []);
    parts.loads.set(name, step);
  },

  check: (p, f, _name, step, before) => checkLoadStep(p, step, f.loaders, f.known, before),

  build: (b, name, step) => loadState(b, name, step),
};
