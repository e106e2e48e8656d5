// The states of a machine config as a tree for a Mermaid diagram: each with a unique Mermaid id (state
// names repeat across regions, and ids are global in Mermaid) and transition targets resolved the way
// XState resolves them (sibling names, `.child` paths, `#id.path`).
import { childStates, isRecord, type MachineJson } from './machine-code-walk.ts';

type Json = Readonly<Record<string, unknown>>;

export interface DiagramState {
  /** The state's key (the machine's id for the root). */
  readonly key: string;
  /** Its Mermaid id: word characters only, unique in the diagram. */
  readonly id: string;
  readonly json: Json;
  readonly parent: DiagramState | undefined;
  readonly children: DiagramState[];
}

export interface DiagramTree {
  readonly root: DiagramState;
  /** Every state but the root, parents before children, in the order written. */
  readonly states: readonly DiagramState[];
}

// words Mermaid's state-diagram lexer reads as keywords where a state id stands (`default` even as a prefix)
const RESERVED = /^(default.*|note|class|classdef|scale|state|statediagram|hide|acctitle|accdescr|direction|end|as)$/i;

/** Makes ids from state paths: each key's word characters, keys joined by `_`, a number added to repeats. */
function idMaker(): (path: readonly string[]) => string {
  const taken = new Set<string>();
  const word = (key: string) => key.replace(/\W+/g, '_').replace(/^_+|_+$/g, '');
  return (path) => {
    let base = path.map(word).filter(Boolean).join('_') || 'state';
    if (RESERVED.test(base)) base = `s_${base}`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    return id;
  };
}

/** The states of `config` with their Mermaid ids. */
export function readTree(config: MachineJson): DiagramTree {
  const makeId = idMaker();
  const machineId = typeof config.id === 'string' && config.id !== '' ? config.id : 'machine';
  // the root's id is drawn only when the machine is wrapped as one composite state: its states come first
  const root: { -readonly [K in keyof DiagramState]: DiagramState[K] } = {
    key: machineId,
    id: '',
    json: config,
    parent: undefined,
    children: [],
  };
  const states: DiagramState[] = [];
  const add = (parent: DiagramState, path: readonly string[]) => {
    for (const [key, json] of childStates(parent.json)) {
      const state: DiagramState = { key, id: makeId([...path, key]), json, parent, children: [] };
      parent.children.push(state);
      states.push(state);
      add(state, [...path, key]);
    }
  };
  add(root, []);
  root.id = makeId([machineId]);
  return { root, states };
}

const descend = (from: DiagramState | undefined, path: readonly string[]): DiagramState | undefined =>
  path.reduce<DiagramState | undefined>((state, key) => state?.children.find((child) => child.key === key), from);

/** States by every id a `#id` target may start with: the machine's, custom `id`s and the default `machine.path` ids. */
export function idIndex(tree: DiagramTree): ReadonlyMap<string, DiagramState> {
  const byId = new Map<string, DiagramState>([[tree.root.key, tree.root]]);
  const walk = (state: DiagramState, fullId: string) => {
    for (const child of state.children) {
      const defaultId = `${fullId}.${child.key}`;
      if (!byId.has(defaultId)) byId.set(defaultId, child);
      walk(child, defaultId);
    }
  };
  walk(tree.root, tree.root.key);
  // a custom id wins over a default one that happens to read the same
  for (const state of tree.states) if (typeof state.json.id === 'string') byId.set(state.json.id, state);
  return byId;
}

/** The state a target of `source` names, or undefined when no state has that name. */
export function resolveTarget(source: DiagramState, target: string, byId: ReadonlyMap<string, DiagramState>): DiagramState | undefined {
  if (target.startsWith('#')) {
    const segments = target.slice(1).split('.');
    // ids may hold dots: the longest id that names a state, then the path below it
    for (let n = segments.length; n > 0; n--) {
      const state = byId.get(segments.slice(0, n).join('.'));
      if (state) return descend(state, segments.slice(n));
    }
    return undefined;
  }
  if (target.startsWith('.')) return descend(source, target.slice(1).split('.'));
  return source.parent ? descend(source.parent, target.split('.')) : undefined;
}

/** The initial child of a compound state, if it names one. */
export function initialChild(state: DiagramState): DiagramState | undefined {
  const initial = state.json.initial;
  const target = isRecord(initial) ? initial.target : initial;
  return typeof target === 'string' ? descend(state, target.replace(/^\./, '').split('.')) : undefined;
}
