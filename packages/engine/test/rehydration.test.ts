import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '../src/index.ts';
import { accept, complete, decline, inputRequired, makeEngine } from './support.ts';

const okSchema = z.object({ ok: z.boolean() });

describe('what survives between rounds', () => {
  it('restores a history state from the sealed snapshot', async () => {
    const questions = defineQuestions<unknown>()({
      first: { message: 'First step?', schema: okSchema },
      second: { message: 'Second step?', schema: okSchema },
      help: { message: 'Read the help, then go back?', schema: okSchema },
    });
    const machine = setup({ types: { events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> } }).createMachine(
      {
        id: 'wizard',
        initial: 'form',
        states: {
          form: {
            initial: 'first',
            states: {
              first: { meta: { ask: ['first'] }, on: { 'first.accept': 'second', 'first.*': '#wizard.gone' } },
              second: {
                meta: { ask: ['second'] },
                on: { 'second.accept': '#wizard.finished', 'second.decline': '#wizard.help', 'second.cancel': '#wizard.gone' },
              },
              resume: { type: 'history' },
            },
          },
          help: { meta: { ask: ['help'] }, on: { 'help.accept': 'form.resume', 'help.*': 'gone' } },
          finished: { type: 'final' },
          gone: { type: 'final' },
        },
      },
    );
    const wizard = defineTool({
      name: 'wizard',
      description: 'Two steps and a help page',
      input: z.object({}),
      questions,
      machine,
      result: () => ({ text: 'done' }),
    });
    const { call } = makeEngine([wizard]);
    const step = async (requestState: string, inputResponses: Record<string, unknown>) =>
      inputRequired(await call({ name: 'wizard', arguments: {}, requestState, inputResponses }));

    const r1 = inputRequired(await call({ name: 'wizard', arguments: {} }));
    const r2 = await step(r1.requestState, { first: accept({ ok: true }) });
    expect(Object.keys(r2.inputRequests)).toEqual(['second']);
    const r3 = await step(r2.requestState, { second: decline });
    expect(Object.keys(r3.inputRequests)).toEqual(['help']);
    // back through the history state: to the second step, not the form's initial first step
    const r4 = await step(r3.requestState, { help: accept({ ok: true }) });
    expect(Object.keys(r4.inputRequests)).toEqual(['second']);
  });

  it('keeps a finished invoked actor that stays in the snapshot without running it again', async () => {
    let runs = 0;
    type Context = { total: number | null; answer: boolean | null };
    const questions = defineQuestions<Context>()({ ok: { message: 'Pay {{total}}?', schema: okSchema } });
    const machine = setup({
      types: {
        context: {} as Context,
        events: {} as AnswerEvents<typeof questions>,
        meta: {} as AskMeta<typeof questions>,
        output: {} as Context,
      },
      actors: {
        price: fromPromise(async () => {
          runs++;
          return 1250;
        }),
      },
    }).createMachine({
      id: 'side_by_side',
      type: 'parallel',
      context: { total: null, answer: null },
      states: {
        // this region's promise finishes but its state stays active, so the done child stays in the snapshot
        pricing: {
          initial: 'busy',
          states: {
            busy: {
              invoke: { id: 'price', src: 'price', onDone: { actions: assign({ total: ({ event }) => event.output }) } },
              on: { 'ok.*': 'priced' },
            },
            priced: { type: 'final' },
          },
        },
        asking: {
          initial: 'q',
          states: {
            q: {
              meta: { ask: ['ok'] },
              on: { 'ok.accept': { target: 'answered', actions: assign({ answer: ({ event }) => event.content.ok }) }, 'ok.*': 'answered' },
            },
            answered: { type: 'final' },
          },
        },
      },
      output: ({ context }) => context,
    });
    const tool = defineTool({
      name: 'side_by_side',
      description: 'A finished child stays in the snapshot',
      input: z.object({}),
      questions,
      machine,
      result: (output) => ({ text: String(output.answer), structured: output }),
    });
    const { call, logs } = makeEngine([tool]);
    const r1 = inputRequired(await call({ name: 'side_by_side', arguments: {} }));
    expect(r1.inputRequests.ok!.params.message).toBe('Pay 1250?');
    const r2 = await call({
      name: 'side_by_side',
      arguments: {},
      requestState: r1.requestState,
      inputResponses: { ok: accept({ ok: true }) },
    });
    expect(complete(r2).result.structuredContent).toEqual({ total: 1250, answer: true });
    expect(runs).toBe(1);
    expect(logs.filter((e) => e.level === 'error')).toEqual([]);
  });
});
