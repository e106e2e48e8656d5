// What a declared flow's diagram shows people: its steps and the ways an answer moves between them,
// without the engine's own edges (passing answered steps through while reviewing, dropping kept answers
// whose check fails now), and going back drawn as one `back` edge per step before.
import type { GuardName } from './flow-params.ts';

/** Guards of transitions the engine takes by itself, never on the user's word. */
const INTERNAL: ReadonlySet<unknown> = new Set<GuardName>(['answeredBefore', 'formAnsweredBefore', 'keptAnswer', 'keptAnswerFails']);
/** The guard of going back to a step before: drawn as `back`. */
const CAME_FROM: GuardName = 'cameFrom';

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const guardType = (t: unknown) => (isRecord(t) && isRecord(t.guard) ? t.guard.type : undefined);

/** The transitions of one event (or `always`) as people see them; undefined when none is left. */
function shown(transitions: unknown): unknown {
  const list = Array.isArray(transitions) ? transitions : [transitions];
  const kept = list
    .filter((t) => !INTERNAL.has(guardType(t)))
    .map((t) => (guardType(t) === CAME_FROM ? { ...(t as Json), guard: { type: 'back' } } : t));
  if (kept.length === 0) return undefined;
  return Array.isArray(transitions) ? kept : kept[0];
}

function stateView(state: Json): Json {
  const out: Json = { ...state };
  if (isRecord(state.on)) {
    const on: Json = {};
    for (const [event, transitions] of Object.entries(state.on)) {
      const kept = shown(transitions);
      if (kept !== undefined) on[event] = kept;
    }
    out.on = on;
  }
  for (const key of ['always', 'onDone'] as const) {
    if (state[key] === undefined) continue;
    const kept = shown(state[key]);
    if (kept === undefined) delete out[key];
    else out[key] = kept;
  }
  if (isRecord(state.states))
    out.states = Object.fromEntries(Object.entries(state.states).map(([k, s]) => [k, isRecord(s) ? stateView(s) : s]));
  return out;
}

/**
 * The machine config of a declared flow as a diagram for people shows it: the engine's internal edges
 * left out (`answeredBefore`, `formAnsweredBefore`, `keptAnswer`, `keptAnswerFails`), `cameFrom` drawn as
 * `back`. Not a machine to run: draw `flowMachineConfig` for every edge.
 */
export function flowUserView(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return stateView(config as Json);
}
