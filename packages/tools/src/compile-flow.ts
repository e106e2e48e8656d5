// A declared flow, checked as a whole and written as one pure-JSON XState config. Every problem is
// collected (where, code, what, fix) and reported together by the define functions.
import { CLIENT_EVENT } from '@roundtrip/engine';
import type { z } from 'zod';
import { isAsyncFunction } from './async-functions.ts';
import type { CompiledFlow, CompiledStep } from './compiled-flow.ts';
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
import type { FormSpec, StepSpec } from './flow-spec.ts';
import { endStates } from './flow-states.ts';
import { act, FINISHING, type StateBuilder, type StateConfig } from './flow-transitions.ts';
import { knownPaths, pathsOfSteps } from './known-paths.ts';
import type { FlowFacts } from './step-kind-types.ts';
import { kindOf, stepBuilders, stepKindOf, stepWays } from './step-kinds.ts';

/** What compileFlow knows while it checks each step: the facts of the flow, and each step compiled. */
interface Compiling extends FlowFacts {
  readonly compiled: ReadonlyMap<string, CompiledStep>;
}

/** The names values are kept under for these steps: their forms (a page's own name) and the load steps among them. */
function namesOf(f: Compiling, steps: ReadonlySet<string>): Set<string> {
  return new Set([...steps].flatMap((step) => (f.graph.silent.has(step) ? [step] : (f.compiled.get(step)?.answers ?? []))));
}

/** The `next` rules of a step: each goes to a step or ends with a message; the last applies always. `p` adds under the step. */
function checkRules(p: FlowProblems, f: Compiling, name: string): void {
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

/** Each step's name and kind, and what its kind compiles of it (its forms, checked); the flow's forms by name. */
function collectSteps(p: FlowProblems, steps: Readonly<Record<string, StepSpec>>): Pick<CompiledFlow, 'steps' | 'forms'> {
  const compiled = new Map<string, CompiledStep>();
  const forms = new Map<string, { readonly step: string; readonly spec: FormSpec }>();
  for (const [name, step] of Object.entries(steps)) {
    const at = p.at(`step '${name}'`);
    checkName(at, [], name, 'step');
    const kind = stepKindOf(step);
    if (kind) {
      const parts = kind.collect(at, name, step, forms, steps);
      compiled.set(name, { name, spec: step, ...parts });
      for (const [form, spec] of parts.forms) forms.set(form, { step: name, spec });
    } else at.add([], 'invalid_step', 'it is not a step.', `Build each step with ${stepBuilders()}.`);
  }
  return { steps: compiled, forms };
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
  const { steps: compiled, forms } = collectSteps(p, steps);
  if (Object.keys(steps).length === 0)
    p.add(['steps'], 'invalid_step', 'the flow has no steps.', 'Add at least one step, e.g. ask({ message, fields }).');
  const runs = [...compiled.values()].flatMap(({ spec }) => kindOf(spec).loaders?.(spec) ?? []);
  const loaderFns = checkLoaders(p, loaders, new Set(runs));
  const fieldsOf = new Map([...forms].map(([name, f]) => [name, f.spec.fields ?? {}]));
  const graph = flowGraph(steps, (step) => stepWays(steps, step));
  const known = knownPaths(
    input,
    fieldsOf,
    [...compiled.keys()].filter((step) => graph.silent.has(step)),
  );
  const facts: Compiling = { steps, graph, known, compiled, loaders: loaderFns };
  for (const step of compiled.values()) {
    const at = p.at(`step '${step.name}'`);
    const kind = kindOf(step.spec);
    // rules a kind derives are checked by the kind, where the author wrote what they are made of
    if (!kind.rules) checkRules(at, facts, step.name);
    // what a step's own messages can read: the input and the steps answered or loaded before it
    kind.check(at, facts, step, pathsOfSteps(known, namesOf(facts, stepsLeadingTo(graph, step.name))));
  }
  checkGraph(p, graph);

  const checkOf = (answer: string) => compiled.get(forms.get(answer)?.step ?? answer)?.checks.get(answer);
  const shows = (step: CompiledStep) => kindOf(step.spec).shows?.(step.spec);
  const builder: StateBuilder = {
    machineId,
    graph,
    syncCheck: (form) => typeof checkOf(form) === 'function' && !isAsyncFunction(checkOf(form)),
    asyncCheck: (form) => isAsyncFunction(checkOf(form)),
    showingReviews: [...compiled.values()].filter((step) => typeof shows(step) === 'function').map((step) => step.name),
  };
  const states: Record<string, StateConfig> = {};
  if (problems.items.length === before) {
    for (const step of compiled.values()) states[step.name] = kindOf(step.spec).build(builder, step);
    Object.assign(states, endStates(builder));
  }
  const config: Record<string, unknown> = {
    id: machineId,
    initial: graph.order[0] ?? FINISHING,
    context: {},
    entry: [act('takeInput')],
  };
  // a flow with a step that needs to know what the client can open (a page) learns it each round
  if ([...compiled.values()].some((step) => kindOf(step.spec).needsClient))
    config.on = { [CLIENT_EVENT]: { actions: [act('noteClient')] } };
  config.states = states;
  return { machineId, config, steps: compiled, forms, graph, loaders: loaderFns };
}
