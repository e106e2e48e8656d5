// Reading a machine config written as JSON (the XState v5 config object, no functions): its states and
// every transition of a state, whatever its source (`on`, `always`, `after`, `onDone`, an invoke's
// `onDone`/`onError`), in one normalized shape. Shared by the Mermaid and the TypeScript generators.

/** An XState v5 machine config as plain JSON. */
export type MachineJson = Record<string, unknown>;

type Json = Readonly<Record<string, unknown>>;

export const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `undefined` and `null` as none, an array as its items, anything else as one item. */
export const listOf = (value: unknown): readonly unknown[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

/** The child states of a state (or of the machine), in the order written. */
export function childStates(state: Json): [string, Json][] {
  const states = state.states;
  return isRecord(states) ? Object.entries(states).filter((entry): entry is [string, Json] => isRecord(entry[1])) : [];
}

/** What makes a transition run. */
export type Trigger =
  | { readonly kind: 'event'; readonly event: string }
  | { readonly kind: 'always' }
  | { readonly kind: 'after'; readonly delay: string }
  | { readonly kind: 'done' }
  | { readonly kind: 'invokeDone' | 'invokeError'; readonly invoke: string };

/** One transition of a state, normalized: targets as written (`'room'`, `'.x'`, `'#id.a'`), none for a target-less one. */
export interface TransitionJson {
  readonly trigger: Trigger;
  readonly targets: readonly string[];
  /** The guard as written: a name, `{ type, params? }`, or undefined. */
  readonly guard: unknown;
  /** The actions as written: names and `{ type, params? }` objects. */
  readonly actions: readonly unknown[];
}

function normalize(trigger: Trigger, written: unknown): TransitionJson[] {
  const out: TransitionJson[] = [];
  for (const item of listOf(written)) {
    if (typeof item === 'string') out.push({ trigger, targets: [item], guard: undefined, actions: [] });
    else if (isRecord(item)) {
      const targets = listOf(item.target).filter((t): t is string => typeof t === 'string');
      out.push({ trigger, targets, guard: item.guard, actions: listOf(item.actions) });
    }
  }
  return out;
}

/** The name an invoke is known by in labels: its `id`, else its `src`. */
const invokeName = (invoke: Json, index: number): string =>
  typeof invoke.id === 'string' ? invoke.id : typeof invoke.src === 'string' ? invoke.src : `invoke ${index}`;

/** Every transition of one state (or of the machine itself), in a fixed order: on, always, after, onDone, invokes. */
export function transitionsOf(state: Json): TransitionJson[] {
  const out: TransitionJson[] = [];
  if (isRecord(state.on))
    for (const [event, written] of Object.entries(state.on)) out.push(...normalize({ kind: 'event', event }, written));
  out.push(...normalize({ kind: 'always' }, state.always));
  if (isRecord(state.after))
    for (const [delay, written] of Object.entries(state.after)) out.push(...normalize({ kind: 'after', delay }, written));
  out.push(...normalize({ kind: 'done' }, state.onDone));
  listOf(state.invoke).forEach((invoke, index) => {
    if (!isRecord(invoke)) return;
    const name = invokeName(invoke, index);
    out.push(...normalize({ kind: 'invokeDone', invoke: name }, invoke.onDone));
    out.push(...normalize({ kind: 'invokeError', invoke: name }, invoke.onError));
  });
  return out;
}

/** The name of a guard or an action as written (`'isValid'`, `{ type: 'store' }`), if it has one. */
export const nameOf = (written: unknown): string | undefined =>
  typeof written === 'string' ? written : isRecord(written) && typeof written.type === 'string' ? written.type : undefined;
