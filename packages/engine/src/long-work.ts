// Long work (tasks, SEP-2663): what a state marked `meta: { long: true }` invokes, and every invoke in the
// states inside it. A round of a tool that answers tasks, whose machine waits on long work only, answers a task.
import type { AnyActorRef, AnyMachineSnapshot, AnyStateMachine, AnyStateNode } from 'xstate';
import { progressText } from './progress-text.ts';

const longByMachine = new WeakMap<AnyStateMachine, ReadonlySet<string>>();

/** The ids of the invokes that are long work in `machine`. */
function longInvokes(machine: AnyStateMachine): ReadonlySet<string> {
  let ids = longByMachine.get(machine);
  if (ids) return ids;
  const found = new Set<string>();
  const visit = (node: AnyStateNode, inLong: boolean) => {
    const long = inLong || (node.meta as { long?: unknown } | undefined)?.long === true;
    if (long) for (const invoke of node.invoke) found.add(invoke.id);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child, long);
  };
  visit(machine.root, false);
  ids = found;
  longByMachine.set(machine, ids);
  return ids;
}

/** The invoked children still running in `snapshot`, by id. */
function runningChildren(snapshot: AnyMachineSnapshot): string[] {
  const children = snapshot.children as Record<string, AnyActorRef | undefined>;
  return Object.keys(children).filter((id) => children[id]?.getSnapshot().status === 'active');
}

/** Whether any state of `machine` is marked long. */
export const hasLongWork = (machine: AnyStateMachine): boolean => longInvokes(machine).size > 0;

/** The machine runs work and all of it is long: the moment a round may become a task. */
export function waitsOnLongWorkOnly(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): boolean {
  if (snapshot.status !== 'active') return false;
  const running = runningChildren(snapshot);
  const long = longInvokes(machine);
  return running.length > 0 && running.every((id) => long.has(id));
}

/** What a working task says it does: the author's progress words for the first work running, if any runs. */
export function workWords(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): string | undefined {
  const [first] = runningChildren(snapshot);
  return first === undefined ? undefined : progressText(machine, snapshot, first);
}
