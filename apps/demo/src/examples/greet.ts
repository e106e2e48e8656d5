// The example of docs/machines.md (a hand-written machine), kept here so that it typechecks with the repository.
// Run it as a stdio server: npx -y pnpm@10.34.9 --filter @roundtrip/demo -s greet
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '@roundtrip/engine';
import { runStdioServer } from '@roundtrip/transport-stdio';
import { assign, setup } from 'xstate';
import { z } from 'zod';

type Context = { greeting: string; name: string | null };

// 1. The questions, named once: a message (a template over context, or a function of it) and a zod
//    schema for the answer, which becomes the form. {{greeting}} must be a path of Context.
const questions = defineQuestions<Context>()({
  who: { message: 'Whom should I say "{{greeting}}" to?', schema: z.object({ name: z.string().min(1).describe('Their name') }) },
});

// 2. The machine: a plain-JSON XState config. A state asks questions by name; the answers arrive as
//    the typed events who.accept (with the validated content), who.decline and who.cancel.
const greetMachine = setup({
  types: {
    context: {} as Context,
    input: {} as { greeting: string },
    output: {} as { text: string; greeted: string | null },
    events: {} as AnswerEvents<typeof questions>,
    meta: {} as AskMeta<typeof questions>,
  },
  actions: { rememberName: assign((_, params: { name: string }) => ({ name: params.name })) },
}).createMachine({
  id: 'greet',
  version: '1',
  context: ({ input }) => ({ greeting: input.greeting, name: null }),
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['who'] },
      on: {
        'who.accept': { target: 'done', actions: { type: 'rememberName', params: ({ event }) => ({ name: event.content.name }) } },
        'who.decline': 'done',
        'who.cancel': 'done',
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ text: context.name ? `${context.greeting}, ${context.name}!` : 'No greeting today.', greeted: context.name }),
});

// 3. The tool: its arguments (the machine's input), the questions, the machine, and how the machine's
//    output becomes the result; `output` is the schema of structuredContent, checked before sending.
const greet = defineTool({
  name: 'greet',
  title: 'Greet someone',
  description: 'Greets someone after asking for their name',
  input: z.object({ greeting: z.string().min(1).describe('e.g. Hello') }),
  questions,
  machine: greetMachine,
  output: z.object({ text: z.string(), greeted: z.string().nullable() }),
  result: (output) => ({ text: output.text, structured: output }),
  annotations: { readOnlyHint: true, openWorldHint: false },
});

await runStdioServer({ name: 'greeter', version: '1.0.0', tools: [greet] });
