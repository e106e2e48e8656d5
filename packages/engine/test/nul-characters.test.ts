// NUL (U+0000) in what a client sends is refused before the machine, an effect or a store sees it: in a
// tool's, prompt's or resource's arguments (nested ones and keys too) as the invalid arguments they are,
// in an answer (a form's, or a sampling result's) by asking the question again with the reason.
import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, definePrompt, defineQuestions, defineResource, defineTool } from '../src/index.ts';
import { accept, complete, failed, inputRequired, makeServer, messageOf, textIn } from './support.ts';

type NoteContext = { title: string; text: string | null; tags: Array<'ops' | 'payments'> };
const questions = defineQuestions<NoteContext>()({
  details: {
    message: 'What should the note "{{title}}" say?',
    schema: z.object({ text: z.string(), tags: z.array(z.enum(['ops', 'payments'])) }),
  },
});

/** A tool that asks for a note's text and tags, then saves the note once: what reached the store is in `saved`. */
function makeNoteTool(saved: NoteContext[]) {
  const machine = setup({
    types: {
      context: {} as NoteContext,
      input: {} as { title: string; labels?: { name: string }[] | undefined },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { saved: number },
    },
    actors: {
      save: fromPromise<number, NoteContext>(async ({ input }) => saved.push(input)),
    },
  }).createMachine({
    id: 'note',
    context: ({ input }) => ({ title: input.title, text: null, tags: [] }),
    initial: 'asking',
    states: {
      asking: {
        meta: { ask: ['details'] },
        on: {
          'details.accept': { target: 'saving', actions: assign(({ event }) => ({ text: event.content.text, tags: event.content.tags })) },
          'details.*': 'saved',
        },
      },
      saving: { invoke: { id: 'save', src: 'save', input: ({ context }) => context, onDone: 'saved' } },
      saved: { type: 'final' },
    },
    output: () => ({ saved: saved.length }),
  });
  return defineTool({
    name: 'file_note',
    description: 'Files a note after asking what it says',
    input: z.object({ title: z.string(), labels: z.array(z.object({ name: z.string() })).optional() }),
    questions,
    machine,
    result: (output) => ({ text: `Saved ${output.saved} note(s).` }),
    effects: { save: { once: true } },
  });
}

const REFUSED = 'NUL characters (U+0000) are not accepted; remove them';

describe('a NUL character in the arguments', () => {
  it.each([
    ['a top-level string', { title: 'Outage\u0000' }, 'title'],
    ['a string nested in a list of objects', { title: 'Outage', labels: [{ name: 'ok' }, { name: 'pay\u0000ments' }] }, 'labels.1.name'],
    ['a key', { title: 'Outage', 'x\u0000y': 1 }, 'x y'],
  ])('in %s is refused as invalid arguments naming the field; nothing runs', async (_, args, field) => {
    const saved: NoteContext[] = [];
    const test = makeServer({ tools: [makeNoteTool(saved)] });
    const outcome = complete(await test.call({ name: 'file_note', arguments: args }));
    expect(outcome.result.isError).toBe(true);
    expect(textIn(outcome.result.content[0])).toBe(
      `Invalid arguments for tool 'file_note': ${field}: ${REFUSED}. Call it again with arguments matching its input schema.`,
    );
    // no round ran: the machine never started, nothing was asked or saved
    expect(test.logs).toEqual([]);
    expect(saved).toEqual([]);
  });

  it('is refused before a schema that would strip or reject it, even deep inside an argument nested beyond any schema', async () => {
    const saved: NoteContext[] = [];
    const test = makeServer({ tools: [makeNoteTool(saved)] });
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const outcome = complete(await test.call({ name: 'file_note', arguments: { title: 'Outage', extra: deep } }));
    expect(textIn(outcome.result.content[0])).toMatch(/^Invalid arguments for tool 'file_note': extra\.0\.0\.0\..*: NUL characters/);
  });

  it('of a prompt or in a resource URI is refused as their invalid arguments are, naming the argument', async () => {
    const echo = setup({ types: { input: {} as Record<string, string>, output: {} as { text: string } } }).createMachine({
      id: 'echo',
      initial: 'done',
      states: { done: { type: 'final' } },
      output: () => ({ text: 'hi' }),
    });
    const server = makeServer({
      prompts: [
        definePrompt({
          name: 'draft',
          description: 'Drafts a text',
          arguments: z.object({ topic: z.string() }),
          machine: echo,
          messages: (o) => [{ role: 'user', text: o.text }],
        }),
      ],
      resources: [
        defineResource({
          uri: 'notes://people/{person}',
          name: 'notes',
          description: 'Notes about a person',
          machine: echo,
          contents: (o) => o.text,
        }),
      ],
    });
    expect(failed(await server.getPrompt({ name: 'draft', arguments: { topic: 'a\u0000b' } })).error).toEqual({
      code: -32602,
      message: `Invalid arguments for prompt 'draft': topic: ${REFUSED}. Ask for it again with arguments matching its list entry.`,
    });
    expect(failed(await server.readResource({ uri: 'notes://people/ada%00x' })).error).toEqual({
      code: -32602,
      message: `Resource not found: notes://people/ada%00x (person: ${REFUSED})`,
      data: { uri: 'notes://people/ada%00x' },
    });
    expect(server.logs).toEqual([]);
  });
});

describe('a NUL character in an answer', () => {
  it('asks the question again with the field and the reason; the effect sees only the clean answer', async () => {
    const saved: NoteContext[] = [];
    const test = makeServer({ tools: [makeNoteTool(saved)] });
    const call = (extra: object = {}) => test.call({ name: 'file_note', arguments: { title: 'Outage' }, ...extra });
    const first = inputRequired(await call());
    const again = inputRequired(
      await call({ requestState: first.requestState, inputResponses: { details: accept({ text: 'Down\u0000', tags: ['ops'] }) } }),
    );
    expect(messageOf(again.inputRequests.details)).toBe(
      `What should the note "Outage" say?\n\nYour last answer was not accepted: text: ${REFUSED}. Please answer again.`,
    );
    expect(test.logs).toContainEqual(
      expect.objectContaining({ event: 'answer_invalid', code: 'not_accepted', message: expect.stringContaining(`text: ${REFUSED}`) }),
    );
    expect(saved).toEqual([]);
    const done = complete(
      await call({ requestState: again.requestState, inputResponses: { details: accept({ text: 'Down', tags: ['payments'] }) } }),
    );
    expect(textIn(done.result.content[0])).toBe('Saved 1 note(s).');
    expect(saved).toEqual([{ title: 'Outage', text: 'Down', tags: ['payments'] }]);
  });

  it('in a list or a field the form does not have is refused too, as the client sent it, before the schema', async () => {
    const test = makeServer({ tools: [makeNoteTool([])] });
    const first = inputRequired(await test.call({ name: 'file_note', arguments: { title: 'Outage' } }));
    const again = inputRequired(
      await test.call({
        name: 'file_note',
        arguments: { title: 'Outage' },
        requestState: first.requestState,
        inputResponses: { details: accept({ text: 'Down', tags: ['ops', 'pay\u0000'] }) },
      }),
    );
    expect(messageOf(again.inputRequests.details)).toContain(`Your last answer was not accepted: tags.1: ${REFUSED}. Please answer again.`);
    const third = inputRequired(
      await test.call({
        name: 'file_note',
        arguments: { title: 'Outage' },
        requestState: again.requestState,
        inputResponses: { details: accept({ text: 'Down', tags: ['ops'], note: '\u0000' }) },
      }),
    );
    expect(messageOf(third.inputRequests.details)).toContain(`Your last answer was not accepted: note: ${REFUSED}. Please answer again.`);
  });
});
