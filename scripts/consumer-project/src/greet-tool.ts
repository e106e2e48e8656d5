// A tool written against @roundtrip/engine: an XState machine that asks one named question.
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '@roundtrip/engine';
import { assign, setup } from 'xstate';
import { z } from 'zod';

type GreetContext = { greeting: string; name: string | null };

const questions = defineQuestions<GreetContext>()({
  who: { message: 'Whom should I say "{{greeting}}" to?', schema: z.object({ name: z.string().min(1) }) },
});

const machine = setup({
  types: {
    context: {} as GreetContext,
    input: {} as { greeting: string },
    events: {} as AnswerEvents<typeof questions>,
    meta: {} as AskMeta<typeof questions>,
    output: {} as { text: string },
  },
  // named, so the machine config stays JSON (hashable, drawable, importable in Stately)
  actions: { rememberName: assign((_, params: { name: string }) => ({ name: params.name })) },
}).createMachine({
  id: 'greet',
  context: ({ input }) => ({ greeting: input.greeting, name: null }),
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['who'] },
      on: {
        'who.accept': { target: 'done', actions: { type: 'rememberName', params: ({ event }) => ({ name: event.content.name }) } },
        'who.*': 'done',
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ text: context.name ? `${context.greeting}, ${context.name}!` : 'No greeting today.' }),
});

export const greetTool = defineTool({
  name: 'greet',
  description: 'Greets someone after asking for their name',
  input: z.object({ greeting: z.string() }),
  questions,
  machine,
  result: (output) => ({ text: output.text }),
});

// The declarations are real types, not `any`: a wrong config does not compile (never called).
export function wrongConfig() {
  // @ts-expect-error: a tool's name is a string
  return defineTool({ name: 42, description: 'no', input: z.object({}), questions, machine, result: () => ({ text: '' }) });
}
