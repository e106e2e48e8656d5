// A declared flow, checked as a whole and written as one pure-JSON XState config. Every problem is
// collected (where, code, what, fix) and reported together by the define functions.
import { CLIENT_EVENT, type DefinitionProblem, type DefinitionProblemCode } from '@roundtrip/engine';
import { z } from 'zod';
import { checkCondition } from './conditions.ts';
import { deadEndSteps, FINISH, flowGraph, ROUND_BUDGET, shortestRounds, stepsLeadingTo, unreachableSteps } from './flow-graph.ts';
import type { AskStep, FormSpec, PageStep, ReviewStep, StepSpec } from './flow-spec.ts';
import {
  endStates,
  FINISHING,
  pageState,
  parallelAskState,
  reviewState,
  type StateBuilder,
  type StateConfig,
  singleAskState,
} from './flow-states.ts';
import { knownPaths } from './known-paths.ts';
import { templatePaths } from './safe-text.ts';

/** A flow written as a machine config, and what its named parts need to know. */
export interface CompiledFlow {
  readonly machineId: string;
  /** The whole machine config: plain JSON. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Each form by name: the step asking it and its spec. */
  readonly forms: ReadonlyMap<string, { readonly step: string; readonly spec: FormSpec }>;
  /** The forms of each step (none for a review). */
  readonly formsOfStep: ReadonlyMap<string, readonly string[]>;
  /** Each review by name, with the steps it can send the user back to. */
  readonly reviews: ReadonlyMap<string, { readonly spec: ReviewStep; readonly changeable: readonly string[] }>;
  /** Each page step by name. */
  readonly pages: ReadonlyMap<string, PageStep>;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const RESERVED = new Set(['input', FINISH, FINISHING, 'done', 'ended']);

/** Problems of one flow, each with where it is. */
class Problems {
  readonly list: DefinitionProblem[] = [];
  constructor(private readonly owner: string) {}
  add(where: string, code: DefinitionProblemCode, message: string, fix: string): void {
    this.list.push({ path: where ? `${this.owner} › ${where}` : this.owner, code, message, fix });
  }
}

function checkName(p: Problems, where: string, name: string, what: string): boolean {
  if (!NAME.test(name)) {
    p.add(
      where,
      'invalid_step',
      `the ${what} name '${name}' is not a plain name.`,
      'Use a letter, then letters, digits or _ (at most 64).',
    );
    return false;
  }
  if (RESERVED.has(name)) {
    p.add(
      where,
      'invalid_step',
      `'${name}' is a reserved name.`,
      `Rename the ${what}: ${[...RESERVED].join(', ')} are taken by the flow itself.`,
    );
    return false;
  }
  return true;
}

function checkTemplate(p: Problems, where: string, template: unknown, known: ReadonlySet<string>): void {
  if (typeof template !== 'string' || template.trim() === '') {
    p.add(
      where,
      'invalid_template',
      'the message is missing or empty.',
      'Write the question the user will read, e.g. \'Book "{{input.topic}}"?\'.',
    );
    return;
  }
  const { paths, bad } = templatePaths(template);
  for (const b of bad)
    p.add(
      where,
      'invalid_template',
      `the placeholder {{${b}}} is not a path.`,
      'Write {{input.<argument>}} or {{<form>.<field>}}; templates hold no code.',
    );
  for (const path of paths) {
    if (!known.has(path)) {
      const some = [...known].slice(0, 12).join(', ');
      p.add(where, 'invalid_template', `the placeholder {{${path}}} reads nothing the flow knows.`, `Use one of: ${some || '(no paths)'}.`);
    }
  }
}

/** Collects each step's forms, checking names, fields and messages. */
function collectForms(p: Problems, steps: Readonly<Record<string, StepSpec>>) {
  const forms = new Map<string, { step: string; spec: FormSpec }>();
  const formsOfStep = new Map<string, string[]>();
  for (const [name, step] of Object.entries(steps)) {
    const where = `step '${name}'`;
    checkName(p, where, name, 'step');
    if (step?.kind === 'review') {
      formsOfStep.set(name, []);
      continue;
    }
    if (step?.kind === 'page') {
      // its answer (an empty accept) is kept under its name, like a form's
      formsOfStep.set(name, [name]);
      if (step.check !== undefined && typeof step.check !== 'function')
        p.add(where, 'invalid_step', 'its check is not a function.', 'Write check: ({ input, answers }) => reason or undefined.');
      continue;
    }
    if (step?.kind !== 'ask') {
      p.add(
        where,
        'invalid_step',
        'it is not a step.',
        'Build each step with ask({ … }), askAll({ forms }), review({ … }) or openPage({ … }).',
      );
      continue;
    }
    const own = step.form ? ([[name, step.form]] as const) : Object.entries(step.forms ?? {});
    if (own.length === 0) p.add(where, 'invalid_step', 'it asks no form.', 'Give askAll at least one form.');
    const names: string[] = [];
    for (const [formName, spec] of own) {
      const formWhere = step.form ? where : `${where} › form '${formName}'`;
      if (!step.form && !checkName(p, formWhere, formName, 'form')) continue;
      if (forms.has(formName) || (!step.form && formName !== name && formName in steps)) {
        p.add(
          formWhere,
          'invalid_step',
          `the name '${formName}' is used twice.`,
          'Give every step and form of a flow its own name: answers are kept under it.',
        );
        continue;
      }
      const fields = Object.entries(spec?.fields ?? {});
      if (fields.length === 0)
        p.add(formWhere, 'invalid_step', 'it has no fields.', 'Give the form at least one field, e.g. { ok: field.boolean() }.');
      for (const [field, schema] of fields) {
        if (!(schema instanceof z.ZodType))
          p.add(
            `${formWhere} › field '${field}'`,
            'invalid_step',
            'it is not a zod schema.',
            'Use field.text(), field.select({ … }) and the like.',
          );
      }
      if (spec?.check !== undefined && typeof spec.check !== 'function')
        p.add(formWhere, 'invalid_step', 'its check is not a function.', 'Write check: ({ answer }) => reason or undefined.');
      if (step.form && spec.if !== undefined)
        p.add(formWhere, 'invalid_step', "'if' is only for forms of askAll.", 'Choose whether to reach the step with next rules instead.');
      forms.set(formName, { step: name, spec });
      names.push(formName);
    }
    formsOfStep.set(name, names);
  }
  return { forms, formsOfStep };
}

/**
 * Checks a declared flow and writes its machine config. `owner` names the tool, prompt or resource in
 * problems, `name` is its name (the machine's id); `input` is its arguments' schema. Problems go to `problems`; the config is only usable when
 * none were added.
 */
export function compileFlow(
  owner: string,
  name: string,
  input: z.ZodObject,
  steps: Readonly<Record<string, StepSpec>>,
  problems: DefinitionProblem[],
): CompiledFlow {
  const p = new Problems(owner);
  // the machine's id is the definition's name; XState reads '.' and '#' in ids as paths
  const machineId = String(name).replace(/[^A-Za-z0-9_-]/g, '_');
  const { forms, formsOfStep } = collectForms(p, steps);
  if (Object.keys(steps).length === 0)
    p.add('steps', 'invalid_step', 'the flow has no steps.', 'Add at least one step, e.g. ask({ message, fields }).');
  const fieldsOf = new Map([...forms].map(([name, f]) => [name, f.spec.fields ?? {}]));
  const known = knownPaths(input, fieldsOf);
  const knownSet = new Set(known.keys());
  const graph = flowGraph(steps);

  for (const [name, step] of Object.entries(steps)) {
    if (step?.kind !== 'ask' && step?.kind !== 'review' && step?.kind !== 'page') continue;
    const where = `step '${name}'`;
    const rules = graph.rules.get(name)!;
    rules.forEach((rule, i) => {
      const ruleWhere = `${where} › next[${i}]`;
      if (rule.goto !== FINISH && !(rule.goto in steps)) {
        p.add(
          ruleWhere,
          'invalid_step',
          `it goes to '${rule.goto}', which is not a step.`,
          `Go to one of: ${[...Object.keys(steps), FINISH].join(', ')}.`,
        );
      }
      if (rule.if !== undefined)
        for (const c of checkCondition(rule.if, ruleWhere, known)) p.add(c.path, 'invalid_condition', c.message, c.fix);
    });
    if (rules.length === 0 || rules[rules.length - 1]!.if !== undefined) {
      p.add(
        `${where} › next`,
        'invalid_step',
        'no rule applies when every condition fails, so the answer would go nowhere.',
        "End the rules with one without 'if', e.g. { goto: 'review' }.",
      );
    }
    const checkLeave = (leaveWhere: string, leave: unknown) => {
      if (leave !== undefined && leave !== 'end' && leave !== 'skip' && leave !== 'back') {
        p.add(leaveWhere, 'invalid_step', `'${String(leave)}' is not a way to leave a step.`, "Use 'end', 'skip' or 'back'.");
      }
      if (leave === 'back' && (graph.before.get(name)?.size ?? 0) === 0) {
        p.add(leaveWhere, 'invalid_step', 'no step comes before it, so there is nothing to go back to.', "Use 'end' or 'skip' here.");
      }
      if (leave === 'skip' && step.kind === 'review')
        p.add(leaveWhere, 'invalid_step', 'a review cannot be skipped.', "Use 'end' or 'back'.");
    };
    checkLeave(`${where} › onDecline`, step.onDecline);
    checkLeave(`${where} › onCancel`, step.onCancel);
    if (step.kind === 'review') checkTemplate(p, `${where} › message`, step.message, knownSet);
    if (step.kind === 'page') {
      checkTemplate(p, `${where} › message`, step.message, knownSet);
      checkTemplate(p, `${where} › url`, step.url, knownSet);
      if (typeof step.url === 'string' && !/^(https:\/\/|http:\/\/(localhost|127\.0\.0\.1)[:/])/.test(step.url)) {
        p.add(
          `${where} › url`,
          'invalid_step',
          `the page '${step.url}' is not an https URL.`,
          'Send users to https pages only (http only for localhost).',
        );
      }
      if (step.alternative !== FINISH && (!(step.alternative in steps) || step.alternative === name)) {
        p.add(
          `${where} › alternative`,
          'invalid_step',
          `'${String(step.alternative)}' is not another step.`,
          `Name the step for clients that cannot open pages: one of ${[...Object.keys(steps).filter((n) => n !== name), FINISH].join(', ')}.`,
        );
      }
    }
    for (const form of step.kind === 'ask' ? (formsOfStep.get(name) ?? []) : []) {
      const spec = forms.get(form)!.spec;
      const formWhere = step.kind === 'ask' && step.form ? where : `${where} › form '${form}'`;
      checkTemplate(p, `${formWhere} › message`, spec.message, knownSet);
      if (spec.if !== undefined)
        for (const c of checkCondition(spec.if, `${formWhere} › if`, known)) p.add(c.path, 'invalid_condition', c.message, c.fix);
      if (step.kind === 'ask' && !step.form) {
        checkLeave(`${formWhere} › onDecline`, spec.onDecline);
        checkLeave(`${formWhere} › onCancel`, spec.onCancel);
      }
    }
  }

  for (const name of unreachableSteps(graph))
    p.add(`step '${name}'`, 'invalid_step', 'no step leads to it.', "Point a step's next at it, or remove it.");
  for (const name of deadEndSteps(graph)) {
    if (!unreachableSteps(graph).includes(name))
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

  const reviews = new Map<string, { spec: ReviewStep; changeable: string[] }>();
  const builder: StateBuilder = {
    machineId,
    graph,
    formsOf: (step) => formsOfStep.get(step) ?? [],
    hasCheck: (form) => {
      const page = steps[form];
      return typeof forms.get(form)?.spec.check === 'function' || (page?.kind === 'page' && typeof page.check === 'function');
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
  return { machineId, config, forms, formsOfStep, reviews, pages };
}
