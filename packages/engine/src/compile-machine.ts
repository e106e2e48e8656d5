import type { AnyStateMachine, AnyStateNode } from 'xstate';
import type { AskSpec } from './ask.ts';
import { RoundtripDefinitionError } from './definition-error.ts';
import { canonicalJson, digestBytes } from './digest.ts';
import { type AnswerSchema, toElicitationSchema } from './elicitation-schema.ts';
import { TAG_BYTES } from './state-envelope.ts';
import type { ElicitationSchema } from './wire-shapes.ts';

/** One question of an asking state, checked and converted at definition time. */
export interface CompiledAsk {
  readonly key: string;
  readonly stateId: string;
  readonly message: AskSpec<unknown>['message'];
  readonly schema: AnswerSchema;
  readonly requestedSchema: ElicitationSchema;
  /** The requested schema as canonical JSON, part of every question hash. */
  readonly schemaText: string;
}

/** A machine checked for serving: its asks by state id, and the identity sealed into every state. */
export interface CompiledMachine {
  readonly machine: AnyStateMachine;
  readonly id: string;
  readonly version: string;
  /** Digest of the machine's id, version and structure: states, transitions, guards by name, invokes, asks. */
  readonly hash: Uint8Array;
  readonly asksByState: ReadonlyMap<string, readonly CompiledAsk[]>;
}

const ASK_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

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

function nameOf(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (typeof value === 'function') return 'inline';
  if (value && typeof value === 'object' && 'type' in value) return (value as { type: unknown }).type;
  return null;
}

function simplifyTransition(config: unknown): unknown {
  if (config === undefined || config === null || typeof config === 'string') return config ?? null;
  if (Array.isArray(config)) return config.map(simplifyTransition);
  if (typeof config === 'object') {
    const t = config as { target?: unknown; guard?: unknown; reenter?: unknown };
    return { target: t.target ?? null, guard: nameOf(t.guard), reenter: t.reenter ?? false };
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
 * Checks a machine for serving over MRTR and computes what gets sealed with its snapshots.
 * `owner` prefixes every error message ("Tool 'refund_order'").
 */
export function compileMachine(machine: AnyStateMachine, owner: string): CompiledMachine {
  const finals = allNodes(machine.root).filter((n) => n.type === 'final' && n.parent === machine.root && n.config.output !== undefined);
  if (finals.length > 0 && machine.config.output === undefined) {
    throw new RoundtripDefinitionError(
      'invalid_option',
      `${owner}: machine '${machine.id}' gives its final state '${finals[0]!.key}' an output but has no top-level 'output', so XState reports no output at all. ` +
        "Add output: ({ event }) => event.output to the machine's config to pass on the output of whichever final state it reached.",
    );
  }
  const asksByState = new Map<string, CompiledAsk[]>();
  const structure: unknown[] = [];
  for (const node of allNodes(machine.root)) {
    const where = `${owner}, state '${node.id}'`;
    if (node.config.after && Object.keys(node.config.after).length > 0) {
      throw new RoundtripDefinitionError(
        'delayed_transition',
        `${where} uses 'after', but XState does not persist delays, so the timer would be lost between rounds. ` +
          'Keep the deadline in context and check it with a guard on the next answer instead.',
      );
    }
    const invokes = invokesOf(node);
    for (const invoke of invokes) {
      if (typeof invoke.id !== 'string' || invoke.id.length === 0) {
        throw new RoundtripDefinitionError(
          'unnamed_invoke',
          `${where} invokes ${JSON.stringify(invoke.src)} without an 'id'. Give every invoke an id so sealed snapshots stay valid when the machine changes.`,
        );
      }
      if (invoke.src === 'inline') {
        throw new RoundtripDefinitionError(
          'unnamed_invoke',
          `${where} invokes inline actor logic '${invoke.id}'. Name it in setup({ actors: { … } }) and invoke it by name.`,
        );
      }
    }
    const asks: CompiledAsk[] = [];
    const askConfig = (node.config.meta as { ask?: Record<string, AskSpec<unknown>> } | undefined)?.ask;
    if (askConfig !== undefined) {
      if (typeof askConfig !== 'object' || askConfig === null) {
        throw new RoundtripDefinitionError('invalid_ask_key', `${where}: meta.ask must be an object of questions keyed by input key.`);
      }
      const events = handledEvents(node);
      for (const [key, spec] of Object.entries(askConfig)) {
        if (!ASK_KEY.test(key)) {
          throw new RoundtripDefinitionError(
            'invalid_ask_key',
            `${where} asks ${JSON.stringify(key)}: an input key starts with a letter and holds only letters, digits, '_' and '-' (at most 64).`,
          );
        }
        const askWhere = `${where}, ask '${key}'`;
        if (!spec || (typeof spec.message !== 'string' && typeof spec.message !== 'function')) {
          throw new RoundtripDefinitionError('invalid_ask_key', `${askWhere} has no message: give it a string or ({ context }) => string.`);
        }
        for (const action of ['accept', 'decline', 'cancel']) {
          if (!handles(events, `${key}.${action}`)) {
            throw new RoundtripDefinitionError(
              'unhandled_answer',
              `${askWhere} has no transition for '${key}.${action}', so that answer would leave the user asked again forever. ` +
                `Add on: { '${key}.${action}': … } to the state (or '${key}.*').`,
            );
          }
        }
        const requestedSchema = toElicitationSchema(spec.schema, askWhere);
        asks.push({ key, stateId: node.id, message: spec.message, schema: spec.schema, requestedSchema, schemaText: canonicalJson(requestedSchema) });
      }
      asksByState.set(node.id, asks);
    }
    structure.push({
      id: node.id,
      type: node.type,
      initial: node.config.initial ?? null,
      history: node.config.history ?? null,
      on: Object.fromEntries(Object.entries(node.config.on ?? {}).map(([event, t]) => [event, simplifyTransition(t)])),
      always: simplifyTransition(node.config.always),
      invoke: invokes,
      asks: asks.map((a) => ({ key: a.key, schema: a.requestedSchema })),
    });
  }
  const version = machine.version ?? '0';
  return {
    machine,
    id: machine.id,
    version,
    hash: digestBytes(canonicalJson({ id: machine.id, version, structure }), TAG_BYTES.machine),
    asksByState,
  };
}
