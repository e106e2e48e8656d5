// Long work (tasks, SEP-2663): what a state marked `meta: { long: true }` invokes, every invoke in the
// states inside it, and work an action spawned while such a state is active. A round of a tool that answers tasks, whose machine waits on long work only, answers a task.
import type { AnyActorRef, AnyMachineSnapshot, AnyStateMachine, AnyStateNode } from 'xstate';
import { progressText } from './progress-text.ts';

/** Where a machine's long work is: the invokes of long states, every invoke, and the long states by id. */
interface LongWork {
  readonly long: ReadonlySet<string>;
  readonly invoked: ReadonlySet<string>;
  readonly longStates: ReadonlySet<string>;
}

const longByMachine = new WeakMap<AnyStateMachine, LongWork>();

/** The long work of `machine`: what its long states (and the states inside them) invoke, and those states. */
function longWork(machine: AnyStateMachine): LongWork {
  let work = longByMachine.get(machine);
  if (work) return work;
  const long = new Set<string>();
  const invoked = new Set<string>();
  const longStates = new Set<string>();
  const visit = (node: AnyStateNode, inLong: boolean) => {
    const isLong = inLong || (node.meta as { long?: unknown } | undefined)?.long === true;
    if (isLong) longStates.add(node.id);
    for (const invoke of node.invoke) {
      invoked.add(invoke.id);
      if (isLong) long.add(invoke.id);
    }
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child, isLong);
  };
  visit(machine.root, false);
  work = { long, invoked, longStates };
  longByMachine.set(machine, work);
  return work;
}

/**
 * Whether the running child `id` is long work: a long state invokes it, or no state invokes it (an
 * action spawned it, as a declared flow's final action) and a long state is active.
 */
function isLongChild(work: LongWork, snapshot: AnyMachineSnapshot, id: string): boolean {
  if (work.long.has(id)) return true;
  if (work.invoked.has(id) || work.longStates.size === 0) return false;
  return Object.keys(snapshot.getMeta()).some((stateId) => work.longStates.has(stateId));
}

/** The invoked children still running in `snapshot`, by id. */
function runningChildren(snapshot: AnyMachineSnapshot): string[] {
  const children = snapshot.children as Record<string, AnyActorRef | undefined>;
  return Object.keys(children).filter((id) => children[id]?.getSnapshot().status === 'active');
}

/** The machine runs work and all of it is long: the moment a round may become a task. */
export function waitsOnLongWorkOnly(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): boolean {
  if (snapshot.status !== 'active') return false;
  const running = runningChildren(snapshot);
  const work = longWork(machine);
  return running.length > 0 && running.every((id) => isLongChild(work, snapshot, id));
}

/** What a working task says it does: the author's progress words for the first work running, if any runs. */
export function workWords(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): string | undefined {
  const [first] = runningChildren(snapshot);
  return first === undefined ? undefined : progressText(machine, snapshot, first);
}
