// One question asked through a real engine: the form it sends, and what becomes of an answer.
import {
  type AnswerEvents,
  type AnswerSchema,
  type AskMeta,
  createEngine,
  createKeyring,
  defineQuestions,
  defineTool,
  type ElicitationSchema,
  generateKey,
} from '@roundtrip/engine';
import { expect } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';

const keyring = createKeyring([generateKey()]);
const CALL = { name: 'ask', arguments: {}, principal: 'ada', capabilities: { elicitation: {} } };

/** A tool that asks `Answer?` with this schema once and ends with the accepted content. */
function askingTool(schema: AnswerSchema) {
  const questions = defineQuestions<unknown>()({ q: { message: 'Answer?', schema } });
  const machine = setup({
    types: {
      context: {} as { answer: unknown },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { answer: unknown },
    },
  }).createMachine({
    id: 'ask',
    context: { answer: null },
    initial: 'asking',
    states: {
      asking: {
        meta: { ask: ['q'] },
        on: {
          'q.accept': { target: 'done', actions: assign({ answer: ({ event }) => event.content }) },
          'q.decline': 'done',
          'q.cancel': 'done',
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ answer: context.answer }),
  });
  return defineTool({
    name: 'ask',
    description: 'Asks one question',
    input: z.object({}),
    questions,
    machine,
    result: (output) => ({ text: JSON.stringify(output.answer) }),
  });
}

/** What one answer became: the content the machine received, or the reason the question was asked again. */
export type AnswerOutcome = { accepted: unknown } | { reasked: string };

/** Asks one question with `schema`: the form it sends, and a way to answer it once. */
export async function askForm(schema: AnswerSchema) {
  const engine = createEngine({ tools: [askingTool(schema)], keyring, audience: 'tools-test' });
  const first = await engine.callTool(CALL);
  if (first.type !== 'input_required') throw new Error(`expected a question, got ${JSON.stringify(first)}`);
  const request = first.inputRequests.q!;
  return {
    requestedSchema: (request.params as { requestedSchema: ElicitationSchema }).requestedSchema,
    answer: async (content: Record<string, unknown>): Promise<AnswerOutcome> => {
      const outcome = await engine.callTool({
        ...CALL,
        requestState: first.requestState,
        inputResponses: { q: { action: 'accept', content } },
      });
      if (outcome.type === 'input_required') {
        const message = outcome.inputRequests.q!.params.message;
        const reason = /Your last answer was not accepted: (.*)\. Please answer again\.$/.exec(message)?.[1];
        expect(reason, message).toBeDefined();
        return { reasked: reason! };
      }
      expect(outcome.type).toBe('complete');
      const text = outcome.type === 'complete' ? outcome.result.content[0]?.text : undefined;
      return { accepted: JSON.parse(text ?? 'null') as unknown };
    },
  };
}
