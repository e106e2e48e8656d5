// URL-mode questions on 2025-era connections: sent only to a host that declared elicitation.url on a
// revision that has URL mode (2025-11-25); any other host gets a tool error saying what is missing,
// and no elicitation/create at all.
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { connectHost, type Host, type HostKind, type HostOptions } from './fixtures/connect-host.ts';

const questions = defineQuestions<unknown>()({
  signIn: { message: 'Sign in to the calendar, then come back.', url: 'https://calendar.example.com/sign-in' },
});
const machine = setup({
  types: { events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> },
}).createMachine({
  id: 'connect_calendar',
  initial: 'signingIn',
  states: { signingIn: { meta: { ask: ['signIn'] }, on: { 'signIn.*': 'done' } }, done: { type: 'final' } },
});
const connectCalendar = defineTool({
  name: 'connect_calendar',
  description: 'Connects the calendar',
  input: z.object({}),
  questions,
  machine,
  result: () => ({ text: 'connected' }),
});

const open: Host[] = [];
const connect = async (options: Omit<HostOptions, 'engine' | 'answer'>) => {
  const host = await connectHost({ ...options, engine: { tools: [connectCalendar] }, answer: () => ({ action: 'accept', content: {} }) });
  open.push(host);
  return host;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((host) => host.close()));
});

const FORM_ONLY = { elicitation: { form: {} } };
const WITH_URL = { elicitation: { form: {}, url: {} } };
const asked = (host: Host) => host.received.filter((m) => 'method' in m && m.method === 'elicitation/create');

describe('URL-mode questions to 2025-era hosts', () => {
  it.each<[HostKind, typeof FORM_ONLY]>([
    ['v1 2025-11-25', FORM_ONLY],
    ['v2 legacy', FORM_ONLY],
    ['v1 2025-06-18', FORM_ONLY],
    // 2025-06-18 has no URL mode, whatever the host declares
    ['v1 2025-06-18', WITH_URL],
  ])('are never sent to a %s host declaring %j: a tool error says what is missing', async (kind, capabilities) => {
    const host = await connect({ kind, capabilities });
    const result = await host.callTool('connect_calendar', {});
    expect(result).toMatchObject({
      isError: true,
      content: [
        { type: 'text', text: expect.stringMatching(/needs to ask the user \('signIn'\).*URL-mode elicitation \(elicitation\.url\)/) },
      ],
    });
    expect(asked(host)).toEqual([]);
  });

  it('are sent to a 2025-11-25 host that declared elicitation.url', async () => {
    const host = await connect({ kind: 'v1 2025-11-25', capabilities: WITH_URL });
    expect(await host.callTool('connect_calendar', {})).toMatchObject({ content: [{ type: 'text', text: 'connected' }] });
    expect(asked(host)).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ mode: 'url', url: 'https://calendar.example.com/sign-in' }) }),
    ]);
  });
});
