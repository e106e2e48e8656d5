// The checks of a declared flow's parts that are not conditions: names, message templates, ways of
// leaving a step, load steps and the loaders they run. Each problem says where it is, what is wrong and
// how to fix it; conditions' own problems are placed under the part that holds them.
import type { DefinitionProblem, DefinitionProblemCode, ProblemList } from '@roundtrip/engine';
import { checkCondition, didYouMean } from './conditions.ts';
import { askingBefore, FINISH, type FlowGraph } from './flow-graph.ts';
import { FINISHING } from './flow-transitions.ts';
import { type KnownPaths, knownPath, listedPaths } from './known-paths.ts';
import type { Loader, LoadStep } from './load-spec.ts';
import { templatePaths } from './safe-text.ts';

/** What kind of mistake a problem of a declared flow is, beyond the engine's own codes; stable, for tests and tooling. */
export type FlowProblemCode = 'invalid_step' | 'invalid_condition' | 'invalid_template' | 'round_budget';

/** One problem of a declared flow: an engine code (its questions, its loaders' options) or one of a flow's own. */
export type FlowProblem = DefinitionProblem<DefinitionProblemCode | FlowProblemCode>;

/** Where a flow's problems go; `at(...)` gives the same list adding under a part of the flow. */
export type FlowProblems = ProblemList<DefinitionProblemCode | FlowProblemCode>;

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const RESERVED = new Set(['input', FINISH, FINISHING, 'done', 'ended']);
/** Names of the flow's own actors, which a loader cannot take. */
const ACTORS = new Set(['finish', 'check', 'show']);
/** The most retries a load step may declare: each try waits in the same request. */
const MAX_RETRIES = 5;

export function checkName(p: FlowProblems, where: readonly string[], name: string, what: string): boolean {
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

/**
 * A message template: not empty, every placeholder a path the flow knows (or one of `bare`, like {{error}}).
 * A placeholder that reads nothing is answered with the paths of `suggest` (those with values by then).
 */
export function checkTemplate(
  p: FlowProblems,
  where: readonly string[],
  template: unknown,
  known: KnownPaths,
  bare: readonly string[] = [],
  suggest: KnownPaths = known,
): void {
  if (typeof template !== 'string' || template.trim() === '') {
    p.add(
      where,
      'invalid_template',
      'the message is missing or empty.',
      'Write the question the user will read, e.g. \'Book "{{input.topic}}"?\'.',
    );
    return;
  }
  const { paths, bad } = templatePaths(template, bare);
  for (const b of bad)
    p.add(
      where,
      'invalid_template',
      `the placeholder {{${b}}} is not a path.`,
      `Write {{input.<argument>}}, {{<form>.<field>}} or {{<load step>.<key>}}${bare.length > 0 ? ` (or ${bare.map((name) => `{{${name}}}`).join(', ')})` : ''}; templates hold no code.`,
    );
  for (const path of paths) {
    if (!bare.includes(path) && !knownPath(known, path)) {
      const listed = listedPaths(suggest);
      const choices = [...suggest.keys()].map((k) => k.replace(/\*$/, path.slice(path.indexOf('.') + 1)));
      p.add(
        where,
        'invalid_template',
        `the placeholder {{${path}}} reads nothing the flow knows.`,
        `Use one of: ${listed.slice(0, 12).join(', ') || '(no paths)'}${didYouMean(path, choices)}.`,
      );
    }
  }
}

/** A load step: the loader it runs, its retries and its error message (`p` adds under the step). */
export function checkLoadStep(
  p: FlowProblems,
  step: LoadStep,
  loaders: ReadonlyMap<string, Loader>,
  known: KnownPaths,
  suggest: KnownPaths = known,
): void {
  const run = step.run;
  if (typeof run !== 'string' || !loaders.has(run)) {
    const names = [...loaders.keys()];
    p.add(
      ['run'],
      'invalid_step',
      names.length === 0
        ? `it runs ${JSON.stringify(run)}, but the flow has no loaders.`
        : `it runs ${JSON.stringify(run)}, which is not one of the flow's loaders (${names.join(', ')}).`,
      names.length === 0
        ? `Give the flow its loaders by name: loaders: { ${typeof run === 'string' ? run : 'findOrder'}: async ({ input }) => … }.`
        : `Run one of them${didYouMean(String(run), names)}, or add it to loaders.`,
    );
  }
  const retries = step.retries;
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0 && retries <= MAX_RETRIES))
    p.add(
      ['retries'],
      'invalid_step',
      `retries is ${JSON.stringify(retries)}; it is how many times to try again, a whole number from 0 to ${MAX_RETRIES}.`,
      'Write e.g. retries: 2.',
    );
  checkProgress(p, ['progress'], step.progress);
  if (step.long !== undefined && typeof step.long !== 'boolean')
    p.add(['long'], 'invalid_step', `long is ${JSON.stringify(step.long)}, not true or false.`, 'Write long: true, or leave it out.');
  if (typeof step.onError === 'string') checkTemplate(p, ['onError'], step.onError, known, ['error'], suggest);
  else if (step.onError !== undefined && typeof step.onError !== 'function')
    p.add(
      ['onError'],
      'invalid_step',
      'it is neither a message nor a function.',
      "Write onError: 'The order could not be read: {{error}}', or a function of { error, input, answers, loaded } returning the message.",
    );
}

/** The flow's loaders by name: each a function, named plainly, run by some load step. */
export function checkLoaders(p: FlowProblems, loaders: unknown, used: ReadonlySet<string>): Map<string, Loader> {
  const found = new Map<string, Loader>();
  if (loaders === undefined) return found;
  if (typeof loaders !== 'object' || loaders === null || Array.isArray(loaders)) {
    p.add(
      ['loaders'],
      'invalid_option',
      'loaders is not an object of functions by name.',
      'Write loaders: { findOrder: async ({ input }) => … }.',
    );
    return found;
  }
  for (const [name, loader] of Object.entries(loaders)) {
    const where = ['loaders', `'${name}'`];
    if (!NAME.test(name) || ACTORS.has(name))
      p.add(
        where,
        'invalid_option',
        ACTORS.has(name) ? `'${name}' is the name of one of the flow's own actors.` : `'${name}' is not a plain name.`,
        'Name the loader with a letter, then letters, digits or _ (not finish, check or show): diagrams show it.',
      );
    if (typeof loader !== 'function')
      p.add(where, 'invalid_option', 'it is not a function.', 'Write it as async ({ input, answers, loaded }) => value.');
    else found.set(name, loader as Loader);
    if (!used.has(name))
      p.add(where, 'invalid_option', 'no load step runs it.', `Run it from a step, load({ run: '${name}' }), or remove it.`);
  }
  return found;
}

/**
 * A step's `onDecline` or `onCancel` (or a form's, in askAll), at `where`: a way to leave it, and `back`
 * only where a step that asks comes before. `skippable` is false for a step that cannot be skipped.
 */
export function checkLeave(
  p: FlowProblems,
  where: readonly string[],
  leave: unknown,
  graph: FlowGraph,
  step: string,
  skippable = true,
): void {
  if (leave !== undefined && leave !== 'end' && leave !== 'skip' && leave !== 'back') {
    p.add(where, 'invalid_step', `'${String(leave)}' is not a way to leave a step.`, "Use 'end', 'skip' or 'back'.");
  }
  if (leave === 'back' && askingBefore(graph, step).size === 0) {
    const only = (graph.before.get(step)?.size ?? 0) > 0 ? 'no step that asks' : 'no step';
    p.add(where, 'invalid_step', `${only} comes before it, so there is nothing to go back to.`, "Use 'end' or 'skip' here.");
  }
  if (leave === 'skip' && !skippable) p.add(where, 'invalid_step', 'a review cannot be skipped.', "Use 'end' or 'back'.");
}

/** A condition (a rule's `if`, a form's `if`) at `where`: each of its problems placed inside it (`all[1] › not`). */
export function checkConditionAt(p: FlowProblems, where: readonly string[], condition: unknown, known: KnownPaths): void {
  for (const c of checkCondition(condition, '', known))
    p.add(c.path === '' ? where : [...where, ...c.path.split(' › ')], c.code, c.message, c.fix);
}

/**
 * A `progress` text (a step's, or the tool's `finalProgress`) at `where`: plain text said as it is, and
 * given only where work runs on the server. `idle` says why there is none (the check is not async), or
 * is undefined when there is.
 */
export function checkProgress(p: FlowProblems, where: readonly string[], progress: unknown, idle?: { why: string; fix: string }): void {
  if (progress === undefined) return;
  if (typeof progress !== 'string' || progress.trim() === '') {
    p.add(
      where,
      'invalid_step',
      `it is ${JSON.stringify(progress) ?? String(progress)}, not text.`,
      "Write what the user reads while the work runs, e.g. 'Checking that the room is free…', or leave it out.",
    );
  } else if (progress.includes('{{')) {
    p.add(
      where,
      'invalid_template',
      'it holds a placeholder, but progress is said as written: nothing is filled in.',
      "Write it without {{…}}, e.g. 'Looking up the order…'.",
    );
  } else if (idle) {
    p.add(where, 'invalid_step', `nothing would say it: ${idle.why}.`, idle.fix);
  }
}
