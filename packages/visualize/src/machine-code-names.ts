// What a machine config refers to by name, for the `setup({...})` of the generated code: the events its
// states take, and its guards, actions and actors (each with the param keys it is given), in the order
// they first appear. `xstate.*` names are kept: XState v5 looks a name written as a string up only in
// setup's implementations (its built-ins are functions, which JSON cannot hold), so they need stubs too.
import { childStates, isRecord, listOf, type MachineJson, nameOf, transitionsOf } from './machine-code-walk.ts';

type Json = Readonly<Record<string, unknown>>;

export interface NamedParts {
  /** Event types the states take: `on` keys; a wildcard (`tone.*`) only when no event it stands for is listed, so it typechecks. */
  readonly events: readonly string[];
  /** Guard name → the param keys it is given anywhere. */
  readonly guards: ReadonlyMap<string, readonly string[]>;
  /** Action name → the param keys it is given anywhere. */
  readonly actions: ReadonlyMap<string, readonly string[]>;
  /** Invoked actor names (`src`). */
  readonly actors: readonly string[];
}

function note(into: Map<string, string[]>, written: unknown): void {
  const name = nameOf(written);
  if (name === undefined) return;
  const keys = into.get(name) ?? [];
  if (isRecord(written) && isRecord(written.params)) for (const key of Object.keys(written.params)) if (!keys.includes(key)) keys.push(key);
  into.set(name, keys);
}

/** The names `config` uses, each once. */
export function namedParts(config: MachineJson): NamedParts {
  const events = new Set<string>();
  const guards = new Map<string, string[]>();
  const actions = new Map<string, string[]>();
  const actors = new Set<string>();
  const visit = (state: Json) => {
    for (const action of [...listOf(state.entry), ...listOf(state.exit)]) note(actions, action);
    if (isRecord(state.on)) for (const event of Object.keys(state.on)) if (event !== '*') events.add(event);
    for (const invoke of listOf(state.invoke)) {
      if (isRecord(invoke) && typeof invoke.src === 'string') actors.add(invoke.src);
    }
    for (const transition of transitionsOf(state)) {
      if (transition.guard !== undefined) note(guards, transition.guard);
      for (const action of transition.actions) note(actions, action);
    }
    for (const [, child] of childStates(state)) visit(child);
  };
  visit(config);
  const listed = [...events].filter((event) => !event.endsWith('.*'));
  const wildcardsAlone = (event: string) => !event.endsWith('.*') || !listed.some((e) => e.startsWith(event.slice(0, -1)));
  return { events: [...events].filter(wildcardsAlone), guards, actions, actors: [...actors] };
}
