// URL-mode questions through the protocol binding: a pinned 2026-07-28 client gets the URL input request,
// and a 2025-11-25 host gets a real URL-mode elicitation/create from the SDK's legacy shim.
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { connectInMemory, type InMemoryConnection } from './fixtures/connect-in-memory.ts';

const questions = defineQuestions<unknown>()({
  signIn: { message: 'Sign in to the calendar, then come back.', url: 'https://calendar.example.com/sign-in' },
});
const machine = setup({
  types: { events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions>, output: {} as { how: string } },
}).createMachine({
  id: 'connect_calendar',
  initial: 'signingIn',
  states: {
    signingIn: { meta: { ask: ['signIn'] }, on: { 'signIn.accept': 'done', 'signIn.*': 'skipped' } },
    done: { type: 'final', output: { how: 'signed in' } },
    skipped: { type: 'final', output: { how: 'not signed in' } },
  },
  output: ({ event }) => event.output as { how: string },
});
const connectCalendar = defineTool({
  name: 'connect_calendar',
  description: 'Connects the calendar',
  input: z.object({}),
  questions,
  machine,
  result: (output) => ({ text: output.how }),
});

const URL_HOST = { elicitation: { form: {}, url: {} } };
const open: InMemoryConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('URL-mode questions over the protocol', () => {
  it('gives a 2026-07-28 client the URL input request and finishes on its accept', async () => {
    const c = await connectInMemory({
      era: 'modern',
      capabilities: URL_HOST,
      engine: { tools: [connectCalendar], prompts: [], resources: [] },
    });
    open.push(c);
    const first = (await c.client.callTool({ name: 'connect_calendar', arguments: {} }, { allowInputRequired: true })) as unknown as {
      inputRequests: Record<string, { params: Record<string, unknown> }>;
      requestState: string;
    };
    expect(first.inputRequests.signIn!.params).toMatchObject({ mode: 'url', url: 'https://calendar.example.com/sign-in' });
    const retry = {
      name: 'connect_calendar',
      arguments: {},
      inputResponses: { signIn: { action: 'accept' } },
      requestState: first.requestState,
    };
    const done = await c.client.callTool(retry as { name: string }, { allowInputRequired: true });
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'signed in' }] });
  });

  it('sends a 2025-11-25 host a real URL-mode elicitation/create through the legacy shim', async () => {
    const c = await connectInMemory({
      era: 'legacy',
      capabilities: URL_HOST,
      engine: { tools: [connectCalendar], prompts: [], resources: [] },
      answer: () => ({ action: 'accept', content: {} }),
    });
    open.push(c);
    const done = await c.client.callTool({ name: 'connect_calendar', arguments: {} });
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'signed in' }] });
    expect(c.elicitations).toEqual([
      {
        message: 'Sign in to the calendar, then come back.',
        requestedSchema: undefined,
        mode: 'url',
        url: 'https://calendar.example.com/sign-in',
        elicitationId: expect.any(String),
      },
    ]);
  });
});
