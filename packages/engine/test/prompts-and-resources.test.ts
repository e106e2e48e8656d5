import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvents,
  type AskMeta,
  definePrompt,
  defineQuestions,
  defineResource,
  type PromptMessageView,
  type ResourceBody,
} from '../src/index.ts';
import { makeConfirmTool } from './machines.ts';
import { accept, complete, failed, inputRequired, makeServer, problemsOf, refused, textIn } from './support.ts';

// ─── a prompt that asks for the tone of an email ────────────────────────────────────────────────

type EmailContext = { orderId: string; tone: string | null };
const emailQuestions = defineQuestions<EmailContext>()({
  tone: { message: 'Which tone for the email about {{orderId}}?', schema: z.object({ tone: z.enum(['warm', 'formal']) }) },
});
const emailMachine = setup({
  types: {
    context: {} as EmailContext,
    input: {} as { order_id: string; tone?: string | undefined },
    events: {} as AnswerEvents<typeof emailQuestions>,
    meta: {} as AskMeta<typeof emailQuestions>,
    output: {} as { instructions: string },
  },
}).createMachine({
  id: 'refund_email',
  context: ({ input }) => ({ orderId: input.order_id, tone: input.tone ?? null }),
  initial: 'choosing',
  states: {
    choosing: {
      always: { guard: ({ context }) => context.tone !== null, target: 'written' },
      meta: { ask: ['tone'] },
      on: { 'tone.accept': { target: 'written', actions: assign({ tone: ({ event }) => event.content.tone }) }, 'tone.*': 'written' },
    },
    written: { type: 'final' },
  },
  output: ({ context }) => ({ instructions: `Write a ${context.tone ?? 'neutral'} email about the refund of ${context.orderId}.` }),
});

function makePrompt(
  name = 'refund_email',
  messages: (output: { instructions: string }) => PromptMessageView[] = (o) => [{ role: 'user', text: o.instructions }],
) {
  return definePrompt({
    name,
    title: 'Refund email',
    description: 'Drafts the email that tells a customer about their refund',
    arguments: z.object({ order_id: z.string().describe('The refunded order'), tone: z.string().optional() }),
    questions: emailQuestions,
    machine: emailMachine,
    messages,
  });
}

// ─── resources: a monthly statement that asks which month, and a fixed summary ─────────────────

type StatementContext = { customer: string; month: string | null };
const statementQuestions = defineQuestions<StatementContext>()({
  month: { message: 'Which month of the statement of {{customer}}?', schema: z.object({ month: z.enum(['2026-10', '2026-11']) }) },
});
const statementMachine = setup({
  types: {
    context: {} as StatementContext,
    input: {} as { customer: string },
    events: {} as AnswerEvents<typeof statementQuestions>,
    meta: {} as AskMeta<typeof statementQuestions>,
    output: {} as { text: string },
  },
}).createMachine({
  id: 'statement',
  context: ({ input }) => ({ customer: input.customer, month: null }),
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['month'] },
      on: { 'month.accept': { target: 'ready', actions: assign({ month: ({ event }) => event.content.month }) }, 'month.*': 'ready' },
    },
    ready: { type: 'final' },
  },
  output: ({ context }) => ({ text: `Statement of ${context.customer} for ${context.month ?? 'no month'}` }),
});

function makeStatement(contents: (output: { text: string }) => ResourceBody = (o) => o.text) {
  return defineResource({
    uri: 'statement://customers/{customer}',
    name: 'customer_statement',
    description: "A customer's monthly statement; asks which month",
    mimeType: 'text/plain',
    questions: statementQuestions,
    machine: statementMachine,
    contents,
  });
}

const summaryMachine = setup({ types: { output: {} as { blob: string } } }).createMachine({
  id: 'summary',
  initial: 'done',
  states: { done: { type: 'final' } },
  output: () => ({ blob: 'AAEC' }),
});
const summary = defineResource({
  uri: 'orders://summary',
  name: 'orders_summary',
  title: 'Orders',
  description: 'All orders at a glance',
  machine: summaryMachine,
  contents: (o) => ({ blob: o.blob }),
});

const server = (parts: Parameters<typeof makeServer>[0] = {}) =>
  makeServer({ prompts: [makePrompt()], resources: [makeStatement(), summary], tools: [makeConfirmTool()], ...parts });

describe('prompts', () => {
  it('lists prompts with their string arguments, each with its required flag', () => {
    expect(server().engine.listPrompts()).toEqual([
      {
        name: 'refund_email',
        title: 'Refund email',
        description: 'Drafts the email that tells a customer about their refund',
        arguments: [
          { name: 'order_id', description: 'The refunded order', required: true },
          { name: 'tone', required: false },
        ],
      },
    ]);
  });

  it('refuses a prompt argument that is not a string, at definition', () => {
    const define = () =>
      definePrompt({
        name: 'p',
        description: 'd',
        arguments: z.object({ order_id: z.string(), count: z.number() }),
        machine: summaryMachine,
        messages: () => [],
      });
    expect(problemsOf(define)).toEqual([
      {
        path: ["Prompt 'p'", 'arguments', "'count'"],
        code: 'invalid_option',
        message: 'prompt arguments are strings on the wire, but this one is not a string schema.',
        fix: 'Use z.string() (or z.enum of strings) and convert inside the machine.',
      },
    ]);
  });

  it('asks through its questions, then finishes with messages', async () => {
    const { getPrompt } = server();
    const first = inputRequired(await getPrompt({ name: 'refund_email', arguments: { order_id: 'ord_1' } }));
    expect(first.inputRequests.tone!.params.message).toBe('Which tone for the email about ord_1?');
    const done = complete(
      await getPrompt({
        name: 'refund_email',
        arguments: { order_id: 'ord_1' },
        requestState: first.requestState,
        inputResponses: { tone: accept({ tone: 'warm' }) },
      }),
    );
    expect(done.result).toEqual({
      description: 'Drafts the email that tells a customer about their refund',
      messages: [{ role: 'user', content: { type: 'text', text: 'Write a warm email about the refund of ord_1.' } }],
    });
  });

  it('finishes at once when the arguments already answer the question', async () => {
    const done = complete(await server().getPrompt({ name: 'refund_email', arguments: { order_id: 'ord_1', tone: 'formal' } }));
    expect(textIn(done.result.messages[0]!.content)).toBe('Write a formal email about the refund of ord_1.');
  });

  it('answers an unknown prompt with -32602 listing the prompts', async () => {
    expect(await server().getPrompt({ name: 'nope' })).toEqual({
      type: 'error',
      error: { code: -32602, message: 'Unknown prompt: nope', data: { prompts: ['refund_email'] } },
    });
  });

  it('answers invalid prompt arguments with -32602 naming the field', async () => {
    expect(failed(await server().getPrompt({ name: 'refund_email', arguments: { tone: 'warm' } })).error).toEqual({
      code: -32602,
      message:
        "Invalid arguments for prompt 'refund_email': order_id: Invalid input: expected string, received undefined. Ask for it again with arguments matching its list entry.",
    });
  });

  it('answers a failure with a JSON-RPC internal error (-32603), not a tool result, and logs it', async () => {
    const { getPrompt, logs } = server({ prompts: [makePrompt('refund_email', () => [])] });
    expect(await getPrompt({ name: 'refund_email', arguments: { order_id: 'ord_1', tone: 'warm' } })).toEqual({
      type: 'error',
      error: {
        code: -32603,
        message: "Prompt 'refund_email' failed on the server before it could finish; the details are in the server's log.",
      },
    });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        event: 'result_error',
        code: 'finish_threw',
        target: 'prompt refund_email',
        error: expect.objectContaining({ message: expect.stringContaining('messages() returned no messages') }),
      }),
    );
  });

  it('needs form elicitation to ask, like a tool', async () => {
    expect(
      failed(await server().getPrompt({ name: 'refund_email', arguments: { order_id: 'ord_1' }, capabilities: undefined })).error.code,
    ).toBe(-32021);
  });
});

describe('resources', () => {
  it('lists fixed resources and URI templates apart', () => {
    const { engine } = server();
    expect(engine.listResources()).toEqual([
      { uri: 'orders://summary', name: 'orders_summary', title: 'Orders', description: 'All orders at a glance' },
    ]);
    expect(engine.listResourceTemplates()).toEqual([
      {
        uriTemplate: 'statement://customers/{customer}',
        name: 'customer_statement',
        description: "A customer's monthly statement; asks which month",
        mimeType: 'text/plain',
      },
    ]);
  });

  it('reads a templated resource: asks, then returns the contents with the URI read and its mimeType', async () => {
    const { readResource } = server();
    const uri = 'statement://customers/cus%207';
    const first = inputRequired(await readResource({ uri }));
    expect(first.inputRequests.month!.params.message).toBe('Which month of the statement of cus 7?');
    const done = complete(
      await readResource({ uri, requestState: first.requestState, inputResponses: { month: accept({ month: '2026-11' }) } }),
    );
    expect(done.result).toEqual({ contents: [{ uri, mimeType: 'text/plain', text: 'Statement of cus 7 for 2026-11' }] });
  });

  it('reads a fixed resource that asks nothing, as base64 bytes', async () => {
    expect(complete(await server().readResource({ uri: 'orders://summary' })).result).toEqual({
      contents: [{ uri: 'orders://summary', blob: 'AAEC' }],
    });
  });

  it.each(['foo://bar', 'statement://customers/a/b', 'statement://customers/', 'orders://summary/extra'])(
    'answers the unknown resource URI %j with -32602 and data.uri',
    async (uri) => {
      expect(await server().readResource({ uri })).toEqual({
        type: 'error',
        error: { code: -32602, message: `Resource not found: ${uri}`, data: { uri } },
      });
    },
  );

  it('answers a failure with a JSON-RPC internal error (-32603), not a tool result', async () => {
    const broken = makeStatement(() => {
      throw new Error('statement store down');
    });
    const { readResource, logs } = server({ resources: [broken] });
    const first = inputRequired(await readResource({ uri: 'statement://customers/cus_7' }));
    const outcome = await readResource({
      uri: 'statement://customers/cus_7',
      requestState: first.requestState,
      inputResponses: { month: accept({ month: '2026-10' }) },
    });
    expect(failed(outcome).error).toEqual({
      code: -32603,
      message: "Resource 'customer_statement' failed on the server before it could finish; the details are in the server's log.",
    });
    expect(logs).toContainEqual(
      expect.objectContaining({
        event: 'result_error',
        code: 'finish_threw',
        target: 'resource statement://customers/cus_7',
        error: expect.objectContaining({ message: expect.stringContaining('statement store down') }),
      }),
    );
  });

  it('refuses a URI without a scheme', () => {
    expect(
      problemsOf(() => defineResource({ uri: 'no-scheme/{x}', name: 'r', description: 'd', machine: summaryMachine, contents: () => '' })),
    ).toEqual([
      {
        path: ["Resource 'r'", 'uri'],
        code: 'invalid_uri',
        message: "'no-scheme/{x}' has no URI scheme.",
        fix: "Start it with a scheme, e.g. 'statement://customers/{customer}'.",
      },
    ]);
  });

  it('refuses a missing name and variables that differ from the template, together', () => {
    const define = () =>
      defineResource({
        uri: 'statement://{customer}',
        name: '',
        description: 'd',
        variables: z.object({ client: z.string() }),
        machine: summaryMachine,
        contents: () => '',
      });
    expect(problemsOf(define).map((p) => [p.path.join(' › '), p.code, p.message])).toEqual([
      ["Resource ''", 'invalid_name', 'the resource has no name.'],
      ["Resource '' › variables", 'invalid_uri', "the schema's fields (client) differ from the URI's variables (customer)."],
    ]);
  });

  it('fills the variables from the template when none are given', async () => {
    const echo = setup({
      types: { input: {} as Record<string, unknown>, context: {} as { vars: Record<string, unknown> }, output: {} as { text: string } },
    }).createMachine({
      id: 'echo',
      context: ({ input }) => ({ vars: input }),
      initial: 'done',
      states: { done: { type: 'final' } },
      output: ({ context }) => ({ text: JSON.stringify(context.vars) }),
    });
    const byInput = defineResource({ uri: 'echo://{a}/{b}', name: 'echo', description: 'd', machine: echo, contents: (o) => o.text });
    expect(byInput.uriTemplate).toBe('echo://{a}/{b}');
    expect(complete(await makeServer({ resources: [byInput] }).readResource({ uri: 'echo://x/y' })).result).toEqual({
      contents: [{ uri: 'echo://x/y', text: '{"a":"x","b":"y"}' }],
    });
  });
});

describe('a state belongs to the method and target that sealed it', () => {
  const toolCall = { name: 'refund_order', arguments: { order_id: 'ord_1' } };
  const promptGet = { name: 'refund_email', arguments: { order_id: 'ord_1' } };
  const statementUri = 'statement://customers/cus_7';

  it('refuses a tool’s state presented to a prompt or a resource, and theirs presented to a tool', async () => {
    const { call, getPrompt, readResource, logs } = server();
    const toolState = inputRequired(await call(toolCall)).requestState;
    const promptState = inputRequired(await getPrompt(promptGet)).requestState;
    const resourceState = inputRequired(await readResource({ uri: statementUri })).requestState;

    expect(await getPrompt({ ...promptGet, requestState: toolState })).toEqual(refused('mismatch'));
    expect(await readResource({ uri: statementUri, requestState: toolState })).toEqual(refused('mismatch'));
    expect(await call({ ...toolCall, requestState: promptState })).toEqual(refused('mismatch'));
    expect(await call({ ...toolCall, requestState: resourceState })).toEqual(refused('mismatch'));
    expect(await readResource({ uri: statementUri, requestState: promptState })).toEqual(refused('mismatch'));
    expect(await getPrompt({ ...promptGet, requestState: resourceState })).toEqual(refused('mismatch'));
    const rejections = logs.filter((e) => e.event === 'state_rejected');
    expect(rejections.map((e) => e.code)).toEqual(Array(6).fill('other_target'));
    expect(rejections.map((e) => e.target)).toEqual([
      'prompt refund_email',
      `resource ${statementUri}`,
      'tool refund_order',
      'tool refund_order',
      `resource ${statementUri}`,
      'prompt refund_email',
    ]);
  });

  it('refuses one prompt’s state presented to another prompt', async () => {
    const { getPrompt, logs } = server({ prompts: [makePrompt(), makePrompt('refund_email_again')] });
    const state = inputRequired(await getPrompt(promptGet)).requestState;
    expect(
      await getPrompt({
        name: 'refund_email_again',
        arguments: { order_id: 'ord_1' },
        requestState: state,
        inputResponses: { tone: accept({ tone: 'warm' }) },
      }),
    ).toEqual(refused('mismatch'));
    expect(logs.at(-1)).toMatchObject({
      target: 'prompt refund_email_again',
      message: 'requestState refused (mismatch): sealed for another method or target (tool, prompt or resource)',
    });
  });

  it('refuses a resource’s state presented for another URI of the same template', async () => {
    const { readResource, logs } = server();
    const state = inputRequired(await readResource({ uri: statementUri })).requestState;
    expect(await readResource({ uri: 'statement://customers/cus_8', requestState: state })).toEqual(refused('mismatch'));
    expect(logs.at(-1)!.message).toBe('requestState refused (mismatch): sealed for other arguments of this target');
  });
});
