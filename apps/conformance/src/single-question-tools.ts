// MRTR tools that ask one question: of the user (a form), of the client's model (sampling) or of the client
// (its roots). The form tool also takes answers that arrive without a requestState, as a client that already
// knows the form sends them; it moves nothing, so that is safe.
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, safeText, type ToolDefinition } from '@roundtrip/engine';
import { assign, setup } from 'xstate';
import { z } from 'zod';

const NO_ARGUMENTS = z.object({});

// ─── A1: the user's name (also A7, A10, A14, A15) ───────────────────────────────────────────────

/** The user's name: asked by the first MRTR tool, and before the task of test_tool_with_task. */
export const nameQuestions = defineQuestions<{ name: string | null }>()({
  user_name: { message: 'What is your name?', schema: z.object({ name: z.string() }) },
});
const nameMachine = setup({
  types: {
    context: {} as { name: string | null },
    events: {} as AnswerEvents<typeof nameQuestions>,
    meta: {} as AskMeta<typeof nameQuestions>,
    output: {} as { name: string | null },
  },
}).createMachine({
  id: 'input_required_elicitation',
  context: { name: null },
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['user_name'] },
      on: {
        'user_name.accept': { target: 'done', actions: assign({ name: ({ event }) => event.content.name }) },
        'user_name.*': 'done',
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ name: context.name }),
});

const elicitation = defineTool({
  name: 'test_input_required_result_elicitation',
  description: "MRTR: asks the user's name with a form, then greets them",
  input: NO_ARGUMENTS,
  questions: nameQuestions,
  machine: nameMachine,
  acceptAnswersWithoutState: true,
  annotations: { readOnlyHint: true },
  result: ({ name }) => ({ text: name === null ? 'No name was given.' : `Hello, ${safeText(name)}!` }),
});

// ─── A2: a question for the client's model ──────────────────────────────────────────────────────

const capitalQuestions = defineQuestions<{ answer: string | null }>()({
  capital_question: {
    sampling: { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 },
  },
});
const capitalMachine = setup({
  types: {
    context: {} as { answer: string | null },
    events: {} as AnswerEvents<typeof capitalQuestions>,
    meta: {} as AskMeta<typeof capitalQuestions>,
    output: {} as { answer: string | null },
  },
}).createMachine({
  id: 'input_required_sampling',
  context: { answer: null },
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['capital_question'] },
      on: {
        'capital_question.accept': {
          target: 'done',
          actions: assign({
            answer: ({ event }) => {
              const { content } = event.content;
              return !Array.isArray(content) && content.type === 'text' ? content.text : null;
            },
          }),
        },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ answer: context.answer }),
});

const sampling = defineTool({
  name: 'test_input_required_result_sampling',
  description: "MRTR: asks the client's model a question (sampling/createMessage), then repeats its answer",
  input: NO_ARGUMENTS,
  questions: capitalQuestions,
  machine: capitalMachine,
  result: ({ answer }) => ({ text: `Sampling response: ${answer === null ? '(not text)' : safeText(answer)}` }),
});

// ─── A3: the client's roots ─────────────────────────────────────────────────────────────────────

const rootsQuestions = defineQuestions<{ roots: string[] }>()({ client_roots: { roots: true } });
const rootsMachine = setup({
  types: {
    context: {} as { roots: string[] },
    events: {} as AnswerEvents<typeof rootsQuestions>,
    meta: {} as AskMeta<typeof rootsQuestions>,
    output: {} as { roots: string[] },
  },
}).createMachine({
  id: 'input_required_list_roots',
  context: { roots: [] },
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['client_roots'] },
      on: { 'client_roots.accept': { target: 'done', actions: assign({ roots: ({ event }) => event.content.roots.map((r) => r.uri) }) } },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ roots: context.roots }),
});

const listRoots = defineTool({
  name: 'test_input_required_result_list_roots',
  description: 'MRTR: asks the client for its roots (roots/list), then lists them',
  input: NO_ARGUMENTS,
  questions: rootsQuestions,
  machine: rootsMachine,
  result: ({ roots }) => ({ text: `The client exposes ${roots.length} root(s): ${safeText(roots.join(', ')) || 'none'}` }),
});

export const singleQuestionTools: readonly ToolDefinition[] = [elicitation, sampling, listRoots];
