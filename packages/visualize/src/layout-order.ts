// Which transitions go back: found by walking the machine the way it runs (from the initial state,
// transitions in the config's order) and taking those that lead to a state still being walked. Laid out
// reversed, they leave the flow reading top to bottom; ELK's own cycle breaking does not know the order.
import type { MachineModel, StateModel } from './svg-model.ts';

/** The key of the edge from `source` to `target`. */
export const edgeKey = (source: string, target: string): string => JSON.stringify([source, target]);

const within = (id: string, ancestor: string) => id.startsWith(`${ancestor}.`);

/** The keys of the back edges: a transition to a state on the walk's path, neither inside the other. */
export function backEdges(model: MachineModel): Set<string> {
  const states = new Map<string, StateModel>();
  const index = (state: StateModel) => {
    states.set(state.id, state);
    state.children.forEach(index);
  };
  index(model.root);
  const outgoing = new Map<string, string[]>();
  for (const { source, target } of model.transitions) outgoing.set(source, [...(outgoing.get(source) ?? []), target]);

  const back = new Set<string>();
  const seen = new Set<string>();
  const onPath = new Set<string>();
  const walk = (state: StateModel) => {
    if (seen.has(state.id)) return;
    seen.add(state.id);
    onPath.add(state.id);
    // entering a state enters its initial child, or every region of a parallel state
    const entered = state.kind === 'parallel' ? state.children : state.children.filter((child) => child.id === state.initial);
    for (const child of entered) walk(child);
    for (const target of outgoing.get(state.id) ?? []) {
      const next = states.get(target);
      if (!next || target === state.id || within(target, state.id) || within(state.id, target)) continue;
      if (onPath.has(target)) back.add(edgeKey(state.id, target));
      else walk(next);
    }
    onPath.delete(state.id);
  };
  walk(model.root);
  // states no transition reaches, in the config's order
  for (const state of states.values()) walk(state);
  return back;
}
