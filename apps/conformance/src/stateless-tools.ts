// The tools the server-stateless scenario names: one that needs the client's model (refused with -32021 when
// the request did not declare sampling), one whose answer is a plain result, and one that would log.
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, type ToolDefinition } from '@roundtrip/engine';
import { log, setup } from 'xstate';
import { z } from 'zod';
import { finishedMachine } from './finished-machine.ts';

const NO_ARGUMENTS = z.object({});

const pongQuestions = defineQuestions<unknown>()({
  llm_answer: {
    sampling: { messages: [{ role: 'user', content: { type: 'text', text: 'Reply with the single word: pong' } }], maxTokens: 16 },
  },
});
const pongMachine = setup({
  types: { events: {} as AnswerEvents<typeof pongQuestions>, meta: {} as AskMeta<typeof pongQuestions> },
}).createMachine({
  id: 'missing_capability',
  initial: 'asking',
  states: { asking: { meta: { ask: ['llm_answer'] }, on: { 'llm_answer.accept': 'done' } }, done: { type: 'final' } },
});

const missingCapability = defineTool({
  name: 'test_missing_capability',
  description: "Needs the client's model (sampling): a request that did not declare it gets -32021",
  input: NO_ARGUMENTS,
  questions: pongQuestions,
  machine: pongMachine,
  result: () => ({ text: 'The sampling round trip is complete.' }),
});

const streamingElicitation = defineTool({
  name: 'test_streaming_elicitation',
  description: 'Answers with its result only: its response stream carries no request of its own',
  input: NO_ARGUMENTS,
  machine: finishedMachine('streaming_elicitation'),
  result: () => ({ text: 'The response stream carried the result and nothing else.' }),
});

const loggingTool = defineTool({
  name: 'test_logging_tool',
  description: 'Logs for the operator only: a request that set no log level gets no log messages',
  input: NO_ARGUMENTS,
  // the machine's log() goes to the engine's log, for the operator; the client is sent none
  machine: setup({ actions: { note: log('test_logging_tool ran') } }).createMachine({
    id: 'logging_tool',
    initial: 'done',
    states: { done: { type: 'final', entry: 'note' } },
  }),
  result: () => ({ text: 'Logged to the server log, not to the client.' }),
});

export const statelessTools: readonly ToolDefinition[] = [missingCapability, streamingElicitation, loggingTool];
