// Questions the client answers instead of the user: sampling/createMessage and roots/list (deprecated by MCP
// 2026-07-28, supported for compatibility). Asked, gated by the request's capabilities, answered, re-asked.
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvents,
  type AskMeta,
  CLIENT_EVENT,
  type ClientEvent,
  defineQuestions,
  defineTool,
  describeDefinition,
} from '../src/index.ts';
import { accept, complete, failed, makeEngine, problemsOf } from './support.ts';

const ALL = { elicitation: {}, sampling: {}, roots: { listChanged: true } };

type TripContext = { city: string; capital: string | null; roots: string[] | null };
const tripQuestions = defineQuestions<TripContext>()({
  capital: {
    sampling: {
      messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of {{city}}?' } }],
      maxTokens: 100,
      systemPrompt: 'Answer with one word about {{city}}.',
    },
  },
  folders: { roots: true },
});
const tripMachine = setup({
  types: {
    context: {} as TripContext,
    input: {} as { city: string },
    events: {} as AnswerEvents<typeof tripQuestions>,
    meta: {} as AskMeta<typeof tripQuestions>,
    output: {} as { capital: string; roots: string[] },
  },
}).createMachine({
  id: 'trip',
  context: ({ input }) => ({ city: input.city, capital: null, roots: null }),
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['capital'] },
      on: {
        'capital.accept': {
          target: 'listing',
          actions: assign({
            capital: ({ event }) =>
              !Array.isArray(event.content.content) && event.content.content.type === 'text' ? event.content.content.text : '?',
          }),
        },
      },
    },
    listing: {
      meta: { ask: ['folders'] },
      on: { 'folders.accept': { target: 'done', actions: assign({ roots: ({ event }) => event.content.roots.map((r) => r.uri) }) } },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ capital: context.capital ?? '', roots: context.roots ?? [] }),
});
const tripTool = defineTool({
  name: 'trip',
  description: 'Asks the client model and the client roots',
  input: z.object({ city: z.string() }),
  questions: tripQuestions,
  machine: tripMachine,
  result: (output) => ({ text: `${output.capital}; ${output.roots.join(', ')}` }),
});

const sampled = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' });

describe('sampling and roots questions', () => {
  it('asks the client model with the request rendered from context, then the roots, then finishes', async () => {
    const { call } = makeEngine([tripTool]);
    const r1 = await call({ name: 'trip', arguments: { city: 'France' }, capabilities: ALL });
    expect(r1).toMatchObject({
      type: 'input_required',
      inputRequests: {
        capital: {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
            systemPrompt: 'Answer with one word about France.',
          },
        },
      },
    });
    if (r1.type !== 'input_required') return;
    const r2 = await call({
      name: 'trip',
      arguments: { city: 'France' },
      capabilities: ALL,
      requestState: r1.requestState,
      inputResponses: { capital: sampled('Paris') },
    });
    expect(r2).toMatchObject({ type: 'input_required', inputRequests: { folders: { method: 'roots/list', params: {} } } });
    if (r2.type !== 'input_required') return;
    const done = complete(
      await call({
        name: 'trip',
        arguments: { city: 'France' },
        capabilities: ALL,
        requestState: r2.requestState,
        inputResponses: { folders: { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] } },
      }),
    );
    expect(done.result.content).toEqual([{ type: 'text', text: 'Paris; file:///test/root' }]);
  });

  it('asks again, with the reason in the log, when the answer is not a sampling result', async () => {
    const { call, logs } = makeEngine([tripTool]);
    const r1 = await call({ name: 'trip', arguments: { city: 'France' }, capabilities: ALL });
    if (r1.type !== 'input_required') throw new Error(JSON.stringify(r1));
    for (const answer of [12345, accept({ text: 'Paris' }), { ...sampled('Paris'), model: undefined }]) {
      const again = await call({
        name: 'trip',
        arguments: { city: 'France' },
        capabilities: ALL,
        requestState: r1.requestState,
        inputResponses: { capital: answer },
      });
      expect(again).toMatchObject({ type: 'input_required', inputRequests: { capital: { method: 'sampling/createMessage' } } });
    }
    const reasons = logs.filter((e) => e.event === 'answer_invalid').map((e) => e.message);
    expect(reasons[0]).toBe("answer to 'capital' not accepted: the answer was not a sampling result");
    expect(reasons[1]).toMatch(/^answer to 'capital' not accepted: role: /);
    expect(reasons[2]).toMatch(/model: Invalid input: expected string, received undefined/);
  });

  it.each([
    ['no sampling', { elicitation: {}, roots: {} }, 'sampling', 'the sampling capability', 'sampling (sampling/createMessage)'],
    ['nothing', {}, 'sampling', 'the sampling capability', 'sampling (sampling/createMessage)'],
  ] as const)('answers -32021 naming the capability when the request declared %s', async (_, capabilities, kind, declared, supports) => {
    const { call } = makeEngine([tripTool]);
    expect(failed(await call({ name: 'trip', arguments: { city: 'France' }, capabilities })).error).toEqual({
      code: -32021,
      message: `Tool 'trip' needs input from the client ('capital'), but this request did not declare ${declared}. Use a client that supports ${supports}.`,
      data: { requiredCapabilities: { [kind]: {} } },
    });
  });

  it('answers -32021 for a roots question when the request did not declare roots', async () => {
    const { call } = makeEngine([tripTool]);
    const r1 = await call({ name: 'trip', arguments: { city: 'France' }, capabilities: ALL });
    if (r1.type !== 'input_required') throw new Error(JSON.stringify(r1));
    const outcome = failed(
      await call({
        name: 'trip',
        arguments: { city: 'France' },
        capabilities: { sampling: {} },
        requestState: r1.requestState,
        inputResponses: { capital: sampled('Paris') },
      }),
    );
    expect(outcome.error.data).toEqual({ requiredCapabilities: { roots: {} } });
    expect(outcome.error.message).toMatch(/did not declare the roots capability\. Use a client that supports roots \(roots\/list\)\.$/);
  });
});

// ─── a machine that asks only what the client declared (the client event names sampling and roots) ───

type AskContext = { client: ClientEvent | null; name: string | null; greeting: string | null };
const askQuestions = defineQuestions<AskContext>()({
  name: { message: 'What is your name?', schema: z.object({ name: z.string() }) },
  greeting: { sampling: { messages: [{ role: 'user', content: { type: 'text', text: 'Greet me' } }], maxTokens: 50 } },
});
const askMachine = setup({
  types: {
    context: {} as AskContext,
    events: {} as AnswerEvents<typeof askQuestions> | ClientEvent,
    meta: {} as AskMeta<typeof askQuestions>,
  },
  guards: {
    knowsClient: ({ context }) => context.client !== null,
    declared: ({ context }, params: { kind: 'form' | 'sampling' }) =>
      params.kind === 'form' ? context.client?.elicitation.form === true : context.client?.sampling === true,
  },
  actions: { noteClient: assign({ client: ({ event }) => (event.type === CLIENT_EVENT ? event : null) }) },
}).createMachine({
  id: 'ask_what_you_can',
  context: { client: null, name: null, greeting: null },
  on: { [CLIENT_EVENT]: { actions: 'noteClient' } },
  initial: 'starting',
  states: {
    starting: { always: { guard: 'knowsClient', target: 'asking' } },
    asking: {
      type: 'parallel',
      states: {
        user: {
          initial: 'check',
          states: {
            check: { always: [{ guard: { type: 'declared', params: { kind: 'form' } }, target: 'ask' }, { target: 'skipped' }] },
            ask: { meta: { ask: ['name'] }, on: { 'name.*': 'skipped' } },
            skipped: { type: 'final' },
          },
        },
        model: {
          initial: 'check',
          states: {
            check: { always: [{ guard: { type: 'declared', params: { kind: 'sampling' } }, target: 'ask' }, { target: 'skipped' }] },
            ask: { meta: { ask: ['greeting'] }, on: { 'greeting.accept': 'skipped' } },
            skipped: { type: 'final' },
          },
        },
      },
      onDone: 'done',
    },
    done: { type: 'final' },
  },
});
const askTool = defineTool({
  name: 'ask_what_you_can',
  description: 'Asks only what the client can answer',
  input: z.object({}),
  questions: askQuestions,
  machine: askMachine,
  result: () => ({ text: 'nothing left to ask' }),
});

describe('the client event', () => {
  it.each([
    ['sampling only', { sampling: {} }, ['greeting']],
    ['elicitation only', { elicitation: {} }, ['name']],
    ['both', ALL, ['name', 'greeting']],
  ] as const)('tells the machine what a client with %s can answer', async (_, capabilities, keys) => {
    const { call } = makeEngine([askTool]);
    const outcome = await call({ name: 'ask_what_you_can', capabilities });
    expect(outcome.type).toBe('input_required');
    expect(outcome.type === 'input_required' && Object.keys(outcome.inputRequests)).toEqual(keys);
  });

  it('finishes at once for a client that can answer neither', async () => {
    const { call } = makeEngine([askTool]);
    expect(complete(await call({ name: 'ask_what_you_can', capabilities: { roots: {} } })).result.content).toEqual([
      { type: 'text', text: 'nothing left to ask' },
    ]);
  });
});

describe('sampling and roots definitions', () => {
  it('needs only an accept handler for a sampling or roots question (the client answers with its result), and shows who answers', () => {
    // tripMachine handles no decline or cancel: defining the tool did not throw
    expect(describeDefinition(tripTool).questions.map((q) => [q.key, q.mode, q.message])).toEqual([
      ['capital', 'sampling', 'What is the capital of {{city}}?'],
      ['folders', 'roots', 'the roots (folders) the client exposes'],
    ]);
  });

  it('names every problem of a sampling or roots question', () => {
    const problems = problemsOf(() =>
      defineQuestions<unknown>()({
        empty: { sampling: { messages: [], maxTokens: 0 } },
        modelled: {
          sampling: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 },
          fallback: 'model',
        } as never,
        rooted: { roots: false } as never,
      }),
    );
    expect(problems.map((p) => `${p.path.join(' › ')}: ${p.message}`)).toEqual([
      "question 'empty' › sampling: the sampling request is not one a client can take: messages: Too small: expected array to have >=1 items; maxTokens: Too small: expected number to be >0.",
      "question 'modelled' › fallback: a sampling or roots question has no fallback: the client answers it, not the user.",
      "question 'rooted': a roots question is { roots: true } and nothing else.",
    ]);
  });
});
