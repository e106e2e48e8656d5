// The tool of bench/legacy-http.bench.ts: one question, nothing else. `name_greeting` asks whom to greet
// (a form of one string field) and answers with the greeting: no invoked work, no timer, no effect, so that a
// conversation's time is what the transport and the engine take to ask once and finish (the transport tests'
// greet tool waits a millisecond before it asks, to report progress; a timer per conversation would blur the
// ratios). Imported by the bench's server entry (legacy-server.ts), bundled with the engine it is served by.

import { assign, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '../packages/engine/src/index.ts';

type Context = { greeting: string; name: string | null };

const questions = defineQuestions<Context>()({
  who: { message: 'Whom should I say "{{greeting}}" to?', schema: z.object({ name: z.string().min(1) }) },
});

const machine = setup({
  types: {
    context: {} as Context,
    input: {} as { greeting: string },
    events: {} as AnswerEvents<typeof questions>,
    meta: {} as AskMeta<typeof questions>,
    output: {} as { text: string },
  },
}).createMachine({
  id: 'name-greeting',
  context: ({ input }) => ({ greeting: input.greeting, name: null }),
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['who'] },
      on: {
        'who.accept': { target: 'done', actions: assign({ name: ({ event }) => event.content.name }) },
        'who.*': 'done',
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ text: context.name ? `${context.greeting}, ${context.name}!` : 'No greeting today.' }),
});

/** Asks whom to greet, then greets: `{ greeting: 'Hello' }` answered `{ name: 'Ada' }` gives "Hello, Ada!". */
export const nameGreetingTool = defineTool({
  name: 'name_greeting',
  description: 'Greets someone after asking for their name',
  input: z.object({ greeting: z.string() }),
  questions,
  machine,
  output: z.object({ text: z.string() }),
  result: (output) => ({ text: output.text, structured: output }),
  annotations: { readOnlyHint: true, openWorldHint: false },
});
