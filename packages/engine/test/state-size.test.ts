// A state the server would refuse next round is never handed out: an answer too large to keep is asked
// again, and a context that grew past the limit ends the conversation with words for the user and the author.
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { makeSubmitTool, validDetails } from './adversarial-tool.ts';
import { accept, complete, inputRequired, makeEngine, textIn } from './support.ts';

/** Keeps `size` characters in context from the start, then appends each note it is given. */
function growingTool() {
  const questions = defineQuestions<{ notes: string[] }>()({
    note: { message: 'Another note?', schema: z.object({ note: z.string() }) },
  });
  const machine = setup({
    types: {
      context: {} as { notes: string[] },
      input: {} as { size: number },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
    },
  }).createMachine({
    id: 'growing',
    context: ({ input }) => ({ notes: ['x'.repeat(input.size)] }),
    initial: 'noting',
    states: {
      noting: {
        meta: { ask: ['note'] },
        on: {
          'note.accept': {
            target: 'noting',
            reenter: true,
            actions: assign({ notes: ({ context, event }) => [...context.notes, event.content.note] }),
          },
          'note.*': 'done',
        },
      },
      done: { type: 'final' },
    },
  });
  return defineTool({
    name: 'grow',
    description: 'Keeps notes',
    input: z.object({ size: z.number() }),
    questions,
    machine,
    result: () => ({ text: 'kept' }),
  });
}

describe('the size of the state handed out', () => {
  it('asks again for an answer whose sealed size would pass the limit, saying how much is kept', async () => {
    const { call } = makeEngine([growingTool()], { maxStateBytes: 4096 });
    const first = inputRequired(await call({ name: 'grow', arguments: { size: 10 } })).requestState;
    const outcome = inputRequired(
      await call({
        name: 'grow',
        arguments: { size: 10 },
        requestState: first,
        inputResponses: { note: accept({ note: 'n'.repeat(3500) }) },
      }),
    );
    const params = outcome.inputRequests.note?.params as { message: string };
    expect(params.message).toMatch(
      /Your last answer was not accepted: it would take about \d+ bytes of the 4096 this server keeps between rounds\. Please answer again\./,
    );
    expect(outcome.requestState.length).toBeLessThanOrEqual(4096);
  });

  it('ends a conversation whose context grew past the limit, with words for the user and for the author', async () => {
    const { call, logs } = makeEngine([growingTool()], { maxStateBytes: 4096 });
    let state = inputRequired(await call({ name: 'grow', arguments: { size: 1000 } })).requestState;
    let outcome = await call({
      name: 'grow',
      arguments: { size: 1000 },
      requestState: state,
      inputResponses: { note: accept({ note: 'n'.repeat(1000) }) },
    });
    state = inputRequired(outcome).requestState;
    outcome = await call({
      name: 'grow',
      arguments: { size: 1000 },
      requestState: state,
      inputResponses: { note: accept({ note: 'n'.repeat(1000) }) },
    });
    expect(complete(outcome).result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: expect.stringContaining('grew past what the server keeps between rounds. Start again with shorter answers.'),
        },
      ],
    });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', event: 'state_too_large', code: 'over_limit', limit: 4096 }));
  });
});

describe('an answer or arguments with thousands of bad items', () => {
  const manyIssues =
    /^Invalid arguments for tool 'list': ids\.0: Invalid input: expected string, received number; .*; and 29995 more problems\. Call it again/;

  it('is asked again with a few of its problems and the rest counted, in the note and the log', async () => {
    const { call, logs } = makeEngine([makeSubmitTool({ runs: 0 })]);
    const first = inputRequired(await call({ name: 'submit_request', arguments: { account: 'a' } }));
    // 60 KB of answer, under the size cap: one problem per item would make a note of some 2 MB
    const content = { ...validDetails, tags: Array.from({ length: 30_000 }, () => 1) };
    const again = inputRequired(
      await call({
        name: 'submit_request',
        arguments: { account: 'a' },
        requestState: first.requestState,
        inputResponses: { details: accept(content) },
      }),
    );
    expect(again.inputRequests.details!.params.message).toMatch(
      /tags\.0: Invalid option: .*; and 29995 more problems\. Please answer again\.$/,
    );
    expect(JSON.stringify(again).length).toBeLessThan(3_000);
    expect(logs.at(-1)!.message.length).toBeLessThan(1_500);
  });

  it('names a few of the argument problems, each cut short, and counts the rest', async () => {
    const input = z.strictObject({ ids: z.array(z.string()) });
    const listTool = defineTool({
      name: 'list',
      description: 'Takes a list of ids',
      input,
      machine: setup({ types: { input: {} as z.output<typeof input> } }).createMachine({
        id: 'list',
        initial: 'done',
        states: { done: { type: 'final' } },
      }),
      result: () => ({ text: 'ok' }),
    });
    const engine = makeEngine([listTool]);
    const ids = complete(await engine.call({ name: 'list', arguments: { ids: Array.from({ length: 30_000 }, () => 1) } }));
    expect(textIn(ids.result.content[0])).toMatch(manyIssues);
    const keys = complete(await engine.call({ name: 'list', arguments: { ids: [], ['k'.repeat(1_000_000)]: 1 } }));
    expect(JSON.stringify(keys.result).length).toBeLessThan(1_000);
  });
});
