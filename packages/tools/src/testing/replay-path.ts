// A path's events played on the machine again, from its first state, and grouped into the rounds the
// engine makes of them: each round answers the keys asked together, in the order the engine feeds them.
import type { EventObject } from 'xstate';
import { getNextSnapshot } from 'xstate';
import { answersOnTrail, type FlowContext } from '../flow-context.ts';
import type { ConversationEnd, ConversationLoad, ConversationRound, InputResponse } from './conversation-types.ts';
import type { FlowWalk } from './flow-walk.ts';
import { isWorkEvent, loadOf } from './work-events.ts';

/** The forms each step of a flow's machine config asks: a parallel step's regions, else its (or its `asking` state's) `meta.ask`. */
export function formsOfSteps(config: Record<string, unknown>): (step: string) => readonly string[] {
  type StepState = { type?: string; states?: Record<string, StepState | undefined>; meta?: { ask?: string[] } };
  const states = (config.states ?? {}) as Record<string, StepState | undefined>;
  return (step) => {
    const state = states[step];
    if (state?.type === 'parallel') return Object.keys(state.states ?? {});
    // a step whose check is async asks in its `asking` state
    return state?.meta?.ask ?? state?.states?.asking?.meta?.ask ?? [];
  };
}

const keyOf = (event: EventObject) => (event as { key?: string }).key ?? event.type.slice(0, event.type.lastIndexOf('.'));

/** A replayed conversation: its rounds, what its loads gave, both in the order they happened, and its end. */
export interface ReplayedPath {
  readonly rounds: ConversationRound[];
  readonly loads: ConversationLoad[];
  readonly sequence: Array<ConversationRound | ConversationLoad>;
  readonly end: ConversationEnd;
}

/**
 * The rounds, loads and end of a conversation whose answers (and outcomes of invoked work) are `events`.
 * Throws when the machine does not go the way the path says (an answer to a question it does not ask) or fails.
 */
export function replayPath(walk: FlowWalk, formsOf: (step: string) => readonly string[], events: readonly EventObject[]): ReplayedPath {
  let snapshot = walk.options.fromState;
  const rounds: ConversationRound[] = [];
  const loads: ConversationLoad[] = [];
  const sequence: Array<ConversationRound | ConversationLoad> = [];
  let next = 0;
  while (next < events.length) {
    if (walk.isEnd(snapshot)) throw new Error(`conversationsOf: the flow ended before the answer '${events[next]!.type}'.`);
    // invoked work the engine waits for within a round: a load's outcome is part of the conversation
    if (isWorkEvent(events[next]!)) {
      const event = events[next++]!;
      const load = loadOf(event);
      if (load) {
        const outcome: ConversationLoad = load.type.startsWith('xstate.error.')
          ? { step: load.step, loader: load.loader, outcome: 'failed' }
          : { step: load.step, loader: load.loader, outcome: 'loaded', value: load.output };
        loads.push(outcome);
        sequence.push(outcome);
      }
      snapshot = getNextSnapshot(walk.machine, snapshot, event);
      continue;
    }
    const asked = walk.askedKeys(snapshot);
    const responses: Record<string, InputResponse> = {};
    let waiting = [...asked];
    while (next < events.length && !walk.isEnd(snapshot)) {
      const event = events[next]!;
      const key = keyOf(event);
      if (!waiting.includes(key)) break;
      if (walk.askedKeys(snapshot)[0] !== key) {
        throw new Error(
          `conversationsOf: the path answers '${key}', but the machine in ${JSON.stringify(snapshot.value)} asks first ${walk.askedKeys(snapshot)[0] ?? 'nothing'}.`,
        );
      }
      responses[key] = walk.responseOf(event);
      waiting = waiting.filter((k) => k !== key);
      snapshot = getNextSnapshot(walk.machine, snapshot, event);
      next++;
    }
    if (Object.keys(responses).length === 0) {
      throw new Error(`conversationsOf: the path answers '${events[next]!.type}', but the machine asks ${asked.join(', ')}.`);
    }
    const stillAsked = walk.isEnd(snapshot) ? [] : walk.askedKeys(snapshot);
    const unanswered = waiting.filter((key) => stillAsked.includes(key));
    if (unanswered.length > 0) throw new Error(`conversationsOf: the path leaves ${unanswered.join(', ')} unanswered in a round.`);
    // a key asked with the others but no longer asked when its turn comes: answered plainly, ignored by the engine
    for (const key of waiting) responses[key] = walk.plainResponse(key, snapshot);
    const round = { asked, responses: Object.fromEntries(asked.map((key) => [key, responses[key]!])) };
    rounds.push(round);
    sequence.push(round);
  }
  if (snapshot.status === 'error') throw new Error(`conversationsOf: the machine failed: ${String(snapshot.error)}`);
  if (!walk.isEnd(snapshot)) throw new Error(`conversationsOf: the path stops in ${JSON.stringify(snapshot.value)}, which is no end.`);
  const context = snapshot.context as FlowContext;
  const ended = context.ended;
  const end: ConversationEnd = ended
    ? { status: 'ended', step: ended.step, how: ended.how, ...(ended.message !== undefined && { message: ended.message }) }
    : { status: 'done', answers: answersOnTrail(context, formsOf) };
  return { rounds, loads, sequence, end };
}
