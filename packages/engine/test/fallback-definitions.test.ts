// The model-mediated fallback as the author meets it: the arguments it adds to a tool's input schema,
// the opt-in on destructive tools, URL-mode questions, prompts (which never fall back), and its types.
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvents,
  type AskMeta,
  definePrompt,
  defineQuestions,
  defineResource,
  defineTool,
  type QuestionFallback,
} from '../src/index.ts';
import { ARGS, continuationIn, textOf, tripTool } from './fallback-tools.ts';
import { failed, makeEngine, problemsOf } from './support.ts';

describe('fallback arguments in the input schema', () => {
  it('advertises optional answers and continuation only when a question falls back', () => {
    const withFallback = makeEngine([tripTool()]).engine.listTools()[0]!.inputSchema;
    expect(withFallback.required).toEqual(['traveller']);
    expect(Object.keys(withFallback.properties as object)).toEqual(['traveller', 'answers', 'continuation']);
    expect(withFallback.properties).toMatchObject({
      answers: { type: 'object', properties: { city: { description: expect.any(String) }, dates: { description: expect.any(String) } } },
      continuation: { type: 'string' },
    });
    const without = makeEngine([tripTool({ fallback: undefined })]).engine.listTools()[0]!.inputSchema;
    expect(Object.keys(without.properties as object)).toEqual(['traveller']);
  });

  it('reports an argument of the tool that has the name of a fallback argument', () => {
    const questions = defineQuestions<unknown>()({ q: { message: 'Why?', schema: z.object({ why: z.string() }), fallback: 'model' } });
    const machine = setup({ types: { events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> } }).createMachine(
      {
        id: 'm',
        initial: 'asking',
        states: { asking: { meta: { ask: ['q'] }, on: { 'q.*': 'done' } }, done: { type: 'final' } },
      },
    );
    const problems = problemsOf(() =>
      defineTool({
        name: 'quiz',
        description: 'd',
        input: z.object({ answers: z.array(z.string()) }),
        questions,
        machine,
        result: () => ({ text: 'ok' }),
        annotations: { readOnlyHint: true },
      }),
    );
    expect(problems).toEqual([
      {
        path: ["Tool 'quiz'", 'input', 'answers'],
        code: 'invalid_option',
        message:
          "questions 'q' fall back to the model, which passes the answers through an optional argument named 'answers', but the tool's input already has an argument of that name.",
        fix: "Rename the tool's argument 'answers', or remove the fallback from 'q'.",
      },
    ]);
  });
});

describe('fallback on destructive tools', () => {
  it.each([
    ['destructiveHint: true', { destructiveHint: true }],
    ['no annotations (MCP reads a tool as destructive unless it says otherwise)', {}],
  ] as const)("reports a plain fallback: 'model' on a tool with %s", (_, annotations) => {
    const problems = problemsOf(() => tripTool({ annotations }));
    expect(problems.map((p) => [p.path.join(' › '), p.code])).toEqual([
      ["Tool 'plan_trip' › question 'city' › fallback", 'invalid_question'],
      ["Tool 'plan_trip' › question 'dates' › fallback", 'invalid_question'],
    ]);
    expect(problems[0]!.fix).toMatch(/^Opt in for this question with fallback: \{ via: 'model', onDestructiveTool: true \}/);
  });

  it('falls back on a destructive tool for questions that opted in', async () => {
    const tool = tripTool({ annotations: { destructiveHint: true }, fallback: { via: 'model', onDestructiveTool: true } });
    const { call } = makeEngine([tool]);
    expect(textOf(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined }))).toContain("Question 'city'");
  });

  it('still answers -32021 on a destructive tool whose questions have no fallback', async () => {
    const { call } = makeEngine([tripTool({ annotations: { destructiveHint: true }, fallback: undefined })]);
    expect(failed(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined })).error.code).toBe(-32021);
  });

  it('reports a fallback that is not one the engine knows', () => {
    const problems = problemsOf(() =>
      defineQuestions<unknown>()({ q: { message: 'Why?', schema: z.object({ why: z.string() }), fallback: 'human' as never } }),
    );
    expect(problems).toEqual([expect.objectContaining({ path: ["question 'q'", 'fallback'], code: 'invalid_question' })]);
  });
});

describe('URL-mode questions and prompts', () => {
  const pageQuestions = (fallback: QuestionFallback | undefined) =>
    defineQuestions<{ order: string }>()({
      pay: { message: 'Pay for order {{order}}.', url: 'https://pay.example.com/orders/{{order}}', ...(fallback ? { fallback } : {}) },
    });
  function payTool(fallback: QuestionFallback | undefined) {
    const questions = pageQuestions(fallback);
    const machine = setup({
      types: {
        context: {} as { order: string; paid: boolean },
        input: {} as { order: string },
        events: {} as AnswerEvents<typeof questions>,
        meta: {} as AskMeta<typeof questions>,
        output: {} as { paid: boolean },
      },
    }).createMachine({
      id: 'pay',
      context: ({ input }) => ({ order: input.order, paid: false }),
      initial: 'paying',
      states: {
        paying: { meta: { ask: ['pay'] }, on: { 'pay.accept': { target: 'done', actions: assign({ paid: true }) }, 'pay.*': 'done' } },
        done: { type: 'final' },
      },
      output: ({ context }) => ({ paid: context.paid }),
    });
    return defineTool({
      name: 'pay',
      description: 'Pays an order',
      input: z.object({ order: z.string() }),
      questions,
      machine,
      result: (output) => ({ text: output.paid ? 'paid' : 'not paid' }),
      annotations: { destructiveHint: true },
    });
  }

  it('gives the model the page to show when the request did not declare elicitation.url', async () => {
    const { call } = makeEngine([payTool({ via: 'model', onDestructiveTool: true })]);
    const text = textOf(await call({ name: 'pay', arguments: { order: 'o7' }, capabilities: { elicitation: { form: {} } } }));
    expect(text).toContain(
      "Question 'pay': Pay for order o7.\nGive the user this page to open themselves: https://pay.example.com/orders/o7\nIts answer is {} once the user says they have been there",
    );
    expect(text).toContain('- "answers": {"pay": {}}');
    const done = await call({
      name: 'pay',
      arguments: { order: 'o7', answers: { pay: {} }, continuation: continuationIn(text) },
      capabilities: undefined,
    });
    expect(textOf(done)).toBe('paid');
  });

  it('answers -32021 for a URL-mode question without a fallback', async () => {
    const { call } = makeEngine([payTool(undefined)]);
    const outcome = failed(await call({ name: 'pay', arguments: { order: 'o7' }, capabilities: { elicitation: { form: {} } } }));
    expect(outcome.error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
  });

  it('refuses a fallback on a prompt or a resource, which would never be used: there is no model in the loop of prompts/get', async () => {
    const questions = defineQuestions<unknown>()({
      tone: { message: 'Which tone?', schema: z.object({ tone: z.string() }), fallback: 'model' },
    });
    const machine = setup({ types: { events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> } }).createMachine(
      {
        id: 'tone',
        initial: 'asking',
        states: { asking: { meta: { ask: ['tone'] }, on: { 'tone.*': 'done' } }, done: { type: 'final' } },
      },
    );
    const prompt = () => definePrompt({ name: 'email', description: 'd', arguments: z.object({}), questions, machine, messages: () => [] });
    expect(problemsOf(prompt)).toEqual([
      expect.objectContaining({
        path: ["Prompt 'email'", "question 'tone'", 'fallback'],
        code: 'invalid_question',
        message: expect.stringContaining('no model takes part in prompts/get'),
        fix: "Remove the fallback from question 'tone' (in a declared flow: from the step, or give the step fallback: false).",
      }),
    ]);
    const resource = () => defineResource({ uri: 'tone://x', name: 'tone', description: 'd', questions, machine, contents: () => 'x' });
    expect(problemsOf(resource)).toEqual([expect.objectContaining({ message: expect.stringContaining('resources/read') })]);
  });
});

describe('fallback types', () => {
  it('takes only the fallbacks the engine knows', () => {
    const schema = z.object({ ok: z.boolean() });
    defineQuestions<unknown>()({
      a: { message: 'A?', schema, fallback: 'model' },
      b: { message: 'B?', schema, fallback: { via: 'model', onDestructiveTool: true } },
      c: { message: 'C?', url: 'https://example.com', fallback: 'model' },
    });
    const wrong = () =>
      defineQuestions<unknown>()({
        // @ts-expect-error: not a fallback
        a: { message: 'A?', schema, fallback: 'user' },
      });
    expect(problemsOf(wrong)).toHaveLength(1);
  });
});
