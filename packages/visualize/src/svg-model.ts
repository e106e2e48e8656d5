// A machine config (plain JSON) read into what the SVG drawing shows: the tree of states, and every
// transition with its source, its resolved target and its label. Transitions without a target stay in
// their state and are listed inside its box.
import { eventText, isRecord, transitionLabel } from './svg-labels.ts';

/** A machine config as plain JSON (XState v5): `id`, `initial`, `states`, `on`, `always`, `invoke`, `meta.ask`… */
export type MachineJson = Record<string, unknown>;

type StateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface StateModel {
  /** The state's path from the machine, joined by dots: `book_meeting.when`. Unique in the machine. */
  readonly id: string;
  readonly key: string;
  readonly kind: StateKind;
  /** A region of a parallel state. */
  readonly region: boolean;
  readonly children: StateModel[];
  /** The id of the initial child, for compound states that name one. */
  initial: string | undefined;
  /** Question keys asked in this state (`meta.ask`). */
  readonly asks: readonly string[];
  /** The `src` of each actor the state invokes. */
  readonly invokes: readonly string[];
  /** Labels of transitions that stay in this state (no target). */
  readonly stays: string[];
}

interface TransitionModel {
  readonly source: string;
  readonly target: string;
  readonly label: string;
}

export interface MachineModel {
  readonly root: StateModel;
  readonly transitions: readonly TransitionModel[];
}

interface Found {
  readonly state: StateModel;
  readonly json: Readonly<Record<string, unknown>>;
  readonly parent: StateModel | undefined;
}

const asList = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
const strings = (value: unknown): string[] => asList(value).filter((item): item is string => typeof item === 'string');

function kindOf(json: Readonly<Record<string, unknown>>): StateKind {
  if (json.type === 'parallel') return 'parallel';
  if (json.type === 'final') return 'final';
  if (json.type === 'history') return 'history';
  return isRecord(json.states) && Object.keys(json.states).length > 0 ? 'compound' : 'atomic';
}

/** Reads the tree of states, depth first, recording each state by path and by its own `id`. */
function readStates(config: MachineJson): { root: StateModel; all: Map<string, Found>; byId: Map<string, StateModel> } {
  const all = new Map<string, Found>();
  const byId = new Map<string, StateModel>();
  const read = (json: Readonly<Record<string, unknown>>, key: string, id: string, parent: StateModel | undefined): StateModel => {
    const meta = isRecord(json.meta) ? json.meta : {};
    const state: StateModel = {
      id,
      key,
      kind: kindOf(json),
      region: parent?.kind === 'parallel',
      children: [],
      initial: undefined,
      asks: strings(meta.ask),
      invokes: asList(json.invoke).flatMap((invoke) => (isRecord(invoke) && typeof invoke.src === 'string' ? [invoke.src] : [])),
      stays: [],
    };
    all.set(id, { state, json, parent });
    if (typeof json.id === 'string') byId.set(json.id, state);
    if (isRecord(json.states)) {
      for (const [childKey, child] of Object.entries(json.states)) {
        if (isRecord(child)) state.children.push(read(child, childKey, `${id}.${childKey}`, state));
      }
    }
    if (typeof json.initial === 'string' && state.kind === 'compound')
      state.initial = all.has(`${id}.${json.initial}`) ? `${id}.${json.initial}` : undefined;
    return state;
  };
  const machineId = typeof config.id === 'string' && config.id !== '' ? config.id : '(machine)';
  const root = read(config, machineId, machineId, undefined);
  byId.set(machineId, root);
  return { root, all, byId };
}

/** The states a transition of `source` goes to: siblings, `.child` paths and `#id.path` ids, as XState resolves them. */
function resolveTarget(target: string, source: Found, all: Map<string, Found>, byId: Map<string, StateModel>): string | undefined {
  const descend = (from: StateModel, path: string[]): string | undefined => {
    let id = from.id;
    for (const segment of path) {
      id = `${id}.${segment}`;
      if (!all.has(id)) return undefined;
    }
    return id;
  };
  if (target.startsWith('#')) {
    const [head = '', ...rest] = target.slice(1).split('.');
    const found = byId.get(head);
    return found ? descend(found, rest) : undefined;
  }
  if (target.startsWith('.')) return descend(source.state, target.slice(1).split('.'));
  return descend(source.parent ?? source.state, target.split('.'));
}

/** Every transition a state declares, as [event label, transition] pairs in the config's order. */
function declared(json: Readonly<Record<string, unknown>>): [string, unknown][] {
  const found: [string, unknown][] = [];
  const add = (label: string, value: unknown) => {
    for (const transition of asList(value)) found.push([label, transition]);
  };
  if (isRecord(json.on)) for (const [event, value] of Object.entries(json.on)) add(eventText(event), value);
  add('always', json.always);
  if (isRecord(json.after)) {
    for (const [delay, value] of Object.entries(json.after)) add(/^\d+$/.test(delay) ? `after ${delay}ms` : `after ${delay}`, value);
  }
  add('onDone', json.onDone);
  for (const invoke of asList(json.invoke)) {
    if (!isRecord(invoke)) continue;
    const name = typeof invoke.id === 'string' ? invoke.id : typeof invoke.src === 'string' ? invoke.src : 'invoke';
    add(`done: ${name}`, invoke.onDone);
    add(`error: ${name}`, invoke.onError);
    add(`snapshot: ${name}`, invoke.onSnapshot);
  }
  return found;
}

/**
 * The states and transitions of a machine config. Throws for a transition whose target names no state
 * of the machine, as XState does when it creates the machine.
 */
export function readMachine(config: MachineJson, conditions: Readonly<Record<string, string>> = {}): MachineModel {
  const { root, all, byId } = readStates(config);
  const transitions: TransitionModel[] = [];
  for (const found of all.values()) {
    for (const [event, transition] of declared(found.json)) {
      const spec = typeof transition === 'string' ? { target: transition } : isRecord(transition) ? transition : undefined;
      if (!spec) continue;
      const label = transitionLabel(event, spec.guard, conditions);
      const targets = strings(spec.target);
      if (targets.length === 0) found.state.stays.push(label);
      for (const target of targets) {
        const resolved = resolveTarget(target, found, all, byId);
        if (resolved === undefined) {
          throw new Error(
            `State '${found.state.id}' has a transition (${label}) to '${target}', which is no state of machine '${root.id}'.`,
          );
        }
        transitions.push({ source: found.state.id, target: resolved, label });
      }
    }
  }
  return { root, transitions };
}
