// The steps of a flow as a graph: where each step can go once answered, which steps come before it,
// and how many rounds the shortest way to the final action takes.
import type { NextRule, StepSpec } from './flow-spec.ts';

/** The target name of the final action in `next`. */
export const FINISH = 'finish';

/** The official TypeScript client gives up after this many input rounds by default. */
export const ROUND_BUDGET = 10;

export interface FlowGraph {
  readonly order: readonly string[];
  /** Each step's `next` as rules; the last rule has no condition unless the author wrote one. */
  readonly rules: ReadonlyMap<string, readonly NextRule[]>;
  /** Steps (or FINISH) each step can go to once answered. */
  readonly forward: ReadonlyMap<string, ReadonlySet<string>>;
  /** Steps that can lead to each step. */
  readonly before: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The rules of a step's `next`, with the default (the following step, or finish) filled in. */
function rulesOf(steps: Readonly<Record<string, StepSpec>>, order: readonly string[], name: string): NextRule[] {
  const next = steps[name]!.next;
  const following = order[order.indexOf(name) + 1] ?? FINISH;
  if (next === undefined) return [{ goto: following }];
  if (typeof next === 'string') return [{ goto: next }];
  return [...next];
}

export function flowGraph(steps: Readonly<Record<string, StepSpec>>): FlowGraph {
  const order = Object.keys(steps);
  const rules = new Map<string, NextRule[]>();
  const forward = new Map<string, Set<string>>();
  const before = new Map<string, Set<string>>([...order, FINISH].map((name) => [name, new Set<string>()]));
  for (const name of order) {
    const own = rulesOf(steps, order, name);
    rules.set(name, own);
    // a rule with a condition may fail: then the following rules apply, and when none holds the step stays
    const targets = new Set(own.map((r) => r.goto));
    const step = steps[name]!;
    if (step.kind === 'page') targets.add(step.alternative);
    forward.set(name, targets);
    for (const target of targets) before.get(target)?.add(name);
  }
  return { order, rules, forward, before };
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

/** Rounds on the shortest way from the first step to the final action (each step is one round); undefined when there is none. */
export function shortestRounds(graph: FlowGraph): number | undefined {
  const first = graph.order[0];
  if (first === undefined) return 0;
  const rounds = new Map<string, number>([[first, 1]]);
  const queue = [first];
  while (queue.length > 0) {
    const step = queue.shift()!;
    const here = rounds.get(step)!;
    for (const target of graph.forward.get(step) ?? []) {
      if (target === FINISH) return here;
      if (!rounds.has(target)) {
        rounds.set(target, here + 1);
        queue.push(target);
      }
    }
  }
  return undefined;
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
