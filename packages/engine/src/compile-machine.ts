import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { CLIENT_EVENT } from './client-event.ts';
import type { ProblemList } from './definition-error.ts';
import { canonicalJson, digestBytes } from './digest.ts';
import { firstNonJson } from './json-value.ts';
import type { MigrationPlan } from './machine-migrations.ts';
import {
  allNodes,
  everyQuestionAsked,
  finalOutputPassedOn,
  invokesNamed,
  metaIsJson,
  noDelays,
  questionsAsked,
  questionsAskedApart,
  versionFitsAState,
} from './machine-rules.ts';
import type { CompiledQuestion } from './questions.ts';
import { TAG_BYTES } from './state-envelope.ts';

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
  finalOutputPassedOn(machine, owner, problems);
  const asksByState = new Map<string, CompiledQuestion[]>();
  const askers = new Map<string, AnyStateNode[]>();
  const structure: unknown[] = [];
  for (const node of allNodes(machine.root)) {
    const where = [owner, `state '${node.id}'`];
    noDelays(node, where, problems);
    const invokes = invokesOf(node);
    invokesNamed(invokes, where, problems);
    const meta = node.config.meta as Record<string, unknown> | undefined;
    const asks = metaIsJson(meta, where, problems) ? questionsAsked(node, meta?.ask, where, questions, problems) : undefined;
    if (asks) {
      asksByState.set(node.id, asks);
      for (const question of asks) askers.set(question.key, [...(askers.get(question.key) ?? []), node]);
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
      asks: (asks ?? []).map((a) => ({ key: a.key, schema: a.requestedSchema, mode: a.mode })),
    });
  }
  questionsAskedApart(askers, owner, problems);
  everyQuestionAsked(questions, askers, owner, problems);
  const version = machine.version ?? '0';
  versionFitsAState(machine, version, owner, problems);
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
