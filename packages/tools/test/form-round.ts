// One question asked through a real engine: the form it sends, and what becomes of an answer. The
// question is a one-step declared flow, served by the same conversation helper as every flow test.
import type { ElicitationSchema } from '@roundtrip/engine';
import { expect } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool } from '../src/index.ts';
import { accept, converse } from './conversation.ts';

/** What one answer became: the content the machine received, or the reason the question was asked again. */
export type AnswerOutcome = { accepted: unknown } | { reasked: string };

/** Asks one question with the fields of `schema`: the form it sends, and a way to answer it once. */
export async function askForm(schema: z.ZodObject) {
  const tool = defineFlowTool({
    name: 'ask',
    description: 'Asks one question',
    input: z.object({}),
    steps: { q: ask({ message: 'Answer?', fields: schema.shape }) },
    final: ({ answers }) => ({ text: JSON.stringify(answers.q ?? null) }),
  });
  const first = await converse(tool);
  expect(Object.keys(first.asked), 'expected the one question q').toEqual(['q']);
  return {
    requestedSchema: (first.asked.q as { requestedSchema: ElicitationSchema }).requestedSchema,
    answer: async (content: Record<string, unknown>): Promise<AnswerOutcome> => {
      const next = await first.answer({ q: accept(content) });
      if (next.asked.q) {
        const reason = /Your last answer was not accepted: (.*)\. Please answer again\.$/.exec(next.asked.q.message)?.[1];
        expect(reason, next.asked.q.message).toBeDefined();
        return { reasked: reason! };
      }
      return { accepted: JSON.parse(next.text()) as unknown };
    },
  };
}
