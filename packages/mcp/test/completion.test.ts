// Argument completion (`completion/complete`) through the binding: the official client's complete() on both
// eras, for a prompt argument and a resource template's variable, and the errors a bad reference gets.
import { ProtocolError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { roomResource, tripPrompt } from './fixtures/completion-definitions.ts';
import { connectInMemory, type Era, type InMemoryConnection } from './fixtures/connect-in-memory.ts';

const open: InMemoryConnection[] = [];
const connect = async (era: Era, completable = true) => {
  const connection = await connectInMemory({
    era,
    ...(completable && { engine: { tools: [], prompts: [tripPrompt], resources: [roomResource] } }),
  });
  open.push(connection);
  return connection;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** The error a request was refused with, as the client received it. */
const refusal = async (request: Promise<unknown>) => {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
};

describe.each(['modern', 'legacy'] as const)('completion on the %s era', (era) => {
  it('declares completions and completes a prompt argument from a list, ignoring case', async () => {
    const { client } = await connect(era);
    expect(client.getServerCapabilities()?.completions).toEqual({});
    const result = await client.complete({ ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'country', value: 'f' } });
    expect(result.completion).toEqual({ values: ['France', 'Finland'], total: 2, hasMore: false });
  });

  it('passes the arguments filled in so far to a completion function', async () => {
    const { client } = await connect(era);
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'city', value: 'M' },
      context: { arguments: { country: 'Italy' } },
    });
    expect(result.completion.values).toEqual(['Milan']);
  });

  it("completes a resource template's variable", async () => {
    const { client } = await connect(era);
    const result = await client.complete({
      ref: { type: 'ref/resource', uri: 'rooms://floor/{floor}' },
      argument: { name: 'floor', value: '1' },
    });
    expect(result.completion.values).toEqual(['1', '10', '11']);
  });

  it('refuses an unknown prompt, template or argument with -32602 naming what there is', async () => {
    const { client } = await connect(era);
    const prompt = await refusal(
      client.complete({ ref: { type: 'ref/prompt', name: 'plan_tirp' }, argument: { name: 'city', value: '' } }),
    );
    expect(prompt.code).toBe(-32602);
    expect(prompt.message).toContain('Unknown prompt: plan_tirp. The prompts are: plan_trip.');

    const template = await refusal(
      client.complete({ ref: { type: 'ref/resource', uri: 'rooms://{floor}' }, argument: { name: 'floor', value: '' } }),
    );
    expect(template.code).toBe(-32602);
    expect(template.message).toContain('The templates are: rooms://floor/{floor}.');

    const argument = await refusal(
      client.complete({ ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'town', value: '' } }),
    );
    expect(argument.code).toBe(-32602);
    expect(argument.message).toContain("has no argument 'town' (its arguments: country, city)");
  });

  it('declares no completions when no argument offers values, and the method is not found', async () => {
    const { client } = await connect(era, false);
    expect(client.getServerCapabilities()?.completions).toBeUndefined();
    const error = await refusal(
      client.complete({ ref: { type: 'ref/prompt', name: 'greeting_email' }, argument: { name: 'recipient', value: 'A' } }),
    );
    expect(error.code).toBe(-32601);
  });
});
