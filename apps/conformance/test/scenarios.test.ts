// A representative part of the conformance scenarios (SCENARIOS.md), played through the official client
// against the fixture in this process: what each sends, and what the suite checks of the answer.
import { afterEach, describe, expect, it } from 'vitest';
import { connectFixture, type FixtureConnection, HARNESS_CAPABILITIES } from './connect-fixture.ts';

const open: FixtureConnection[] = [];
const connect = async (...args: Parameters<typeof connectFixture>) => {
  const connection = await connectFixture(...args);
  open.push(connection);
  return connection;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

type InputRequired = {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: unknown }>;
  requestState: string;
};
type Block = { type: string; text?: string; data?: string; mimeType?: string; resource?: { uri: string; text?: string; blob?: string } };
type Done = { resultType?: string; content: Block[]; isError?: boolean };
const RAW = { allowInputRequired: true } as const;

/** One tools/call as the harness sends it (answers and state beside the arguments), the answer as it came. */
const call = (c: FixtureConnection, name: string, extra: object = {}) =>
  c.client.callTool({ name, arguments: {}, ...extra }, RAW) as Promise<unknown> as Promise<InputRequired | Done>;
const asking = (result: InputRequired | Done) => {
  expect(result.resultType, JSON.stringify(result)).toBe('input_required');
  return result as InputRequired;
};
const finished = (result: InputRequired | Done) => {
  expect(result.resultType, JSON.stringify(result)).not.toBe('input_required');
  return result as Done;
};
const elicit = (content: Record<string, unknown>) => ({ action: 'accept', content });
const sampled = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' });
const ROOTS = { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] };

describe('the conformance fixture', () => {
  it('lists every tool the scenarios call, each with a SEP-986 name, a description and an input schema (tools-list)', async () => {
    const c = await connect();
    const { tools } = await c.client.listTools();
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_./-]{1,64}$/);
      expect(tool.description).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['test_simple_text', 'test_missing_capability', 'test_input_required_result_capabilities']),
    );
    expect(tools).toHaveLength(25);
  });

  it('answers with images, sounds, embedded resources, several at once, and tool errors (tools-call-*)', async () => {
    const c = await connect();
    const types = (result: Done) => result.content.map((b) => b.type);
    expect(types(finished(await call(c, 'test_multiple_content_types')))).toEqual(['text', 'image', 'resource']);
    const audio = finished(await call(c, 'test_audio_content')).content.find((b) => b.type === 'audio');
    expect(audio).toMatchObject({ mimeType: 'audio/wav', data: expect.stringMatching(/^UklGR/) });
    const embedded = finished(await call(c, 'test_embedded_resource')).content.find((b) => b.type === 'resource');
    expect(embedded?.resource).toEqual({
      uri: 'test://embedded-resource',
      mimeType: 'text/plain',
      text: 'This is an embedded resource content.',
    });
    const error = finished(await call(c, 'test_error_handling'));
    expect(error.isError).toBe(true);
    expect(error.content[0]?.text).toBe('This tool intentionally returns an error for testing');
  });

  it('reports progress, rising, for each of three steps of a request that carries a progressToken (tools-call-with-progress)', async () => {
    const c = await connect();
    const progress: number[] = [];
    await c.client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('asks a name, and takes the answer with the state it was asked with (A1, A10)', async () => {
    const c = await connect();
    const r1 = asking(await call(c, 'test_input_required_result_elicitation'));
    expect(r1.inputRequests.user_name).toMatchObject({ method: 'elicitation/create', params: { message: 'What is your name?' } });
    const r2 = finished(
      await call(c, 'test_input_required_result_elicitation', {
        inputResponses: { user_name: elicit({ name: 'Alice' }) },
        requestState: r1.requestState,
      }),
    );
    expect(r2.content).toEqual([{ type: 'text', text: 'Hello, Alice!' }]);
  });

  it('finishes a fresh call whose answers it recognizes, ignoring the rest; asks again for wrong or missing ones (A7, A14, A15)', async () => {
    const c = await connect();
    const extra = { unknown_extra_key: elicit({ foo: 'bar' }), another_unexpected: elicit({ baz: 123 }) };
    const fresh = finished(
      await call(c, 'test_input_required_result_elicitation', { inputResponses: { user_name: elicit({ name: 'Alice' }), ...extra } }),
    );
    expect(fresh.content[0]?.text).toBe('Hello, Alice!');
    for (const inputResponses of [{ wrong_key: elicit({ data: 'wrong' }) }, { user_name: 12345 }]) {
      expect(Object.keys(asking(await call(c, 'test_input_required_result_elicitation', { inputResponses })).inputRequests)).toEqual([
        'user_name',
      ]);
    }
  });

  it('asks the user, the client model and the client roots in one round, and finishes with every answer (A5)', async () => {
    const c = await connect();
    const r1 = asking(await call(c, 'test_input_required_result_multiple_inputs'));
    expect(Object.fromEntries(Object.entries(r1.inputRequests).map(([k, r]) => [k, r.method]))).toEqual({
      user_name: 'elicitation/create',
      greeting: 'sampling/createMessage',
      client_roots: 'roots/list',
    });
    const inputResponses = { user_name: elicit({ name: 'Alice' }), greeting: sampled('Hello there!'), client_roots: ROOTS };
    const done = finished(await call(c, 'test_input_required_result_multiple_inputs', { inputResponses, requestState: r1.requestState }));
    expect(done.content[0]?.text).toBe('Gathered name: Alice; greeting: Hello there!; 1 root(s) visible.');
  });

  it('asks only what the request declared it can answer: sampling, not elicitation (A13)', async () => {
    const c = await connect({ sampling: {} });
    const r1 = asking(await call(c, 'test_input_required_result_capabilities'));
    expect(r1.inputRequests).toEqual({
      greeting: {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a short greeting' } }], maxTokens: 50 },
      },
    });
  });

  it('refuses a tampered requestState with -32602 (A12), and renews the state every round (A6)', async () => {
    const c = await connect();
    const r1 = asking(await call(c, 'test_input_required_result_tampered_state'));
    const tampered = call(c, 'test_input_required_result_tampered_state', {
      inputResponses: { confirm: elicit({ ok: true }) },
      requestState: `${r1.requestState}-TAMPERED`,
    });
    await expect(tampered).rejects.toMatchObject({ code: -32602 });
    const m1 = asking(await call(c, 'test_input_required_result_multi_round'));
    const m2 = asking(
      await call(c, 'test_input_required_result_multi_round', {
        inputResponses: { step1: elicit({ name: 'Alice' }) },
        requestState: m1.requestState,
      }),
    );
    expect(Object.keys(m2.inputRequests)).toEqual(['step2']);
    expect(m2.requestState).not.toBe(m1.requestState);
    const m3 = finished(
      await call(c, 'test_input_required_result_multi_round', {
        inputResponses: { step2: elicit({ color: 'blue' }) },
        requestState: m2.requestState,
      }),
    );
    expect(m3.content[0]?.text).toBe('Multi-round complete: Alice likes blue');
  });

  it('refuses test_missing_capability with -32021 naming sampling when the request declared nothing (server-stateless)', async () => {
    const c = await connect({});
    await expect(call(c, 'test_missing_capability')).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it('answers the tasks tools in the request to a client without the tasks extension, or -32021 naming it (tasks-*)', async () => {
    const c = await connect();
    expect(finished(await call(c, 'greet', { arguments: { name: 'sep-2243' } })).content).toEqual([
      { type: 'text', text: 'Hello, sep-2243!' },
    ]);
    const instant = finished(await call(c, 'slow_compute', { arguments: { seconds: 0, label: 'capability-no-ext' } }));
    expect(instant).not.toHaveProperty('taskId');
    expect(instant.content[0]?.text).toBe('Computed capability-no-ext in 0 s.');
    for (const name of ['failing_job', 'confirm_delete', 'test_tool_with_task']) {
      await expect(call(c, name, { arguments: name === 'confirm_delete' ? { filename: 'a.txt' } : {} })).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
      });
    }
  });

  it('asks before a prompt renders (A9), and renders images and embedded resources (prompts-get-*)', async () => {
    const c = await connect();
    const r1 = (await c.client.getPrompt({ name: 'test_input_required_result_prompt' }, RAW)) as unknown as InputRequired;
    expect(Object.keys(r1.inputRequests)).toEqual(['user_context']);
    const done = await c.client.getPrompt(
      {
        name: 'test_input_required_result_prompt',
        inputResponses: { user_context: elicit({ context: 'test context' }) },
        requestState: r1.requestState,
      } as never,
      RAW,
    );
    expect(done.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Use the following context: test context' } }]);
    const image = await c.client.getPrompt({ name: 'test_prompt_with_image' });
    expect(image.messages[0]?.content).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const embedded = await c.client.getPrompt({
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect(embedded.messages[0]?.content).toMatchObject({ type: 'resource', resource: { uri: 'test://example-resource' } });
  });

  it('reads text, binary and templated resources with caching hints, and refuses an unknown URI naming it (resources-*, caching, SEP-2164)', async () => {
    const c = await connect(HARNESS_CAPABILITIES);
    const { resources } = await c.client.listResources();
    expect(resources[0]?.uri).toBe('test://static-text');
    const text = await c.client.readResource({ uri: 'test://static-text' }, { cacheMode: 'bypass' });
    expect(text).toMatchObject({ ttlMs: 60_000, cacheScope: 'public', contents: [{ mimeType: 'text/plain', text: expect.any(String) }] });
    const binary = await c.client.readResource({ uri: 'test://static-binary' }, { cacheMode: 'bypass' });
    expect(binary.contents[0]).toMatchObject({ mimeType: 'image/png', blob: expect.stringMatching(/^iVBOR/) });
    const data = await c.client.readResource({ uri: 'test://template/123/data' }, { cacheMode: 'bypass' });
    expect(JSON.parse((data.contents[0] as { text: string }).text)).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });
    const uri = 'test://nonexistent-resource-for-conformance-testing';
    await expect(c.client.readResource({ uri }, { cacheMode: 'bypass' })).rejects.toMatchObject({ code: -32602, data: { uri } });
  });

  it('completes the arguments of test_prompt_with_arguments and the id of the template (completion-complete, engine side)', async () => {
    const c = await connect();
    const arg1 = await c.engine.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'test' },
      principal: 'conformance',
    });
    expect(arg1).toEqual({ type: 'complete', result: { completion: { values: ['test', 'testing'], total: 2, hasMore: false } } });
    const id = await c.engine.complete({
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '12' },
      principal: 'x',
    });
    expect(id).toMatchObject({ result: { completion: { values: ['123', '124'] } } });
    expect(c.engine.offersCompletions()).toBe(true);
  });
});
