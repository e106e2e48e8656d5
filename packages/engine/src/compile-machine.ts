import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { CLIENT_EVENT } from './client-event.ts';
import type { ProblemList } from './definition-error.ts';
import { canonicalJson, digestBytes } from './digest.ts';
import { firstNonJson } from './json-value.ts';
import type { MigrationPlan } from './machine-migrations.ts';
import type { CompiledQuestion } from './questions.ts';
import { MAX_MACHINE_VERSION_BYTES, TAG_BYTES } from './state-envelope.ts';

const encoder = new TextEncoder();

/** A machine checked for serving: the questions its states ask, and the identity sealed into every state. */
export interface CompiledMachine {
  readonly machine: AnyStateMachine;
  readonly id: string;
  readonly version: string;
  /**
   * Digest of the machine's id, version and structure: states, transitions, guards and actions by name
   * (with JSON params), invokes, the questions asked (key, form, mode; not their text), and the shape of
   * a literal context (keys and JSON types).
   */
  readonly hash: Uint8Array;
  /** The definition's migrations from earlier versions, checked (none for a machine compiled alone). */
  readonly migrations?: MigrationPlan | undefined;
  /** The questions each asking state asks, by state id. */
  readonly asksByState: ReadonlyMap<string, readonly CompiledQuestion[]>;
  /** The root handles the client event: the engine sends it at the start of every round. */
  readonly handlesClientEvent: boolean;
}

function allNodes(root: AnyStateNode): AnyStateNode[] {
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

/** A guard or action as the hash sees it: its name (and params when they are JSON), never its code. */
function nameOf(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (typeof value === 'function') {
    // XState's built-in actions (assign, raise, sendTo, …) are functions carrying their type
    const { type, assignment } = value as { type?: unknown; assignment?: unknown };
    if (typeof type !== 'string') return 'inline';
    if (type === 'xstate.assign' && assignment && typeof assignment === 'object') return { type, assigns: Object.keys(assignment).sort() };
    return type;
  }
  if (value && typeof value === 'object' && 'type' in value) {
    const { type, params } = value as { type: unknown; params?: unknown };
    // params written as a function map data (like context); JSON params are part of the structure
    return params === undefined || typeof params === 'function' || firstNonJson(params, 'params')
      ? nameOf(type)
      : { type: nameOf(type), params };
  }
  return null;
}

/** The actions of an entry, exit or transition, by name in order. */
function actionsOf(actions: unknown): unknown[] {
  if (actions === undefined || actions === null) return [];
  return (Array.isArray(actions) ? actions : [actions]).map(nameOf);
}

/** The shape of a JSON value: object keys with the shape of each member, and the type of everything else. */
function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, member]) => [key, shapeOf(member)]));
  return typeof value;
}

function simplifyTransition(config: unknown): unknown {
  if (config === undefined || config === null || typeof config === 'string') return config ?? null;
  if (Array.isArray(config)) return config.map(simplifyTransition);
  if (typeof config === 'object') {
    const t = config as { target?: unknown; guard?: unknown; reenter?: unknown; actions?: unknown };
    return { target: t.target ?? null, guard: nameOf(t.guard), reenter: t.reenter ?? false, actions: actionsOf(t.actions) };
  }
  return 'inline';
}

interface InvokeShape {
  id?: unknown;
  src: unknown;
  onDone: unknown;
  onError: unknown;
}

function invokesOf(node: AnyStateNode): InvokeShape[] {
  const invoke = node.config.invoke;
  if (!invoke) return [];
  // a src is either a name from setup({ actors }) or inline actor logic (an object such as fromPromise(...))
  return (Array.isArray(invoke) ? invoke : [invoke]).map((i: { id?: unknown; src: unknown; onDone?: unknown; onError?: unknown }) => ({
    id: i.id,
    src: typeof i.src === 'string' ? i.src : 'inline',
    onDone: simplifyTransition(i.onDone),
    onError: simplifyTransition(i.onError),
  }));
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

/**
 * Checks a machine for serving over MRTR against the questions of its definition, and computes what
 * gets sealed with its snapshots. Collects every problem into `problems` (paths start with `owner`).
 */
export function compileMachine(
  machine: AnyStateMachine,
  owner: string,
  questions: ReadonlyMap<string, CompiledQuestion>,
  problems: ProblemList,
): CompiledMachine {
  const finals = allNodes(machine.root).filter((n) => n.type === 'final' && n.parent === machine.root && n.config.output !== undefined);
  if (finals.length > 0 && machine.config.output === undefined) {
    problems.add(
      [owner, `machine '${machine.id}'`],
      'invalid_option',
      `its final state '${finals[0]!.key}' has an output but the machine has no top-level 'output', so XState reports no output at all.`,
      "Add output: ({ event }) => event.output to the machine's config to pass on the output of whichever final state it reached.",
    );
  }
  const asksByState = new Map<string, CompiledQuestion[]>();
  const askers = new Map<string, AnyStateNode[]>();
  const structure: unknown[] = [];
  for (const node of allNodes(machine.root)) {
    const where = [owner, `state '${node.id}'`];
    if (node.config.after && Object.keys(node.config.after).length > 0) {
      problems.add(
        where,
        'delayed_transition',
        "it uses 'after', but XState does not persist delays, so the timer would be lost between rounds.",
        'Keep the deadline in context and check it with a guard on the next answer instead.',
      );
    }
    const invokes = invokesOf(node);
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
    const meta = node.config.meta as Record<string, unknown> | undefined;
    const nonJson = meta === undefined ? undefined : firstNonJson(meta, 'meta');
    if (nonJson) {
      problems.add(
        where,
        'not_json',
        `${nonJson.path} is ${nonJson.what}; a machine config holds plain JSON only, so it can be hashed and exported to Stately.`,
        "Name questions with defineQuestions and ask them by name: meta: { ask: ['confirm'] }.",
      );
    }
    const asks: CompiledQuestion[] = [];
    const askConfig = meta?.ask;
    if (askConfig !== undefined && !nonJson) {
      if (!Array.isArray(askConfig) || askConfig.some((k) => typeof k !== 'string')) {
        problems.add(
          where,
          'unknown_question',
          'meta.ask is not a list of question keys.',
          "Write meta: { ask: ['confirm'] } with keys named in the definition's questions.",
        );
      } else {
        const events = handledEvents(node);
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
          askers.set(key, [...(askers.get(key) ?? []), node]);
        }
        asksByState.set(node.id, asks);
      }
    }
    structure.push({
      id: node.id,
      type: node.type,
      initial: node.config.initial ?? null,
      history: node.config.history ?? null,
      on: Object.fromEntries(Object.entries(node.config.on ?? {}).map(([event, t]) => [event, simplifyTransition(t)])),
      always: simplifyTransition(node.config.always),
      onDone: simplifyTransition(node.config.onDone),
      entry: actionsOf(node.config.entry),
      exit: actionsOf(node.config.exit),
      invoke: invokes,
      // a question's text is not structure: a state sealed before a reworded question still opens, and
      // the question is asked again (each answer is pinned to the question's own hash)
      asks: asks.map((a) => ({ key: a.key, schema: a.requestedSchema, mode: a.mode })),
    });
  }
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
  const asked = new Set(askers.keys());
  for (const key of questions.keys()) {
    if (!asked.has(key)) {
      problems.add(
        [owner, `question '${key}'`],
        'unused_question',
        'no state asks it.',
        `Ask it from a state (meta: { ask: ['${key}'] }) or remove it.`,
      );
    }
  }
  const version = machine.version ?? '0';
  if (typeof version !== 'string' || version.length === 0 || encoder.encode(version).length > MAX_MACHINE_VERSION_BYTES) {
    problems.add(
      [owner, `machine '${machine.id}'`],
      'invalid_option',
      `its version ${JSON.stringify(version)} is not a string of 1–${MAX_MACHINE_VERSION_BYTES} bytes, so states could not carry it.`,
      "Write a short version string: createMachine({ version: '2', … }).",
    );
  }
  // a literal context's shape is structure; a context made from input is known only at run time
  const context = machine.config.context;
  const contextShape = context !== null && typeof context === 'object' ? shapeOf(context) : null;
  return {
    machine,
    id: machine.id,
    version,
    hash: digestBytes(canonicalJson({ id: machine.id, version, context: contextShape, structure }), TAG_BYTES.machine),
    asksByState,
    handlesClientEvent: Object.hasOwn(machine.root.config.on ?? {}, CLIENT_EVENT),
  };
}
