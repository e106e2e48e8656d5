// MRTR tools that ask the user, the client's model and the client in the same round, one parallel region
// each: every question at once (A5), or only those the request's client declared it can answer (A13).
import {
  type AnswerEvents,
  type AskMeta,
  CLIENT_EVENT,
  type ClientEvent,
  defineQuestions,
  defineTool,
  safeText,
  type ToolDefinition,
} from '@roundtrip/engine';
import { assign, setup } from 'xstate';
import { z } from 'zod';

const NO_ARGUMENTS = z.object({});

type Gathered = { client: ClientEvent | null; name: string | null; greeting: string | null; roots: string[] | null };
type Kind = 'elicitation' | 'sampling' | 'roots';

/** The three questions; each tool words its greeting request its own way. */
const gatheringQuestions = (greeting: string) =>
  defineQuestions<Gathered>()({
    user_name: { message: 'What is your name?', schema: z.object({ name: z.string() }) },
    greeting: { sampling: { messages: [{ role: 'user', content: { type: 'text', text: greeting } }], maxTokens: 50 } },
    client_roots: { roots: true },
  });
type GatheringQuestions = ReturnType<typeof gatheringQuestions>;

/** Asks all three at once, or, with `onlyIfDeclared`, those the client of the first round declared. */
function gatheringMachine(id: string, onlyIfDeclared: boolean) {
  return setup({
    types: {
      context: {} as Gathered,
      events: {} as AnswerEvents<GatheringQuestions> | ClientEvent,
      meta: {} as AskMeta<GatheringQuestions>,
      output: {} as Omit<Gathered, 'client'>,
    },
    guards: {
      knowsClient: ({ context }) => context.client !== null,
      // every kind is wanted, or (onlyIfDeclared) those the client of the first round declared
      wanted: ({ context }, { kind }: { kind: Kind }) =>
        !onlyIfDeclared || (kind === 'elicitation' ? context.client?.elicitation.form === true : context.client?.[kind] === true),
    },
    actions: {
      noteClient: assign({ client: ({ context, event }) => (event.type === CLIENT_EVENT ? event : context.client) }),
      noteName: assign({ name: ({ context, event }) => (event.type === 'user_name.accept' ? event.content.name : context.name) }),
      noteGreeting: assign({
        greeting: ({ context, event }) => {
          if (event.type !== 'greeting.accept') return context.greeting;
          const { content } = event.content;
          return !Array.isArray(content) && content.type === 'text' ? content.text : null;
        },
      }),
      noteRoots: assign({
        roots: ({ context, event }) => (event.type === 'client_roots.accept' ? event.content.roots.map((r) => r.uri) : context.roots),
      }),
    },
  }).createMachine({
    id,
    context: { client: null, name: null, greeting: null, roots: null },
    on: { [CLIENT_EVENT]: { actions: 'noteClient' } },
    initial: 'starting',
    states: {
      // the client event arrives first in every round: wait for it before choosing what to ask
      starting: { always: { guard: 'knowsClient', target: 'asking' } },
      asking: {
        type: 'parallel',
        // one region per question: asked when wanted, its answer kept, then over
        states: {
          user: {
            initial: 'check',
            states: {
              check: { always: [{ guard: { type: 'wanted', params: { kind: 'elicitation' } }, target: 'ask' }, { target: 'over' }] },
              ask: {
                meta: { ask: ['user_name'] },
                on: { 'user_name.accept': { target: 'over', actions: 'noteName' }, 'user_name.*': 'over' },
              },
              over: { type: 'final' },
            },
          },
          model: {
            initial: 'check',
            states: {
              check: { always: [{ guard: { type: 'wanted', params: { kind: 'sampling' } }, target: 'ask' }, { target: 'over' }] },
              ask: { meta: { ask: ['greeting'] }, on: { 'greeting.accept': { target: 'over', actions: 'noteGreeting' } } },
              over: { type: 'final' },
            },
          },
          client: {
            initial: 'check',
            states: {
              check: { always: [{ guard: { type: 'wanted', params: { kind: 'roots' } }, target: 'ask' }, { target: 'over' }] },
              ask: { meta: { ask: ['client_roots'] }, on: { 'client_roots.accept': { target: 'over', actions: 'noteRoots' } } },
              over: { type: 'final' },
            },
          },
        },
        onDone: 'done',
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ name: context.name, greeting: context.greeting, roots: context.roots }),
  });
}

const gathered = ({ name, greeting, roots }: Omit<Gathered, 'client'>) =>
  [
    name === null ? undefined : `name: ${safeText(name)}`,
    greeting === null ? undefined : `greeting: ${safeText(greeting)}`,
    roots === null ? undefined : `${roots.length} root(s) visible`,
  ].filter((part) => part !== undefined);

const allAtOnceQuestions = gatheringQuestions('Generate a greeting');
const multipleInputs = defineTool({
  name: 'test_input_required_result_multiple_inputs',
  description: "MRTR: asks the user's name, a greeting from the client's model and the client's roots in one round",
  input: NO_ARGUMENTS,
  questions: allAtOnceQuestions,
  machine: gatheringMachine('input_required_multiple_inputs', false),
  result: (output) => ({ text: `Gathered ${gathered(output).join('; ')}.` }),
});

const declaredOnlyQuestions = gatheringQuestions('Generate a short greeting');
const capabilities = defineTool({
  name: 'test_input_required_result_capabilities',
  description: 'MRTR: asks only what the request declared its client can answer (elicitation, sampling, roots)',
  input: NO_ARGUMENTS,
  questions: declaredOnlyQuestions,
  machine: gatheringMachine('input_required_capabilities', true),
  result: (output) => {
    const parts = gathered(output);
    return { text: parts.length === 0 ? 'The client declared nothing it could be asked.' : `Gathered ${parts.join('; ')}.` };
  },
});

export const parallelQuestionTools: readonly ToolDefinition[] = [multipleInputs, capabilities];
