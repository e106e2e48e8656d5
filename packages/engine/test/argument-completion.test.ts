// completion/complete: values offered for a prompt's arguments and a resource template's variables.
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { type CompletionRequest, definePrompt, defineResource } from '../src/index.ts';
import { deferred, makeServer, problemsOf } from './support.ts';

const done = setup({}).createMachine({ id: 'done', initial: 'done', states: { done: { type: 'final' } } });
const CITIES = ['paris', 'park', 'party', 'Parma', 'lyon'];

const trip = definePrompt({
  name: 'trip',
  description: 'Plans a trip',
  arguments: z.object({ city: z.string(), season: z.enum(['spring', 'summer', 'autumn']), note: z.string().optional() }),
  complete: { city: CITIES },
  machine: done,
  messages: () => [{ role: 'user', text: 'Plan it.' }],
});

const seen: { value: string; arguments: Readonly<Record<string, string>>; principal: string }[] = [];
const orders = defineResource({
  uri: 'orders://{customer}/{order}',
  name: 'order',
  description: "A customer's order",
  complete: {
    customer: (value) => ['ada', 'alan', 'grace'].filter((c) => c.startsWith(value)),
    order: async (value, context) => {
      seen.push({ value, ...context });
      return Array.from({ length: 150 }, (_, i) => `${context.arguments.customer ?? '?'}-${i}`);
    },
  },
  machine: done,
  contents: () => 'the order',
});

const server = () => makeServer({ prompts: [trip], resources: [orders] });
const ask = (engine: ReturnType<typeof server>['engine'], request: Omit<CompletionRequest, 'principal'>) =>
  engine.complete({ principal: 'ada', ...request });

describe('argument completion', () => {
  it('offers the listed values that start with what was typed, ignoring case', async () => {
    const { engine } = server();
    expect(await ask(engine, { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'city', value: 'PAR' } })).toEqual({
      type: 'complete',
      result: { completion: { values: ['paris', 'park', 'party', 'Parma'], total: 4, hasMore: false } },
    });
  });

  it("offers an enum argument's values without a completer, and nothing for an argument without either", async () => {
    const { engine } = server();
    const season = await ask(engine, { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'season', value: 's' } });
    expect(season).toEqual({ type: 'complete', result: { completion: { values: ['spring', 'summer'], total: 2, hasMore: false } } });
    const note = await ask(engine, { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'note', value: 'x' } });
    expect(note).toEqual({ type: 'complete', result: { completion: { values: [], total: 0, hasMore: false } } });
    expect(engine.offersCompletions()).toBe(true);
  });

  it("completes a template's variables with a function that sees the other variables and the principal, capped at 100", async () => {
    const { engine } = server();
    const customer = await ask(engine, {
      ref: { type: 'ref/resource', uri: 'orders://{customer}/{order}' },
      argument: { name: 'customer', value: 'a' },
    });
    expect(customer).toEqual({ type: 'complete', result: { completion: { values: ['ada', 'alan'], total: 2, hasMore: false } } });
    const order = await ask(engine, {
      ref: { type: 'ref/resource', uri: 'orders://{customer}/{order}' },
      argument: { name: 'order', value: '1' },
      context: { arguments: { customer: 'ada', ignored: 7 as never } },
    });
    if (order.type !== 'complete') throw new Error(JSON.stringify(order));
    expect(order.result.completion.values).toHaveLength(100);
    expect(order.result.completion).toMatchObject({ total: 150, hasMore: true });
    expect(order.result.completion.values[0]).toBe('ada-0');
    expect(seen.at(-1)).toEqual({ value: '1', arguments: { customer: 'ada' }, principal: 'ada' });
  });

  it.each([
    [{ type: 'ref/prompt', name: 'nope' }, 'city', 'Unknown prompt: nope. The prompts are: trip.'],
    [
      { type: 'ref/resource', uri: 'orders://x' },
      'customer',
      'Unknown resource template: orders://x. The templates are: orders://{customer}/{order}.',
    ],
    [{ type: 'ref/prompt', name: 'trip' }, 'town', "Prompt 'trip' has no argument 'town' (its arguments: city, season, note)."],
    [{ type: 'ref/other' }, 'city', `Unknown reference type "ref/other": complete 'ref/prompt' or 'ref/resource'.`],
  ] as const)('answers -32602 saying what is unknown for %j', async (ref, name, message) => {
    const { engine } = server();
    expect(await ask(engine, { ref: ref as CompletionRequest['ref'], argument: { name, value: '' } })).toEqual({
      type: 'error',
      error: { code: -32602, message },
    });
  });

  it('answers -32603 when a completer fails, and logs why for the author', async () => {
    const broken = defineResource({
      uri: 'files://{name}',
      name: 'file',
      description: 'A file',
      complete: { name: () => [1, 2] as never },
      machine: done,
      contents: () => 'file',
    });
    const failing = deferred<readonly string[]>();
    const slow = defineResource({
      uri: 'dirs://{name}',
      name: 'dir',
      description: 'A folder',
      complete: { name: () => failing.promise },
      machine: done,
      contents: () => 'dir',
    });
    const { engine, logs } = makeServer({ resources: [broken, slow] });
    const first = await ask(engine, { ref: { type: 'ref/resource', uri: 'files://{name}' }, argument: { name: 'name', value: '' } });
    expect(first).toEqual({
      type: 'error',
      error: { code: -32603, message: "Completing 'name' of Resource 'file' failed on the server; the details are in the server's log." },
    });
    const pending = ask(engine, { ref: { type: 'ref/resource', uri: 'dirs://{name}' }, argument: { name: 'name', value: '' } });
    failing.reject(new Error('the folder index is offline'));
    expect((await pending).type).toBe('error');
    expect(logs.filter((e) => e.event === 'completion_failed')).toEqual([
      expect.objectContaining({
        code: 'completer_threw',
        target: 'resource files://{name}',
        name: 'name',
        owner: "Resource 'file'",
        error: new Error('it returned a list that holds more than strings; return a list of strings'),
      }),
      expect.objectContaining({
        code: 'completer_threw',
        target: 'resource dirs://{name}',
        owner: "Resource 'dir'",
        error: new Error('the folder index is offline'),
      }),
    ]);
  });

  it('offers nothing, and says so, when no argument has values to offer', () => {
    const { engine } = makeServer({
      resources: [defineResource({ uri: 'x://{a}', name: 'x', description: 'X', machine: done, contents: () => 'x' })],
    });
    expect(engine.offersCompletions()).toBe(false);
  });

  it('names a completer for an argument the definition does not have, and one that is neither a list nor a function', () => {
    const problems = problemsOf(() =>
      definePrompt({
        name: 'p',
        description: 'P',
        arguments: z.object({ a: z.string() }),
        complete: { a: 'x' as never, b: ['y'] } as never,
        machine: done,
        messages: () => [{ role: 'user', text: 'p' }],
      }),
    );
    expect(problems.map((p) => `${p.path.join(' › ')}: ${p.message} ${p.fix}`)).toEqual([
      "Prompt 'p' › complete › 'a': it is neither a list of strings nor a function. Give [values] or (value, context) => values.",
      "Prompt 'p' › complete › 'b': 'b' is not one of the arguments ('a'). Name an argument the definition has.",
    ]);
  });
});
