import { describe, expect, expectTypeOf, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, CLIENT_EVENT, type ClientEvent, defineQuestions, defineTool } from '../src/index.ts';
import { complete, failed, inputRequired, makeEngine } from './support.ts';

type Context = { order: string; via: 'page' | 'form' | null };
const questions = defineQuestions<Context>()({
  pay: { message: 'Pay for order {{order}} on the payment page.', url: 'https://pay.example.com/orders/{{order}}' },
  card: { message: 'Pay order {{order}} by invoice instead?', schema: z.object({ invoice: z.boolean() }) },
});

/** Pays through the payment page when the client can open one, else asks whether to send an invoice. */
function payTool(url?: string) {
  const qs = url
    ? defineQuestions<Context>()({
        pay: { message: 'Pay.', url },
        card: { message: 'Invoice?', schema: z.object({ invoice: z.boolean() }) },
      })
    : questions;
  const machine = setup({
    types: {
      context: {} as Context,
      input: {} as { order: string },
      events: {} as AnswerEvents<typeof questions> | ClientEvent,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { via: string },
    },
    actions: {
      noteClient: assign({ via: ({ event }) => (event.type === CLIENT_EVENT ? (event.elicitation.url ? 'page' : 'form') : null) }),
    },
    guards: { canOpenPages: ({ context }) => context.via === 'page', knowsClient: ({ context }) => context.via !== null },
  }).createMachine({
    id: 'pay',
    context: ({ input }) => ({ order: input.order, via: null }),
    on: { [CLIENT_EVENT]: { actions: 'noteClient' } },
    initial: 'choosing',
    states: {
      choosing: {
        always: [
          { guard: 'canOpenPages', target: 'paying' },
          { guard: 'knowsClient', target: 'invoice' },
        ],
      },
      paying: { meta: { ask: ['pay'] }, on: { 'pay.accept': 'done', 'pay.*': 'done' } },
      invoice: { meta: { ask: ['card'] }, on: { 'card.*': 'done' } },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ via: String(context.via) }),
  });
  return defineTool({
    name: 'pay',
    description: 'Pays an order',
    input: z.object({ order: z.string() }),
    questions: qs,
    machine,
    result: (output) => ({ text: `paid via ${output.via}` }),
  });
}

const URL_CLIENT = { elicitation: { form: {}, url: {} } };

describe('URL-mode questions', () => {
  it('asks a client that declared elicitation.url to open the page, and takes accept without content', async () => {
    const { call } = makeEngine([payTool()]);
    const asked = inputRequired(await call({ name: 'pay', arguments: { order: 'ord_7' }, capabilities: URL_CLIENT }));
    expect(asked.inputRequests).toEqual({
      pay: {
        method: 'elicitation/create',
        params: {
          mode: 'url',
          message: 'Pay for order ord_7 on the payment page.',
          url: 'https://pay.example.com/orders/ord_7',
          elicitationId: expect.stringMatching(/^pay-[A-Za-z0-9_-]+$/),
        },
      },
    });
    const done = complete(
      await call({
        name: 'pay',
        arguments: { order: 'ord_7' },
        capabilities: URL_CLIENT,
        requestState: asked.requestState,
        inputResponses: { pay: { action: 'accept' } },
      }),
    );
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'paid via page' }] });
  });

  it('tells the machine at the start of each round what the client declared, so it can offer a form instead', async () => {
    const { call } = makeEngine([payTool()]);
    const asked = inputRequired(await call({ name: 'pay', arguments: { order: 'ord_7' }, capabilities: { elicitation: {} } }));
    expect(Object.keys(asked.inputRequests)).toEqual(['card']);
    expect(asked.inputRequests.card!.params.mode).toBe('form');
  });

  it('answers -32021 asking for elicitation.url when a machine asks a URL question of a client without it', async () => {
    const questionsOnly = defineQuestions<unknown>()({ pay: { message: 'Pay.', url: 'https://pay.example.com/' } });
    const machine = setup({
      types: { events: {} as AnswerEvents<typeof questionsOnly>, meta: {} as AskMeta<typeof questionsOnly> },
    }).createMachine({
      id: 'always_url',
      initial: 'paying',
      states: { paying: { meta: { ask: ['pay'] }, on: { 'pay.*': 'done' } }, done: { type: 'final' } },
    });
    const tool = defineTool({
      name: 'always_url',
      description: 'Pays',
      input: z.object({}),
      questions: questionsOnly,
      machine,
      result: () => ({ text: 'ok' }),
    });
    const { call, logs } = makeEngine([tool]);
    expect(failed(await call({ name: 'always_url', arguments: {} })).error).toEqual({
      code: -32021,
      message:
        "Tool 'always_url' needs to ask the user ('pay'), but this request did not declare URL-mode elicitation (elicitation.url). Use a client that supports URL-mode elicitation.",
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    expect(logs).toContainEqual(expect.objectContaining({ event: 'capability_missing' }));
  });

  it.each([
    ['javascript:alert(1)', 'javascript:'],
    ['http://pay.example.com/', 'http:'],
    ['not a url', 'not a URL'],
  ])('refuses to send the page %s, logging why', async (url, why) => {
    const { call, logs } = makeEngine([payTool(url)]);
    const outcome = complete(await call({ name: 'pay', arguments: { order: 'ord_7' }, capabilities: URL_CLIENT }));
    expect(outcome.result).toMatchObject({ isError: true });
    expect(logs.find((e) => e.level === 'error')?.message).toContain(why);
  });

  it('types the accept event of a URL question as carrying no content', () => {
    type Events = AnswerEvents<typeof questions>;
    expectTypeOf<Extract<Events, { type: 'pay.accept' }>['content']>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<Extract<Events, { type: 'card.accept' }>['content']>().toEqualTypeOf<{ invoice: boolean }>();
  });
});
