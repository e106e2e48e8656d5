// The bench's third round kind: a 10-question flow declared with @roundtrip/tools (one text field per
// step, each message a template over the tool's input), answered up to question 5; the timed round
// answers question 5 and is asked question 6. Imported by path like the engine (bench/ is no workspace
// package); @roundtrip/tools' own `import '@roundtrip/engine'` resolves to the same engine sources.
import type { z as ZodTypes } from '../packages/engine/node_modules/zod/index.cjs';
import { ask, defineFlowTool, field, type StepSpec } from '../packages/tools/src/index.ts';

const zodEsm: string = '../packages/engine/node_modules/zod/index.js';
const { z } = (await import(zodEsm)) as { z: typeof ZodTypes };

export const FLOW_QUESTIONS = 10;
/** The question the timed round answers (the state is sealed while it is asked). */
export const FLOW_ANSWERED = 5;

const stepKey = (n: number) => `q${n}`;
/** The answer content for question `n`, as the client sends it and the machine receives it. */
export const flowAnswer = (n: number) => ({ [`a${n}`]: `answer number ${n}` });

function step(n: number): StepSpec {
  return ask({
    message: `Question ${n} of ${FLOW_QUESTIONS} about {{input.topic}}?`,
    fields: { [`a${n}`]: field.text({ title: `Answer ${n}`, maxLength: 200 }) },
  });
}

/** The 10-question survey tool. */
export function createSurveyTool() {
  const steps: Record<string, StepSpec> = Object.fromEntries(
    Array.from({ length: FLOW_QUESTIONS }, (_, i) => [stepKey(i + 1), step(i + 1)]),
  );
  return defineFlowTool({
    name: 'survey',
    description: 'Asks ten questions about a topic, one at a time, then thanks the user.',
    input: z.object({ topic: z.string().min(1) }),
    steps,
    final: ({ input }) => ({ text: `Thank you for answering ten questions about ${input.topic}.` }),
  });
}

export const surveyArgs = { topic: 'benchmarks' };
export const surveyKey = stepKey;
