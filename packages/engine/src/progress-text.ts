// What a progress notification says when invoked work starts: the author's words for it, the
// `meta.progress` of the state doing the work, never the names of states or actors (those are the
// log's). The words may read the machine's context as question messages do (`Refunded {{done}} of {{count}}
// orders`), filled as the work starts and again as the context changes while it runs (a task's statusMessage).
// Work without words of its own is said to be going on, in general words.
import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode } from 'xstate';
import { renderTemplate } from './message-template.ts';

/** What progress says about work whose state (and every state around it) gives no `meta.progress`. */
const WORKING = 'Working…';

/** A state's own progress text: its `meta.progress` when that is text. */
function ownText(node: AnyStateNode): string | undefined {
  const text = (node.meta as { progress?: unknown } | undefined)?.progress;
  return typeof text === 'string' && text.trim() !== '' ? text : undefined;
}

/** The text of a state: its own, or that of the nearest state around it that has one. */
function textOf(node: AnyStateNode): string | undefined {
  for (let n: AnyStateNode | undefined = node; n; n = n.parent) {
    const text = ownText(n);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** Whether `node` is active in `snapshot` (matched by the partial state value of its path: `{ a: 'b' }` for a.b). */
function isActive(snapshot: AnyMachineSnapshot, node: AnyStateNode): boolean {
  const last = node.path[node.path.length - 1];
  if (last === undefined) return true;
  const value = node.path.slice(0, -1).reduceRight<string | Record<string, unknown>>((inner, key) => ({ [key]: inner }), last);
  return snapshot.matches(value as never);
}

interface MachineTexts {
  /** The states invoking each invoke id, with their text (none: the work has no words of its own). */
  readonly invokers: ReadonlyMap<string, ReadonlyArray<{ node: AnyStateNode; text: string | undefined }>>;
  /** The depth of each state with a text of its own, by state id: for work an action spawns. */
  readonly depths: ReadonlyMap<string, { depth: number; text: string }>;
}

const textsByMachine = new WeakMap<AnyStateMachine, MachineTexts>();

function machineTexts(machine: AnyStateMachine): MachineTexts {
  let texts = textsByMachine.get(machine);
  if (texts) return texts;
  const invokers = new Map<string, Array<{ node: AnyStateNode; text: string | undefined }>>();
  const depths = new Map<string, { depth: number; text: string }>();
  const visit = (node: AnyStateNode) => {
    const own = ownText(node);
    if (own !== undefined) depths.set(node.id, { depth: node.path.length, text: own });
    for (const invoke of node.invoke) invokers.set(invoke.id, [...(invokers.get(invoke.id) ?? []), { node, text: textOf(node) }]);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  texts = { invokers, depths };
  textsByMachine.set(machine, texts);
  return texts;
}

/**
 * What progress says as the child `id` of `snapshot` starts: the `meta.progress` of the state invoking
 * it (or of the nearest state around it that has one); for work an action spawned, that of the innermost
 * active state that has one; otherwise {@link WORKING}.
 */
export function progressText(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, id: string): string {
  return filled(authorText(machine, snapshot, id), snapshot);
}

function authorText(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, id: string): string | undefined {
  const { invokers, depths } = machineTexts(machine);
  const invoking = invokers.get(id);
  if (invoking !== undefined) {
    // one state invokes it (the usual case), or the active one among those sharing the id
    const state = invoking.length === 1 ? invoking[0] : invoking.find(({ node }) => isActive(snapshot, node));
    return state?.text;
  }
  if (depths.size === 0) return undefined;
  let innermost: { depth: number; text: string } | undefined;
  for (const stateId of Object.keys(snapshot.getMeta())) {
    const found = depths.get(stateId);
    if (found && (innermost === undefined || found.depth > innermost.depth)) innermost = found;
  }
  return innermost?.text;
}

/** The author's words with their `{{path}}` placeholders filled from context; general words when a value is missing. */
function filled(text: string | undefined, snapshot: AnyMachineSnapshot): string {
  if (text === undefined) return WORKING;
  if (!text.includes('{{')) return text;
  try {
    return renderTemplate(text, snapshot.context);
  } catch {
    return WORKING;
  }
}
