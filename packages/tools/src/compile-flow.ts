// A declared flow, checked as a whole and written as one pure-JSON XState config. Every problem is
// collected (where, code, what, fix) and reported together by the define functions.
import { CLIENT_EVENT, type DefinitionProblem } from '@roundtrip/engine';
import type { z } from 'zod';
import { collectForms } from './collect-forms.ts';
import { checkCondition } from './conditions.ts';
import { checkLoaders, checkLoadStep, checkTemplate, Problems } from './flow-checks.ts';
import {
  askingBefore,
  deadEndSteps,
  FINISH,
  flowGraph,
  ROUND_BUDGET,
  shortestRounds,
  stepsLeadingTo,
  unreachableSteps,
} from './flow-graph.ts';
import type { AskStep, FormSpec, PageStep, ReviewStep, StepSpec } from './flow-spec.ts';
import { endStates, pageState, parallelAskState, reviewState, singleAskState } from './flow-states.ts';
import { FINISHING, type StateBuilder, type StateConfig } from './flow-transitions.ts';
import { isAsyncFunction } from './flow-work.ts';
import { loadState } from './invoked-states.ts';
import { knownPaths, pathsOfSteps } from './known-paths.ts';
import type { Loader, LoadStep } from './load-spec.ts';

/** A flow written as a machine config, and what its named parts need to know. */
export interface CompiledFlow {
  readonly machineId: string;
  /** The whole machine config: plain JSON. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Each form by name: the step asking it and its spec. */
  readonly forms: ReadonlyMap<string, { readonly step: string; readonly spec: FormSpec }>;
  /** The forms of each step (none for a review or a load). */
  readonly formsOfStep: ReadonlyMap<string, readonly string[]>;
  /** Each review by name, with the steps it can send the user back to. */
  readonly reviews: ReadonlyMap<string, { readonly spec: ReviewStep; readonly changeable: readonly string[] }>;
  /** Each page step by name. */
  readonly pages: ReadonlyMap<string, PageStep>;
  /** Each load step by name. */
  readonly loads: ReadonlyMap<string, LoadStep>;
  /** The loaders the load steps run, by name. */
  readonly loaders: ReadonlyMap<string, Loader>;
}

/** What the checks of one step need to know of the whole flow. */
interface FlowFacts {
  readonly steps: Readonly<Record<string, StepSpec>>;
  readonly graph: ReturnType<typeof flowGraph>;
  readonly known: ReturnType<typeof knownPaths>;
  readonly forms: ReturnType<typeof collectForms>['forms'];
  readonly formsOfStep: ReturnType<typeof collectForms>['formsOfStep'];
  readonly loaders: ReadonlyMap<string, Loader>;
}

/** The names values are kept under for these steps: their forms (a page's own name) and the load steps among them. */
function namesOf(f: FlowFacts, steps: ReadonlySet<string>): Set<string> {
  return new Set([...steps].flatMap((step) => (f.graph.silent.has(step) ? [step] : (f.formsOfStep.get(step) ?? []))));
}

/** The `next` rules of a step: each goes to a step or ends with a message; the last applies always. */
function checkRules(p: Problems, f: FlowFacts, name: string, where: string): void {
  const rules = f.graph.rules.get(name)!;
  // an end rule's message is rendered once the step is answered (or loaded)
  const after = pathsOfSteps(f.known, namesOf(f, new Set([...stepsLeadingTo(f.graph, name), name])));
  rules.forEach((rule, i) => {
    const ruleWhere = `${where} › next[${i}]`;
    if (rule.end !== undefined) {
      if (rule.goto !== undefined)
        p.add(ruleWhere, 'invalid_step', 'it both goes to a step and ends the flow.', "Keep one: { goto: 'step' } or { end: 'message' }.");
      checkTemplate(p, `${ruleWhere} › end`, rule.end, f.known, [], after);
    } else if (rule.goto !== FINISH && !(rule.goto in f.steps)) {
      p.add(
        ruleWhere,
        'invalid_step',
        `it goes to '${rule.goto}', which is not a step.`,
        `Go to one of: ${[...Object.keys(f.steps), FINISH].join(', ')}.`,
      );
    }
    if (rule.if !== undefined)
      for (const c of checkCondition(rule.if, ruleWhere, f.known)) p.add(c.path, 'invalid_condition', c.message, c.fix);
  });
  if (rules.length === 0 || rules[rules.length - 1]!.if !== undefined) {
    p.add(
      `${where} › next`,
      'invalid_step',
      'no rule applies when every condition fails, so the answer would go nowhere.',
      "End the rules with one without 'if', e.g. { goto: 'review' }.",
    );
  }
}

/** One step's rules, ways of leaving, messages and conditions. */
function checkStep(p: Problems, f: FlowFacts, name: string, step: StepSpec): void {
  const where = `step '${name}'`;
  checkRules(p, f, name, where);
  // what a step's own messages can read: the input and the steps answered or loaded before it
  const before = pathsOfSteps(f.known, namesOf(f, stepsLeadingTo(f.graph, name)));
  const template = (at: string, text: unknown) => checkTemplate(p, at, text, f.known, [], before);
  if (step.kind === 'load') {
    checkLoadStep(p, where, step, f.loaders, f.known, before);
    return;
  }
  const checkLeave = (leaveWhere: string, leave: unknown) => {
    if (leave !== undefined && leave !== 'end' && leave !== 'skip' && leave !== 'back') {
      p.add(leaveWhere, 'invalid_step', `'${String(leave)}' is not a way to leave a step.`, "Use 'end', 'skip' or 'back'.");
    }
    if (leave === 'back' && askingBefore(f.graph, name).size === 0) {
      const only = (f.graph.before.get(name)?.size ?? 0) > 0 ? 'no step that asks' : 'no step';
      p.add(leaveWhere, 'invalid_step', `${only} comes before it, so there is nothing to go back to.`, "Use 'end' or 'skip' here.");
    }
    if (leave === 'skip' && step.kind === 'review')
      p.add(leaveWhere, 'invalid_step', 'a review cannot be skipped.', "Use 'end' or 'back'.");
  };
  checkLeave(`${where} › onDecline`, step.onDecline);
  checkLeave(`${where} › onCancel`, step.onCancel);
  if (step.kind === 'review') template(`${where} › message`, step.message);
  if (step.kind === 'page') {
    template(`${where} › message`, step.message);
    template(`${where} › url`, step.url);
    if (typeof step.url === 'string' && !/^(https:\/\/|http:\/\/(localhost|127\.0\.0\.1)[:/])/.test(step.url)) {
      p.add(
        `${where} › url`,
        'invalid_step',
        `the page '${step.url}' is not an https URL.`,
        'Send users to https pages only (http only for localhost).',
      );
    }
    if (step.alternative !== FINISH && (!(step.alternative in f.steps) || step.alternative === name)) {
      p.add(
        `${where} › alternative`,
        'invalid_step',
        `'${String(step.alternative)}' is not another step.`,
        `Name the step for clients that cannot open pages: one of ${[...Object.keys(f.steps).filter((n) => n !== name), FINISH].join(', ')}.`,
      );
    }
  }
  for (const form of step.kind === 'ask' ? (f.formsOfStep.get(name) ?? []) : []) {
    const spec = f.forms.get(form)!.spec;
    const formWhere = step.kind === 'ask' && step.form ? where : `${where} › form '${form}'`;
    template(`${formWhere} › message`, spec.message);
    if (spec.if !== undefined)
      for (const c of checkCondition(spec.if, `${formWhere} › if`, f.known)) p.add(c.path, 'invalid_condition', c.message, c.fix);
    if (step.kind === 'ask' && !step.form) {
      checkLeave(`${formWhere} › onDecline`, spec.onDecline);
      checkLeave(`${formWhere} › onCancel`, spec.onCancel);
    }
  }
}

/** Reachability, dead ends and the round budget of the whole flow. */
function checkGraph(p: Problems, graph: ReturnType<typeof flowGraph>): void {
  const unreachable = unreachableSteps(graph);
  for (const name of unreachable)
    p.add(`step '${name}'`, 'invalid_step', 'no step leads to it.', "Point a step's next at it, or remove it.");
  for (const name of deadEndSteps(graph)) {
    if (!unreachable.includes(name))
      p.add(`step '${name}'`, 'invalid_step', 'no way leads from it to the final action.', `Give it a next rule that reaches '${FINISH}'.`);
  }
  const rounds = shortestRounds(graph);
  if (rounds !== undefined && rounds > ROUND_BUDGET) {
    p.add(
      'steps',
      'round_budget',
      `the shortest way to the final action takes ${rounds} rounds; the official TypeScript client stops after ${ROUND_BUDGET}.`,
      'Ask independent questions together with askAll, or merge forms, so the flow fits in 10 rounds.',
    );
  }
}

/**
 * Checks a declared flow and writes its machine config. `owner` names the tool, prompt or resource in
 * problems, `name` is its name (the machine's id); `input` is its arguments' schema; `loaders` the
 * functions its load steps run, by name. Problems go to `problems`; the config is only usable when none
 * were added.
 */
export function compileFlow(
  owner: string,
  name: string,
  input: z.ZodObject,
  steps: Readonly<Record<string, StepSpec>>,
  problems: DefinitionProblem[],
  loaders?: unknown,
): CompiledFlow {
  const p = new Problems(owner);
  // the machine's id is the definition's name; XState reads '.' and '#' in ids as paths
  const machineId = String(name).replace(/[^A-Za-z0-9_-]/g, '_');
  const { forms, formsOfStep } = collectForms(p, steps);
  if (Object.keys(steps).length === 0)
    p.add('steps', 'invalid_step', 'the flow has no steps.', 'Add at least one step, e.g. ask({ message, fields }).');
  const loads = new Map(Object.entries(steps).filter((entry): entry is [string, LoadStep] => entry[1]?.kind === 'load'));
  const loaderFns = checkLoaders(p, loaders, new Set([...loads.values()].map((load) => load.run)));
  const fieldsOf = new Map([...forms].map(([name, f]) => [name, f.spec.fields ?? {}]));
  const graph = flowGraph(steps);
  const facts: FlowFacts = { steps, graph, known: knownPaths(input, fieldsOf, [...loads.keys()]), forms, formsOfStep, loaders: loaderFns };
  for (const [name, step] of Object.entries(steps)) {
    if (step?.kind === 'ask' || step?.kind === 'review' || step?.kind === 'page' || step?.kind === 'load') checkStep(p, facts, name, step);
  }
  checkGraph(p, graph);

  const checkOf = (form: string) => {
    const page = steps[form];
    return page?.kind === 'page' ? page.check : forms.get(form)?.spec.check;
  };
  const reviews = new Map<string, { spec: ReviewStep; changeable: string[] }>();
  const builder: StateBuilder = {
    machineId,
    graph,
    formsOf: (step) => formsOfStep.get(step) ?? [],
    syncCheck: (form) => typeof checkOf(form) === 'function' && !isAsyncFunction(checkOf(form)),
    asyncCheck: (form) => isAsyncFunction(checkOf(form)),
    asyncShow: (review) => {
      const step = steps[review];
      return step?.kind === 'review' && isAsyncFunction(step.show);
    },
    showingReviews: Object.entries(steps)
      .filter(([, step]) => step?.kind === 'review' && typeof step.show === 'function')
      .map(([name]) => name),
  };
  const states: Record<string, StateConfig> = {};
  const pages = new Map<string, PageStep>();
  if (p.list.length === 0) {
    for (const [name, step] of Object.entries(steps)) {
      if (step.kind === 'review') {
        const changeable = [...stepsLeadingTo(graph, name)]
          .filter((s) => steps[s]?.kind === 'ask')
          .sort((a, b) => graph.order.indexOf(a) - graph.order.indexOf(b));
        reviews.set(name, { spec: step, changeable });
        states[name] = reviewState(builder, name, step, changeable);
      } else if (step.kind === 'page') {
        pages.set(name, step);
        states[name] = pageState(builder, name, step);
      } else if (step.kind === 'load') {
        states[name] = loadState(builder, name, step);
      } else {
        states[name] = (step as AskStep).form
          ? singleAskState(builder, name, step as AskStep)
          : parallelAskState(builder, name, step as AskStep);
      }
    }
    Object.assign(states, endStates(builder));
  }
  problems.push(...p.list);
  const config: Record<string, unknown> = {
    id: machineId,
    initial: graph.order[0] ?? FINISHING,
    context: {},
    entry: [{ type: 'takeInput' }],
  };
  // a flow that sends users to pages learns each round whether the client can open them
  if (pages.size > 0) config.on = { [CLIENT_EVENT]: { actions: [{ type: 'noteClient' }] } };
  config.states = states;
  return { machineId, config, forms, formsOfStep, reviews, pages, loads, loaders: loaderFns };
}
