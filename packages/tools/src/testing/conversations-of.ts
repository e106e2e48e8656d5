// Every way through a declared flow as a conversation: the simple paths of its machine's graph that
// end (xstate/graph), one conversation through each transition only a cycle takes, and one for each
// sample answer no other conversation sends.
import type { PromptDefinition, ResourceDefinition, ToolDefinition } from '@roundtrip/engine';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { getAdjacencyMap, getShortestPaths, getSimplePaths } from 'xstate/graph';
import { flowMachineConfig, flowMachineFrom } from '../flow-registry.ts';
import type {
  Conversation,
  ConversationEnd,
  ConversationLoad,
  ConversationOptions,
  ConversationRound,
  InputResponse,
} from './conversation-types.ts';
import { type FlowWalk, flowWalk } from './flow-walk.ts';
import { definitionForms } from './question-forms.ts';
import { formsOfSteps, replayPath } from './replay-path.ts';

const DEFAULT_MAX_PATHS = 200;

interface Path {
  readonly states: readonly AnyMachineSnapshot[];
  readonly events: readonly EventObject[];
}

/** A path of xstate/graph as the states it passes (the first included) and the events between them. */
function pathOf(path: { state: AnyMachineSnapshot; steps: ReadonlyArray<{ state: AnyMachineSnapshot; event: EventObject }> }): Path {
  const steps = path.steps;
  return { states: steps.length === 0 ? [path.state] : steps.map((step) => step.state), events: steps.slice(1).map((step) => step.event) };
}

const edgeId = (walk: FlowWalk, state: AnyMachineSnapshot, event: EventObject) =>
  `${walk.options.serializeState(state)}\u0000${JSON.stringify(event)}`;

/** The kind of a transition, for covering each once: from which state, on which answer (a review's choice), to which state. */
function transitionKind(from: AnyMachineSnapshot, event: EventObject, to: AnyMachineSnapshot): string {
  const choice = (event as { content?: { choice?: unknown } }).content?.choice;
  return JSON.stringify([from.value, event.type, typeof choice === 'string' ? choice : null, to.value]);
}

/** The shortest way from `from` to an end, the final action preferred. */
function shortestToEnd(walk: FlowWalk, from: AnyMachineSnapshot): readonly EventObject[] {
  if (walk.isEnd(from)) return [];
  const ends = getShortestPaths(walk.machine, { ...walk.options, fromState: from })
    .map(pathOf)
    .filter((path) => walk.isEnd(path.states[path.states.length - 1]!));
  const rank = (path: Path) => (path.states[path.states.length - 1]!.status === 'active' ? 0 : 1000) + path.events.length;
  const best = ends.sort((a, b) => rank(a) - rank(b))[0];
  if (!best) throw new Error('conversationsOf: a state of the flow leads to no end.');
  return best.events;
}

type EventPath = { kind: Conversation['kind']; events: readonly EventObject[] };
type Adjacency = Record<
  string,
  { state: AnyMachineSnapshot; transitions: Record<string, { event: EventObject; state: AnyMachineSnapshot }> }
>;

/**
 * The event paths of the conversations: simple paths to an end; then one through each transition only
 * cycles take (`loops`); then one for each sample answer that sends a field's value (or a decline, a
 * cancel) no conversation sent yet (`everyAnswer`).
 */
function eventPaths(walk: FlowWalk, { loops, everyAnswer }: { loops: boolean; everyAnswer: boolean }): EventPath[] {
  const all = getSimplePaths(walk.machine, walk.options).map(pathOf);
  const ending = all.filter((path) => walk.isEnd(path.states[path.states.length - 1]!));
  const out: EventPath[] = ending.map((path) => ({ kind: 'simple', events: path.events }));
  if (!loops && !everyAnswer) return out;
  const shortestTo = new Map<string, Path>();
  for (const path of all) {
    const id = walk.options.serializeState(path.states[path.states.length - 1]!);
    const known = shortestTo.get(id);
    if (!known || path.events.length < known.events.length) shortestTo.set(id, path);
  }
  const adjacency = Object.entries(getAdjacencyMap(walk.machine, walk.options) as Adjacency);
  const through = (id: string, event: EventObject, target: AnyMachineSnapshot) => [
    ...shortestTo.get(id)!.events,
    event,
    ...shortestToEnd(walk, target),
  ];
  if (loops) {
    const covered = new Set(ending.flatMap((path) => path.events.map((event, i) => edgeId(walk, path.states[i]!, event))));
    const kinds = new Set<string>();
    for (const [id, { state, transitions }] of adjacency) {
      if (!shortestTo.has(id)) continue;
      for (const { event, state: target } of Object.values(transitions)) {
        const kind = transitionKind(state, event, target);
        if (covered.has(edgeId(walk, state, event)) || kinds.has(kind)) continue;
        kinds.add(kind);
        out.push({ kind: 'loop', events: through(id, event, target) });
      }
    }
  }
  if (everyAnswer) {
    const sent = new Set(out.flatMap((path) => path.events.flatMap((event) => walk.sentValues(event))));
    for (const [id, { state }] of adjacency) {
      if (!shortestTo.has(id)) continue;
      for (const { event, target } of walk.sameWayAnswers(state)) {
        const fresh = walk.sentValues(event).filter((value) => !sent.has(value));
        if (fresh.length === 0) continue;
        for (const value of fresh) sent.add(value);
        out.push({ kind: 'variant', events: through(id, event, target) });
      }
    }
  }
  return out;
}

const describeResponse = (response: InputResponse) =>
  response.action === 'accept' ? `accept ${JSON.stringify(response.content)}` : response.action;
const describeEnd = (end: ConversationEnd) => (end.status === 'done' ? 'done' : `ended (${end.how} at '${end.step}')`);
const describeLoad = (load: ConversationLoad) => (load.outcome === 'failed' ? 'failed' : `loaded ${JSON.stringify(load.value)}`);

function nameOf(sequence: ReadonlyArray<ConversationRound | ConversationLoad>, end: ConversationEnd): string {
  const said = sequence.map((part) =>
    'step' in part
      ? `${part.step}: ${describeLoad(part)}`
      : part.asked.map((key) => `${key}: ${describeResponse(part.responses[key]!)}`).join(' + '),
  );
  return `${said.join(' › ')} → ${describeEnd(end)}`;
}

/**
 * Every way through a flow made by defineFlowTool, defineFlowPrompt or defineFlowResource, as the
 * conversations a client would have: each simple path of the flow's machine (xstate/graph's
 * `getSimplePaths`) that reaches the final action or an end, and, unless `loops: false`, one
 * conversation through each transition that only a cycle takes (going back, changing an answer at a
 * review), and, unless `everyAnswer: false`, one sending each sample answer the others do not send.
 * Answers are samples of each question's form (each option, both booleans, numbers either side of every
 * threshold the conditions use, a valid text), plus decline and cancel; the flow's own guards pick the
 * branches, and answers that lead to the same place make one path. A load step gives each of its sample
 * results (`options.loaded`) and fails, each a way through listed in `loads`; an async check is taken to
 * accept (a refusal only asks again).
 *
 * @example
 * for (const conversation of conversationsOf(bookMeeting, { input: { topic: 'Plan' } })) {
 *   const result = await playConversation(conversation, (retry) => client.callTool({ name: 'book_meeting', arguments: { topic: 'Plan' }, ...retry }, { allowInputRequired: true }));
 * }
 */
export function conversationsOf(
  definition: ToolDefinition | PromptDefinition | ResourceDefinition,
  options: ConversationOptions = {},
): Conversation[] {
  const config = flowMachineConfig(definition);
  const { owner, questions, parseInput } = definitionForms(definition);
  const machine = flowMachineFrom(definition, config);
  const formsOf = formsOfSteps(config);
  const walk = flowWalk(machine, config, questions, formsOf, parseInput(options.input ?? {}), {
    now: options.now ?? new Date(),
    loaded: options.loaded ?? {},
  });
  const maxPaths = options.maxPaths ?? DEFAULT_MAX_PATHS;
  let paths: EventPath[];
  try {
    paths = eventPaths(walk, { loops: options.loops ?? true, everyAnswer: options.everyAnswer ?? true });
  } catch (error) {
    if ((error as Error).message !== 'Traversal limit exceeded') throw error;
    throw new Error(`conversationsOf: the graph of ${owner} has too many states to walk. Cut the branches of the flow.`, { cause: error });
  }
  if (paths.length > maxPaths) {
    throw new Error(
      `conversationsOf: ${owner} has ${paths.length} conversations, more than maxPaths (${maxPaths}). Raise maxPaths, or cut the branches of the flow.`,
    );
  }
  const seen = new Set<string>();
  const conversations: Conversation[] = [];
  for (const { kind, events } of paths) {
    const { rounds, loads, sequence, end } = replayPath(walk, formsOf, events);
    const name = nameOf(sequence, end);
    if (seen.has(name)) continue;
    seen.add(name);
    conversations.push({ name, kind, rounds, loads, end });
  }
  return conversations;
}

/** The most rounds any of the conversations takes (0 for none): the official TypeScript client stops after 10. */
export function maxRounds(conversations: readonly Conversation[]): number {
  return conversations.reduce((most, conversation) => Math.max(most, conversation.rounds.length), 0);
}
