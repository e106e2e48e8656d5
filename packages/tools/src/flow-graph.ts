// The steps of a flow as a graph: where each step can go once answered (or loaded), which steps come
// before it, and how many rounds the shortest way to the final action takes (a load step takes none).
import type { StepSpec } from './flow-spec.ts';
import type { NextRule } from './step-next.ts';

/** The target name of the final action in `next`. */
export const FINISH = 'finish';

/** The official TypeScript client gives up after this many input rounds by default. */
export const ROUND_BUDGET = 10;

export interface FlowGraph {
  readonly order: readonly string[];
  /** Each step's `next` as rules; the last rule has no condition unless the author wrote one. */
  readonly rules: ReadonlyMap<string, readonly NextRule[]>;
  /** Steps (or FINISH) each step can go to once answered; a rule that ends the flow goes to none. */
  readonly forward: ReadonlyMap<string, ReadonlySet<string>>;
  /** Steps that can lead to each step. */
  readonly before: ReadonlyMap<string, ReadonlySet<string>>;
  /** Steps that ask nothing (loads): they take no round, and going back passes over them. */
  readonly silent: ReadonlySet<string>;
  /** Steps whose answers a review can send the user back to change (forms). */
  readonly changeable: ReadonlySet<string>;
}

/** What the graph needs of a step besides its `next`: whether it asks nothing, and where else it can go. */
export interface StepWays {
  /** It asks nothing and takes no round (a load step). */
  readonly silent: boolean;
  /** Steps (or FINISH) it can go to besides its `next` rules (a page's alternative). */
  readonly exits: readonly string[];
  /** A review can send the user back to it to change its answers. */
  readonly changeable: boolean;
  /** Its rules when its kind derives them from what it declares (a choice's options), instead of its `next`. */
  readonly rules?: readonly NextRule[] | undefined;
}

/** The rules of a step's `next` (or its kind's), with the default (the following step, or finish) filled in. */
function rulesOf(steps: Readonly<Record<string, StepSpec>>, order: readonly string[], name: string, ways: StepWays): NextRule[] {
  if (ways.rules) return [...ways.rules];
  const next = steps[name]!.next;
  const following = order[order.indexOf(name) + 1] ?? FINISH;
  if (next === undefined) return [{ goto: following }];
  if (typeof next === 'string') return [{ goto: next }];
  return [...next];
}

/** The graph of `steps`; `waysOf` says what each step's kind adds to its `next` (step-kinds.ts). */
export function flowGraph(steps: Readonly<Record<string, StepSpec>>, waysOf: (name: string) => StepWays): FlowGraph {
  const order = Object.keys(steps);
  const rules = new Map<string, NextRule[]>();
  const forward = new Map<string, Set<string>>();
  const before = new Map<string, Set<string>>([...order, FINISH].map((name) => [name, new Set<string>()]));
  const silent = new Set(order.filter((name) => waysOf(name).silent));
  const changeable = new Set(order.filter((name) => waysOf(name).changeable));
  for (const name of order) {
    const own = rulesOf(steps, order, name, waysOf(name));
    rules.set(name, own);
    // a rule with a condition may fail: then the following rules apply, and when none holds the step stays
    const targets = new Set(own.flatMap((r) => (r.goto === undefined ? [] : [r.goto])));
    for (const exit of waysOf(name).exits) targets.add(exit);
    forward.set(name, targets);
    for (const target of targets) before.get(target)?.add(name);
  }
  return { order, rules, forward, before, silent, changeable };
}

/** The asking steps that can come right before `step`, passing over silent ones (loads): where 'back' goes. */
export function askingBefore(graph: FlowGraph, step: string): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>();
  const queue = [...(graph.before.get(step) ?? [])];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    if (graph.silent.has(name)) queue.push(...(graph.before.get(name) ?? []));
    else found.add(name);
  }
  return found;
}

/** Steps from which `target` can be reached by answering (not counting `target` itself unless on a loop). */
export function stepsLeadingTo(graph: FlowGraph, target: string): Set<string> {
  const found = new Set<string>();
  const queue = [...(graph.before.get(target) ?? [])];
  while (queue.length > 0) {
    const step = queue.pop()!;
    if (found.has(step)) continue;
    found.add(step);
    queue.push(...(graph.before.get(step) ?? []));
  }
  return found;
}

/**
 * Rounds on the shortest way from the first step to the final action (each asking step is one round, a
 * load none); undefined when there is none.
 */
export function shortestRounds(graph: FlowGraph): number | undefined {
  const first = graph.order[0];
  if (first === undefined) return 0;
  const cost = (step: string) => (graph.silent.has(step) ? 0 : 1);
  // rounds spent once a step is answered; a deque keeps it shortest-first with steps of cost 0 and 1
  const rounds = new Map<string, number>([[first, cost(first)]]);
  const queue = [first];
  const done = new Set<string>();
  let best: number | undefined;
  while (queue.length > 0) {
    const step = queue.shift()!;
    if (done.has(step)) continue;
    done.add(step);
    const here = rounds.get(step)!;
    for (const target of graph.forward.get(step) ?? []) {
      if (target === FINISH) {
        best = Math.min(best ?? here, here);
        continue;
      }
      const there = here + cost(target);
      if (there < (rounds.get(target) ?? Number.POSITIVE_INFINITY)) {
        rounds.set(target, there);
        if (cost(target) === 0) queue.unshift(target);
        else queue.push(target);
      }
    }
  }
  return best;
}

/** Steps no path from the first step reaches. */
export function unreachableSteps(graph: FlowGraph): string[] {
  const first = graph.order[0];
  if (first === undefined) return [];
  const seen = new Set([first]);
  const queue = [first];
  while (queue.length > 0) {
    for (const target of graph.forward.get(queue.pop()!) ?? []) {
      if (target !== FINISH && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return graph.order.filter((name) => !seen.has(name));
}

/** Steps from which the final action cannot be reached. */
export function deadEndSteps(graph: FlowGraph): string[] {
  const reaching = stepsLeadingTo(graph, FINISH);
  return graph.order.filter((name) => !reaching.has(name));
}
