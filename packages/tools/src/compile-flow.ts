// A declared flow, checked as a whole and written as one pure-JSON XState config. Every problem is
// collected (where, code, what, fix) and reported together by the define functions.
import { CLIENT_EVENT } from '@roundtrip/engine';
import type { z } from 'zod';
import type { CompiledFlow } from './compiled-flow.ts';
import { checkConditionAt, checkLoaders, checkName, checkTemplate, type FlowProblems } from './flow-checks.ts';
import {
  deadEndSteps,
  FINISH,
  type FlowGraph,
  flowGraph,
  ROUND_BUDGET,
  shortestRounds,
  stepsLeadingTo,
  unreachableSteps,
} from './flow-graph.ts';
import type { StepSpec } from './flow-spec.ts';
import { endStates } from './flow-states.ts';
import { act, FINISHING, type StateBuilder, type StateConfig } from './flow-transitions.ts';
import { isAsyncFunction } from './flow-work.ts';
import { knownPaths, pathsOfSteps } from './known-paths.ts';
import type { FlowFacts, FlowParts } from './step-kind-types.ts';
import { emptyParts, stepKindOf, stepWays } from './step-kinds.ts';

/** The names values are kept under for these steps: their forms (a page's own name) and the load steps among them. */
function namesOf(f: FlowFacts, steps: ReadonlySet<string>): Set<string> {
  return new Set([...steps].flatMap((step) => (f.graph.silent.has(step) ? [step] : (f.parts.formsOfStep.get(step) ?? []))));
}

/** The `next` rules of a step: each goes to a step or ends with a message; the last applies always. `p` adds under the step. */
function checkRules(p: FlowProblems, f: FlowFacts, name: string): void {
  const rules = f.graph.rules.get(name)!;
  // an end rule's message is rendered once the step is answered (or loaded)
  const after = pathsOfSteps(f.known, namesOf(f, new Set([...stepsLeadingTo(f.graph, name), name])));
  rules.forEach((rule, i) => {
    const where = [`next[${i}]`];
    if (rule.end !== undefined) {
      if (rule.goto !== undefined)
        p.add(where, 'invalid_step', 'it both goes to a step and ends the flow.', "Keep one: { goto: 'step' } or { end: 'message' }.");
      checkTemplate(p, [...where, 'end'], rule.end, f.known, [], after);
    } else if (rule.goto !== FINISH && !(rule.goto in f.steps)) {
      p.add(
        where,
        'invalid_step',
        `it goes to '${rule.goto}', which is not a step.`,
        `Go to one of: ${[...Object.keys(f.steps), FINISH].join(', ')}.`,
      );
    }
    if (rule.if !== undefined) checkConditionAt(p, where, rule.if, f.known);
  });
  if (rules.length === 0 || rules[rules.length - 1]!.if !== undefined) {
    p.add(
      ['next'],
      'invalid_step',
      'no rule applies when every condition fails, so the answer would go nowhere.',
      "End the rules with one without 'if', e.g. { goto: 'review' }.",
    );
  }
}

/** Each step's name and kind, and what its kind gathers from it (its forms, checked). */
function collectSteps(p: FlowProblems, steps: Readonly<Record<string, StepSpec>>): FlowParts {
  const parts = emptyParts();
  for (const [name, step] of Object.entries(steps)) {
    const at = p.at(`step '${name}'`);
    checkName(at, [], name, 'step');
    const kind = stepKindOf(step);
    if (kind) kind.collect(at, name, step, parts, steps);
    else
      at.add(
        [],
        'invalid_step',
        'it is not a step.',
        'Build each step with ask({ … }), askAll({ forms }), review({ … }), openPage({ … }) or load({ … }).',
      );
  }
  return parts;
}

/** Reachability, dead ends and the round budget of the whole flow. */
function checkGraph(p: FlowProblems, graph: FlowGraph): void {
  const unreachable = unreachableSteps(graph);
  for (const name of unreachable)
    p.add([`step '${name}'`], 'invalid_step', 'no step leads to it.', "Point a step's next at it, or remove it.");
  for (const name of deadEndSteps(graph)) {
    if (!unreachable.includes(name))
      p.add(
        [`step '${name}'`],
        'invalid_step',
        'no way leads from it to the final action.',
        `Give it a next rule that reaches '${FINISH}'.`,
      );
  }
  const rounds = shortestRounds(graph);
  if (rounds !== undefined && rounds > ROUND_BUDGET) {
    p.add(
      ['steps'],
      'round_budget',
      `the shortest way to the final action takes ${rounds} rounds; the official TypeScript client stops after ${ROUND_BUDGET}.`,
      'Ask independent questions together with askAll, or merge forms, so the flow fits in 10 rounds.',
    );
  }
}

/**
 * Checks a declared flow and writes its machine config. `owner` names the tool, prompt or resource in
 * problems, `name` is its name (the machine's id); `input` is its arguments' schema; `loaders` the
 * functions its load steps run, by name. Problems go to `problems`, under `owner`; the config is only
 * usable when none were added. Each step is checked and built by its kind (step-kinds.ts).
 */
export function compileFlow(
  owner: string,
  name: string,
  input: z.ZodObject,
  steps: Readonly<Record<string, StepSpec>>,
  problems: FlowProblems,
  loaders?: unknown,
): CompiledFlow {
  const p = problems.at(owner);
  const before = problems.items.length;
  // the machine's id is the definition's name; XState reads '.' and '#' in ids as paths
  const machineId = String(name).replace(/[^A-Za-z0-9_-]/g, '_');
  const parts = collectSteps(p, steps);
  const { forms, formsOfStep, loads, pages, reviews } = parts;
  if (Object.keys(steps).length === 0)
    p.add(['steps'], 'invalid_step', 'the flow has no steps.', 'Add at least one step, e.g. ask({ message, fields }).');
  const loaderFns = checkLoaders(p, loaders, new Set([...loads.values()].map((load) => load.run)));
  const fieldsOf = new Map([...forms].map(([name, f]) => [name, f.spec.fields ?? {}]));
  const graph = flowGraph(steps, (step) => stepWays(steps, step));
  const facts: FlowFacts = { steps, graph, known: knownPaths(input, fieldsOf, [...loads.keys()]), parts, loaders: loaderFns };
  for (const [name, step] of Object.entries(steps)) {
    const kind = stepKindOf(step);
    if (!kind) continue;
    const at = p.at(`step '${name}'`);
    checkRules(at, facts, name);
    // what a step's own messages can read: the input and the steps answered or loaded before it
    kind.check(at, facts, name, step, pathsOfSteps(facts.known, namesOf(facts, stepsLeadingTo(graph, name))));
  }
  checkGraph(p, graph);

  const checkOf = (answer: string) => parts.checks.get(answer);
  const builder: StateBuilder = {
    machineId,
    graph,
    formsOf: (step) => formsOfStep.get(step) ?? [],
    syncCheck: (form) => typeof checkOf(form) === 'function' && !isAsyncFunction(checkOf(form)),
    asyncCheck: (form) => isAsyncFunction(checkOf(form)),
    asyncShow: (review) => isAsyncFunction(parts.shows.get(review)),
    showingReviews: [...parts.shows].filter(([, show]) => typeof show === 'function').map(([review]) => review),
  };
  const states: Record<string, StateConfig> = {};
  if (problems.items.length === before) {
    for (const [name, step] of Object.entries(steps)) states[name] = stepKindOf(step)!.build(builder, name, step, parts, steps);
    Object.assign(states, endStates(builder));
  }
  const config: Record<string, unknown> = {
    id: machineId,
    initial: graph.order[0] ?? FINISHING,
    context: {},
    entry: [act('takeInput')],
  };
  // a flow that sends users to pages learns each round whether the client can open them
  if (pages.size > 0) config.on = { [CLIENT_EVENT]: { actions: [act('noteClient')] } };
  config.states = states;
  return { machineId, config, forms, formsOfStep, reviews, pages, loads, loaders: loaderFns };
}
