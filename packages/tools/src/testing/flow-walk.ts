// A declared flow's machine as a graph for xstate/graph: states told apart by what decides where the
// flow goes next (state, steps taken, which answers exist, which comparisons of the conditions hold),
// and from each state the sample answers to its first question that lead somewhere different, or where
// the engine would wait for invoked work, its outcomes (work-events.ts).
import { CLIENT_EVENT } from '@roundtrip/engine';
import { type AnyMachineSnapshot, type AnyStateMachine, type EventObject, getNextSnapshot, initialTransition } from 'xstate';
import { type FlowContext, type FlowEvent, valuesOf } from '../flow-context.ts';
import { FINISHING } from '../flow-transitions.ts';
import { type AnswerCandidate, answerCandidates } from './answer-events.ts';
import { type AtomicTest, conditionTests, testSignature } from './condition-tests.ts';
import type { InputResponse } from './conversation-types.ts';
import { type QuestionForm, withLoadedChoices } from './question-forms.ts';
import { loadOf, loadSamples, workEvents } from './work-events.ts';

/** Traversal options shared by getSimplePaths, getShortestPaths and getAdjacencyMap. */
interface WalkOptions {
  readonly input: Record<string, unknown>;
  /** Where every conversation starts: the first round, after the engine told a form-only client's modes. */
  readonly fromState: AnyMachineSnapshot;
  readonly serializeState: (snapshot: AnyMachineSnapshot) => string;
  readonly events: (snapshot: AnyMachineSnapshot) => EventObject[];
  readonly stopWhen: (snapshot: AnyMachineSnapshot) => boolean;
  readonly limit: number;
}

export interface FlowWalk {
  readonly machine: AnyStateMachine;
  readonly options: WalkOptions;
  /** The keys the snapshot's active states ask, in the order the engine feeds their answers. */
  askedKeys(snapshot: AnyMachineSnapshot): string[];
  /** The final action was reached (state `finishing`), or the machine stopped. */
  isEnd(snapshot: AnyMachineSnapshot): boolean;
  /** What the client sends for an answer event made here. */
  responseOf(event: EventObject): InputResponse;
  /** The plainest accept of a question: the response for a key the flow asks but no longer reads this round. */
  plainResponse(key: string, snapshot: AnyMachineSnapshot): InputResponse;
  /**
   * What an answer sends, one string each: a field's value (`when.time="11:00"`, `when.notes left out`),
   * or `when:decline`; what a load gives (`order loaded {"found":true}`, `order failed`); nothing for other work.
   */
  sentValues(event: EventObject): string[];
  /** The answers in a state that lead where an earlier answer in it does (left out of `events`), with where they lead. */
  sameWayAnswers(snapshot: AnyMachineSnapshot): ReadonlyArray<{ event: EventObject; target: AnyMachineSnapshot }>;
}

/**
 * The first snapshot of a conversation, as the engine makes it: the initial state, then (for a flow that
 * listens) the client event of a client with form elicitation only, so page steps take their alternative.
 */
function startOf(machine: AnyStateMachine, input: Record<string, unknown>): AnyMachineSnapshot {
  const [initial] = initialTransition(machine, input) as [AnyMachineSnapshot, unknown];
  const listens = Object.hasOwn((machine.config.on ?? {}) as object, CLIENT_EVENT);
  return listens ? getNextSnapshot(machine, initial, { type: CLIENT_EVENT, elicitation: { form: true, url: false } }) : initial;
}

/** The most traversal steps one flow may take (a guard against a runaway graph). */
const TRAVERSAL_LIMIT = 20_000;

/** The graph of `machine` (a declared flow's) for `input`, with sample answers to `questions` and sample results of its loads. */
export function flowWalk(
  machine: AnyStateMachine,
  config: unknown,
  questions: ReadonlyMap<string, QuestionForm>,
  formsOf: (step: string) => readonly string[],
  input: Record<string, unknown>,
  options: { readonly now: Date; readonly loaded: Readonly<Record<string, readonly unknown[]>> },
): FlowWalk {
  const { now } = options;
  const tests: readonly AtomicTest[] = conditionTests(config);
  const samples = loadSamples(options.loaded, tests);
  const candidates = new Map<string, AnswerCandidate[]>();
  const responses = new Map<EventObject, InputResponse>();
  // a question with choices among loaded items has the candidates of the items loaded on this way
  const candidatesFor = (key: string, context: FlowContext): AnswerCandidate[] => {
    const question = questions.get(key);
    if (!question) throw new Error(`conversationsOf: the machine asks '${key}', which the definition does not name.`);
    const asked = withLoadedChoices(question, valuesOf(context));
    const id = asked === question ? key : `${key} ${JSON.stringify(asked.requestedSchema)}`;
    let found = candidates.get(id);
    if (!found) {
      found = answerCandidates(asked, tests, now);
      for (const candidate of found) responses.set(candidate.event, candidate.response);
      candidates.set(id, found);
    }
    return found;
  };
  const askedKeys = (snapshot: AnyMachineSnapshot): string[] =>
    Object.values(snapshot.getMeta() as Record<string, { ask?: readonly string[] } | undefined>).flatMap((meta) => [...(meta?.ask ?? [])]);
  const isEnd = (snapshot: AnyMachineSnapshot) => snapshot.status !== 'active' || snapshot.value === FINISHING;
  // the answers that can still matter: those of the steps on the way here, and while reviewing (when a
  // step answered before is passed through) all of them; an answer left behind by going back is not
  const serializeState = (snapshot: AnyMachineSnapshot): string => {
    const context = snapshot.context as FlowContext;
    const onTrail = new Set(context.trail.flatMap((step) => formsOf(step)));
    const kept = Object.keys(context.answers ?? {})
      .filter((form) => context.reviewing || onTrail.has(form))
      .sort();
    const answers = Object.fromEntries(kept.map((form) => [form, context.answers[form]!]));
    const presence = kept.map((form) => `${form}:${answers[form] === null ? 'skipped' : 'answered'}`);
    const signature = testSignature(tests, valuesOf({ ...context, answers }));
    return JSON.stringify([snapshot.status, snapshot.value, context.trail, context.reviewing, context.ended ?? null, presence, signature]);
  };
  // each state's events computed once: the answers to its first question that lead to different states
  const byState = new Map<string, { events: FlowEvent[]; sameWay: Array<{ event: FlowEvent; target: AnyMachineSnapshot }> }>();
  const answersIn = (snapshot: AnyMachineSnapshot) => {
    const here = serializeState(snapshot);
    const cached = byState.get(here);
    if (cached) return cached;
    const key = askedKeys(snapshot)[0];
    const found = { events: [] as FlowEvent[], sameWay: [] as Array<{ event: FlowEvent; target: AnyMachineSnapshot }> };
    if (!isEnd(snapshot)) {
      const reached = new Set<string>();
      // the answers to its first question; when it asks nothing, what the work it waits for can give
      const tries =
        key === undefined ? workEvents(snapshot, samples) : candidatesFor(key, snapshot.context as FlowContext).map(({ event }) => event);
      for (const event of tries) {
        const target = getNextSnapshot(machine, snapshot, event);
        const next = serializeState(target);
        // the same state again is a re-ask (a check refused the answer): a loop, not a way on
        if (next === here) continue;
        if (reached.has(next)) found.sameWay.push({ event, target });
        else found.events.push(event);
        reached.add(next);
      }
    }
    byState.set(here, found);
    return found;
  };
  return {
    machine,
    options: {
      input,
      fromState: startOf(machine, input),
      serializeState,
      events: (snapshot) => answersIn(snapshot).events,
      stopWhen: isEnd,
      limit: TRAVERSAL_LIMIT,
    },
    askedKeys,
    isEnd,
    responseOf: (event) => {
      const response = responses.get(event);
      if (!response) throw new Error(`conversationsOf: no response for event '${event.type}'.`);
      return response;
    },
    plainResponse: (key, snapshot) => candidatesFor(key, snapshot.context as FlowContext)[0]!.response,
    sameWayAnswers: (snapshot) => answersIn(snapshot).sameWay,
    sentValues: (event) => {
      const load = loadOf(event);
      if (load)
        return [load.type.startsWith('xstate.error.') ? `${load.step} failed` : `${load.step} loaded ${JSON.stringify(load.output)}`];
      if (!(event as { key?: string }).key) return [];
      const key = (event as { key?: string }).key ?? '';
      const response = responses.get(event);
      if (response?.action !== 'accept') return [`${key}:${response?.action ?? event.type}`];
      const fields = Object.keys(questions.get(key)?.requestedSchema.properties ?? {});
      return fields.map((field) =>
        field in response.content ? `${key}.${field}=${JSON.stringify(response.content[field])}` : `${key}.${field} left out`,
      );
    },
  };
}
