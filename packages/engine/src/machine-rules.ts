// The checks a machine must pass to be served over MRTR, each a named rule: what it looks at, and the problem it adds
// (with where, what is wrong and what to do). compile-machine.ts runs them and computes what is sealed with the
// machine's snapshots.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import type { ProblemList } from './definition-error.ts';
import { firstNonJson } from './json-value.ts';
import type { CompiledQuestion } from './questions.ts';
import { MAX_MACHINE_VERSION_BYTES } from './state-envelope.ts';

const encoder = new TextEncoder();

export function allNodes(root: AnyStateNode): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  const visit = (node: AnyStateNode) => {
    out.push(node);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(root);
  return out;
}

function handledEvents(node: AnyStateNode): Set<string> {
  const events = new Set<string>();
  for (let n: AnyStateNode | undefined = node; n; n = n.parent) {
    for (const event of Object.keys(n.config.on ?? {})) events.add(event);
  }
  return events;
}

function handles(events: Set<string>, event: string): boolean {
  if (events.has(event) || events.has('*')) return true;
  const parts = event.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    if (events.has(`${parts.slice(0, i).join('.')}.*`)) return true;
  }
  return false;
}

/** True when the two nodes can be active at the same time (one contains the other, or they sit in parallel regions). */
function canBeActiveTogether(a: AnyStateNode, b: AnyStateNode): boolean {
  const ancestors = new Set<AnyStateNode>();
  for (let n: AnyStateNode | undefined = a; n; n = n.parent) ancestors.add(n);
  let lca: AnyStateNode | undefined = b;
  while (lca && !ancestors.has(lca)) lca = lca.parent;
  if (!lca) return false;
  return lca === a || lca === b || lca.type === 'parallel';
}

/** A machine whose final state has an output passes it on: the machine has a top-level `output`. */
export function finalOutputPassedOn(machine: AnyStateMachine, owner: string, problems: ProblemList): void {
  const finals = allNodes(machine.root).filter((n) => n.type === 'final' && n.parent === machine.root && n.config.output !== undefined);
  if (finals.length > 0 && machine.config.output === undefined) {
    problems.add(
      [owner, `machine '${machine.id}'`],
      'invalid_option',
      `its final state '${finals[0]!.key}' has an output but the machine has no top-level 'output', so XState reports no output at all.`,
      "Add output: ({ event }) => event.output to the machine's config to pass on the output of whichever final state it reached.",
    );
  }
}

/** No delayed transitions: XState does not persist their timers between rounds. */
export function noDelays(node: AnyStateNode, where: string[], problems: ProblemList): void {
  if (node.config.after && Object.keys(node.config.after).length > 0) {
    problems.add(
      where,
      'delayed_transition',
      "it uses 'after', but XState does not persist delays, so the timer would be lost between rounds.",
      'Keep the deadline in context and check it with a guard on the next answer instead.',
    );
  }
}

/** Every invoke has an id and logic named in setup: sealed snapshots stay valid, effects are recorded by id. */
export function invokesNamed(invokes: readonly { id?: unknown; src: unknown }[], where: string[], problems: ProblemList): void {
  for (const invoke of invokes) {
    if (typeof invoke.id !== 'string' || invoke.id.length === 0) {
      problems.add(
        where,
        'unnamed_invoke',
        `it invokes ${JSON.stringify(invoke.src)} without an 'id'.`,
        'Give every invoke an id, so sealed snapshots stay valid and effects can be recorded by it.',
      );
    } else if (invoke.src === 'inline') {
      problems.add(
        where,
        'unnamed_invoke',
        `it invokes inline actor logic '${invoke.id}'.`,
        'Name the logic in setup({ actors: { … } }) and invoke it by name.',
      );
    }
  }
}

/** A state's meta is plain JSON (it is hashed and exported to Stately); false when it is not. */
export function metaIsJson(meta: Record<string, unknown> | undefined, where: string[], problems: ProblemList): boolean {
  const nonJson = meta === undefined ? undefined : firstNonJson(meta, 'meta');
  if (!nonJson) return true;
  problems.add(
    where,
    'not_json',
    `${nonJson.path} is ${nonJson.what}; a machine config holds plain JSON only, so it can be hashed and exported to Stately.`,
    "Name questions with defineQuestions and ask them by name: meta: { ask: ['confirm'] }.",
  );
  return false;
}

/**
 * The questions a state asks (`meta.ask`): each one of the definition's, listed once, and every answer to it (accept,
 * decline, cancel; accept only for sampling and roots) handled by the state or an ancestor. Undefined when it asks none.
 */
export function questionsAsked(
  node: AnyStateNode,
  askConfig: unknown,
  where: string[],
  questions: ReadonlyMap<string, CompiledQuestion>,
  problems: ProblemList,
): CompiledQuestion[] | undefined {
  if (askConfig === undefined) return undefined;
  if (!Array.isArray(askConfig) || askConfig.some((k) => typeof k !== 'string')) {
    problems.add(
      where,
      'unknown_question',
      'meta.ask is not a list of question keys.',
      "Write meta: { ask: ['confirm'] } with keys named in the definition's questions.",
    );
    return undefined;
  }
  const events = handledEvents(node);
  const asks: CompiledQuestion[] = [];
  for (const key of askConfig as string[]) {
    const askWhere = [...where, `ask '${key}'`];
    const question = questions.get(key);
    if (!question) {
      const known = [...questions.keys()];
      problems.add(
        askWhere,
        'unknown_question',
        `'${key}' is not one of the definition's questions (${known.length ? known.map((k) => `'${k}'`).join(', ') : 'it names none'}).`,
        'Name the question in defineQuestions, or fix the key.',
      );
      continue;
    }
    if (asks.includes(question)) {
      problems.add(askWhere, 'question_asked_twice', `the state lists '${key}' twice.`, 'List each key once.');
      continue;
    }
    // the client answers a sampling or roots question with its result: accept only
    const actions = question.mode === 'sampling' || question.mode === 'roots' ? ['accept'] : ['accept', 'decline', 'cancel'];
    for (const action of actions) {
      if (!handles(events, `${key}.${action}`)) {
        problems.add(
          askWhere,
          'unhandled_answer',
          `no transition handles '${key}.${action}', so that answer would leave the user asked again forever.`,
          `Add on: { '${key}.${action}': … } to the state or an ancestor (or '${key}.*').`,
        );
      }
    }
    asks.push(question);
  }
  return asks;
}

/** No two states that can be active at once ask the same question: one answer could not tell them apart. */
export function questionsAskedApart(askers: ReadonlyMap<string, AnyStateNode[]>, owner: string, problems: ProblemList): void {
  for (const [key, nodes] of askers) {
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        if (canBeActiveTogether(nodes[i]!, nodes[j]!)) {
          problems.add(
            [owner, `ask '${key}'`],
            'question_asked_twice',
            `states '${nodes[i]!.id}' and '${nodes[j]!.id}' can be active at the same time and both ask '${key}', so one answer could not tell them apart.`,
            'Give the question of each parallel region its own key.',
          );
        }
      }
    }
  }
}

/** Every question of the definition is asked by some state. */
export function everyQuestionAsked(
  questions: ReadonlyMap<string, CompiledQuestion>,
  askers: ReadonlyMap<string, unknown>,
  owner: string,
  problems: ProblemList,
): void {
  for (const key of questions.keys()) {
    if (!askers.has(key))
      problems.add(
        [owner, `question '${key}'`],
        'unused_question',
        'no state asks it.',
        `Ask it from a state (meta: { ask: ['${key}'] }) or remove it.`,
      );
  }
}

/** The machine's version fits in a state's header: a string of 1 to 64 bytes. */
export function versionFitsAState(machine: AnyStateMachine, version: unknown, owner: string, problems: ProblemList): void {
  if (typeof version !== 'string' || version.length === 0 || encoder.encode(version).length > MAX_MACHINE_VERSION_BYTES) {
    problems.add(
      [owner, `machine '${machine.id}'`],
      'invalid_option',
      `its version ${JSON.stringify(version)} is not a string of 1–${MAX_MACHINE_VERSION_BYTES} bytes, so states could not carry it.`,
      "Write a short version string: createMachine({ version: '2', … }).",
    );
  }
}
