// The protocol binding in-process: the official client on both eras against serveStdio over the
// SDK's InMemoryTransport. Real stdio is covered by stdio-server.test.ts.

import { INVALID_STATE_HINT, INVALID_STATE_MESSAGE } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectOptions, connectInMemory, type Era, type InMemoryConnection } from './fixtures/connect-in-memory.ts';
import { greetTool } from './fixtures/greeting-definitions.ts';

const open: InMemoryConnection[] = [];
const connect = async (options: ConnectOptions) => {
  const connection = await connectInMemory(options);
  open.push(connection);
  return connection;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

interface InputRequired {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: { mode?: string; message: string; requestedSchema: unknown } }>;
  requestState: string;
}
const RAW = { allowInputRequired: true } as const;
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** The three MRTR methods, each with a request that asks one question and the answer that completes it. */
const methods = {
  tool: {
    label: 'tool greet',
    key: 'who',
    answer: { name: 'Ada' },
    message: 'Whom should I say "Hello" to?',
    send: (c: InMemoryConnection, extra: object = {}, options: object = {}) =>
      c.client.callTool({ name: 'greet', arguments: { greeting: 'Hello' }, ...extra }, { ...RAW, ...options }),
    finalText: (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text,
    expected: 'Hello, Ada!',
  },
  prompt: {
    label: 'prompt greeting_email',
    key: 'tone',
    answer: { tone: 'formal' },
    message: 'Which tone for the email to Ada?',
    send: (c: InMemoryConnection, extra: object = {}, options: object = {}) =>
      c.client.getPrompt({ name: 'greeting_email', arguments: { recipient: 'Ada' }, ...extra }, { ...RAW, ...options }),
    finalText: (result: unknown) => (result as { messages: Array<{ content: { text: string } }> }).messages[0]!.content.text,
    expected: 'Write a formal greeting email to Ada.',
  },
  resource: {
    label: 'resource greetings://people/Ada',
    key: 'occasion',
    answer: { occasion: 'birthday' },
    message: 'What is the occasion for Ada?',
    send: (c: InMemoryConnection, extra: object = {}, options: object = {}) =>
      c.client.readResource({ uri: 'greetings://people/Ada', ...extra }, { ...RAW, cacheMode: 'bypass', ...options }),
    finalText: (result: unknown) => (result as { contents: Array<{ text: string }> }).contents[0]!.text,
    expected: 'Happy birthday, Ada!',
  },
} as const;
type Method = keyof typeof methods;
const METHODS = Object.keys(methods) as Method[];

describe('listing', () => {
  it.each<Era>(['modern', 'legacy'])('declares tools, prompts and resources and lists them as the engine does (%s)', async (era) => {
    const { client, engine } = await connect({ era });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: 'greet',
        title: 'Greeter',
        description: 'Greets someone after asking for their name',
        inputSchema: greetTool.inputSchema,
        outputSchema: greetTool.outputSchema,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
    ]);
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: 'greeting_email',
        title: 'Greeting email',
        description: 'Drafts a greeting email after asking which tone to take',
        arguments: [{ name: 'recipient', description: 'Who the email is for', required: true }],
      },
    ]);
    expect((await client.listResources()).resources).toEqual(engine.listResources());
    expect((await client.listResources()).resources).toEqual([
      { uri: 'greetings://today', name: 'todays_greeting', description: "Today's greeting", mimeType: 'text/plain' },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      {
        uriTemplate: 'greetings://people/{person}',
        name: 'greeting_card',
        title: 'Greeting card',
        description: 'A greeting card for one person; asks the occasion',
        mimeType: 'text/plain',
      },
    ]);
  });

  it('declares only the kinds it has definitions for', async () => {
    const { client } = await connect({ era: 'modern', engine: { tools: [greetTool], prompts: [], resources: [] } });
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools).toEqual({});
    expect(capabilities?.prompts).toBeUndefined();
    expect(capabilities?.resources).toBeUndefined();
    await expect(client.request({ method: 'prompts/list', params: {} })).rejects.toMatchObject({ code: -32601 });
  });
});

describe.each(METHODS)('%s rounds', (name) => {
  const method = methods[name];

  it('answers input_required on 2026-07-28, then the result when the answer comes back with the state', async () => {
    const connection = await connect({ era: 'modern' });
    const first = (await method.send(connection)) as unknown as InputRequired;
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests)).toEqual([method.key]);
    expect(first.inputRequests[method.key]).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'form', message: method.message },
    });
    expect(first.requestState).toMatch(/^rt1\./);
    const final = await method.send(connection, {
      requestState: first.requestState,
      inputResponses: { [method.key]: accept(method.answer) },
    });
    expect(method.finalText(final)).toBe(method.expected);
  });

  it('is driven to the end by the official client on 2026-07-28 when it fulfils input itself', async () => {
    const connection = await connect({ era: 'modern', autoFulfill: true, answer: () => ({ action: 'accept', content: method.answer }) });
    const final = await method.send(connection, {}, { allowInputRequired: false });
    expect(method.finalText(final)).toBe(method.expected);
    expect(connection.elicitations.map((e) => e.message)).toEqual([method.message]);
  });

  it('asks a 2025-era host with a real elicitation/create and answers the original request', async () => {
    const connection = await connect({ era: 'legacy', answer: () => ({ action: 'accept', content: method.answer }) });
    const final = await method.send(connection, {}, { allowInputRequired: false });
    expect(method.finalText(final)).toBe(method.expected);
    expect(connection.elicitations).toHaveLength(1);
    expect(connection.elicitations[0]!.message).toBe(method.message);
    expect(connection.elicitations[0]!.requestedSchema).toMatchObject({
      type: 'object',
      required: [method.key === 'who' ? 'name' : method.key],
    });
  });

  it('refuses a tampered state with -32602 and the start-over hint, the reason going to the log only', async () => {
    const connection = await connect({ era: 'modern' });
    const first = (await method.send(connection)) as unknown as InputRequired;
    // a character inside the body: the last one may carry bits base64url leaves unused, where a change is a bad
    // format rather than a forgery
    const at = first.requestState.length - 7;
    const tampered = first.requestState.slice(0, at) + (first.requestState[at] === 'A' ? 'B' : 'A') + first.requestState.slice(at + 1);
    const refused = method.send(connection, { requestState: tampered, inputResponses: { [method.key]: accept(method.answer) } });
    await expect(refused).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(INVALID_STATE_MESSAGE),
      data: { reason: 'invalid', hint: INVALID_STATE_HINT },
    });
    expect(connection.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        event: 'state_rejected',
        code: 'tampered',
        target: method.label,
      }),
    );
  });

  it('refuses the state of another method with -32602', async () => {
    const connection = await connect({ era: 'modern' });
    const other = methods[METHODS[(METHODS.indexOf(name) + 1) % METHODS.length]!];
    const foreign = (await other.send(connection)) as unknown as InputRequired;
    const refused = method.send(connection, {
      requestState: foreign.requestState,
      inputResponses: { [method.key]: accept(method.answer) },
    });
    await expect(refused).rejects.toMatchObject({ code: -32602, data: { reason: expect.any(String), hint: INVALID_STATE_HINT } });
  });

  it('answers -32021 with the required capability when a 2026-07-28 request declares no elicitation', async () => {
    const connection = await connect({ era: 'modern', capabilities: {} });
    await expect(method.send(connection)).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });

  it('reports invoked work as progress when the request carries a progressToken (both eras)', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const connection = await connect({ era, answer: () => ({ action: 'accept', content: method.answer }) });
      const progress: Array<{ progress: number; message?: string }> = [];
      await method.send(connection, {}, { onprogress: (p: { progress: number; message?: string }) => progress.push(p) });
      // the warm-up's state gives no words of its own: general ones, never its id
      expect(progress, era).toContainEqual({ progress: 1, message: 'Working…' });
    }
  });
});

describe('a 2025-era host without elicitation', () => {
  it('gets an isError tool result that says what is missing', async () => {
    const connection = await connect({ era: 'legacy', capabilities: {} });
    const result = await methods.tool.send(connection);
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/did not declare the elicitation capability/) }],
    });
  });

  it.each<Method>(['prompt', 'resource'])('gets the JSON-RPC error -32021 from %s', async (name) => {
    const connection = await connect({ era: 'legacy', capabilities: {} });
    await expect(methods[name].send(connection)).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it('still reads a resource that asks nothing', async () => {
    const connection = await connect({ era: 'legacy', capabilities: {} });
    const result = await connection.client.readResource({ uri: 'greetings://today' }, { cacheMode: 'bypass' });
    expect(result.contents).toEqual([{ uri: 'greetings://today', mimeType: 'text/plain', text: 'Greetings of the day.' }]);
  });
});

describe('createServerFactory', () => {
  it('binds states to the principal it gives each instance, from the construction context when a function', async () => {
    const first = await connect({ era: 'modern', principal: ({ era }) => `ada (${era})` });
    const state = ((await methods.tool.send(first)) as unknown as InputRequired).requestState;
    const answer = { requestState: state, inputResponses: { who: accept({ name: 'Ada' }) } };
    const same = await connect({ era: 'modern', sharedEngine: first.engine, principal: 'ada (modern)' });
    expect(methods.tool.finalText(await methods.tool.send(same, answer))).toBe('Hello, Ada!');
    const other = await connect({ era: 'modern', sharedEngine: first.engine, principal: 'bob' });
    await expect(methods.tool.send(other, answer)).rejects.toMatchObject({ code: -32602, data: { reason: 'mismatch' } });
    // the shared engine logs to the first connection's log
    expect(first.logs).toContainEqual(expect.objectContaining({ event: 'state_rejected', code: 'other_principal' }));
  });

  it('stops a 2025-era request after legacyMaxRounds rounds of the legacy shim', async () => {
    const connection = await connect({ era: 'legacy', legacyMaxRounds: 2, answer: () => ({ action: 'accept', content: { name: '' } }) });
    const result = await methods.tool.send(connection);
    expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/after 2 rounds/) }] });
    expect(connection.elicitations.map((e) => e.message)).toEqual([
      'Whom should I say "Hello" to?',
      expect.stringMatching(/\n\nYour last answer was not accepted: name: /),
    ]);
  });
});

describe('errors from the engine', () => {
  it.each<Era>(['modern', 'legacy'])('names an unknown prompt or resource with -32602 (%s)', async (era) => {
    const { client } = await connect({ era });
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown prompt: nope'),
    });
    await expect(client.readResource({ uri: 'greetings://nowhere' }, { cacheMode: 'bypass' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Resource not found'),
    });
  });
});
