// Every host, one definition: the same conversation (a tool asking two questions, one of them again
// after an answer it could not take, and a titled select; a prompt; a resource) completes for every
// kind of client, and each 2025-era host gets elicitation/create requests in its own revision's shape.
import { afterEach, describe, expect, it } from 'vitest';
import { bookTable, pickToppings } from './fixtures/booking-definitions.ts';
import { connectHost, type ElicitParams, HOST_KINDS, type Host, type HostKind, type HostOptions } from './fixtures/connect-host.ts';
import type { ElicitAnswer } from './fixtures/connect-in-memory.ts';
import { greetingCardResource, greetingEmailPrompt } from './fixtures/greeting-definitions.ts';

const open: Host[] = [];
const connect = async (options: HostOptions) => {
  const host = await connectHost(options);
  open.push(host);
  return host;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((host) => host.close()));
});

const DEFINITIONS = { tools: [bookTable, pickToppings], prompts: [greetingEmailPrompt], resources: [greetingCardResource] };

/** The user: gives the party's name in lower case first, then as asked; picks the terrace, a formal tone, a birthday. */
function scriptedUser(): (params: ElicitParams) => ElicitAnswer {
  let partyAsked = 0;
  return (params) => {
    const accept = (content: Record<string, string | number | boolean>): ElicitAnswer => ({ action: 'accept', content });
    if (params.message.startsWith('Who is the table for')) return accept({ name: ++partyAsked === 1 ? 'ada' : 'Ada', size: 4 });
    if (params.message.startsWith('Where should')) return accept({ seating: 'terrace' });
    if (params.message.startsWith('Which tone')) return accept({ tone: 'formal' });
    if (params.message.startsWith('What is the occasion')) return accept({ occasion: 'birthday' });
    return { action: 'decline' };
  };
}

const EXPECTED_VERSION: Record<HostKind, string> = {
  'v2 pinned 2026-07-28': '2026-07-28',
  'v2 legacy': '2025-11-25',
  'v2 auto': '2026-07-28',
  'v1 2025-11-25': '2025-11-25',
  'v1 2025-06-18': '2025-06-18',
};

/** The params of every elicitation/create that crossed the wire to the host. */
const wireElicitations = (host: Host) =>
  host.received
    .filter((message) => 'method' in message && message.method === 'elicitation/create')
    .map((message) => (message as unknown as { params: ElicitParams }).params);

const text = (result: Record<string, unknown>, list: 'content' | 'contents') => (result[list] as Array<{ text: string }>)[0]!.text;

describe.each(HOST_KINDS)('the conversation with a %s host', (kind) => {
  it('completes the tool, the prompt and the resource, asking again where an answer did not count', async () => {
    const host = await connect({ kind, answer: scriptedUser(), engine: DEFINITIONS });
    expect(host.protocolVersion).toBe(EXPECTED_VERSION[kind]);

    expect(text(await host.callTool('book_table', { day: 'Friday' }), 'content')).toBe('Booked 4 for Ada on Friday, terrace.');
    const prompt = await host.getPrompt('greeting_email', { recipient: 'Ada' });
    expect((prompt.messages as Array<{ content: { text: string } }>)[0]!.content.text).toBe('Write a formal greeting email to Ada.');
    expect(text(await host.readResource('greetings://people/Ada'), 'contents')).toBe('Happy birthday, Ada!');

    expect(host.elicitations.map((e) => e.message)).toEqual([
      'Who is the table for on Friday?',
      expect.stringMatching(
        /^Who is the table for on Friday\?\n\nYour last answer was not accepted: .*capital letter.*Please answer again\.$/s,
      ),
      'Where should Ada sit?',
      'Which tone for the email to Ada?',
      'What is the occasion for Ada?',
    ]);
    // a 2025-era host is asked with real requests; a 2026-07-28 host gets them inside input_required results
    expect(wireElicitations(host)).toHaveLength(EXPECTED_VERSION[kind] === '2026-07-28' ? 0 : 5);
    expect(host.protocolErrors).toEqual([]);
  });
});

describe('what each revision is sent', () => {
  it('sends a 2025-11-25 host form-mode requests with the titled select and its default as they are', async () => {
    const host = await connect({ kind: 'v1 2025-11-25', answer: scriptedUser(), engine: DEFINITIONS });
    await host.callTool('book_table', { day: 'Friday' });
    const seating = wireElicitations(host).find((e) => e.message === 'Where should Ada sit?')!;
    expect(seating.mode).toBe('form');
    expect(seating.requestedSchema).toMatchObject({
      properties: {
        seating: {
          type: 'string',
          oneOf: [
            { const: 'window', title: 'By the window' },
            { const: 'terrace', title: 'On the terrace' },
          ],
          default: 'window',
        },
      },
    });
  });

  it("sends a 2025-06-18 host requests without `mode`, in that revision's schema: enum with enumNames, no defaults", async () => {
    const host = await connect({ kind: 'v1 2025-06-18', answer: scriptedUser(), engine: DEFINITIONS });
    await host.callTool('book_table', { day: 'Friday' });
    const sent = wireElicitations(host);
    expect(sent).toHaveLength(3);
    // `_meta` carries the progressToken the shim asks for; `mode` is not there
    for (const params of sent) expect(Object.keys(params).sort()).toEqual(['_meta', 'message', 'requestedSchema']);
    expect(sent[0]!.requestedSchema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', description: 'As it should appear on the booking' },
        size: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12 },
      },
      required: ['name', 'size'],
    });
    expect(sent[2]!.requestedSchema).toEqual({
      type: 'object',
      properties: { seating: { type: 'string', enum: ['window', 'terrace'], enumNames: ['By the window', 'On the terrace'] } },
    });
  });

  it('ends a tool a 2025-06-18 host cannot be asked (a multi-select) with a tool error naming the question and the revision', async () => {
    const host = await connect({ kind: 'v1 2025-06-18', answer: scriptedUser(), engine: DEFINITIONS });
    const result = await host.callTool('pick_toppings', {});
    expect(result).toMatchObject({ isError: true });
    expect(text(result, 'content')).toBe(
      "The tool 'pick_toppings' needs to ask 'toppings', but this host speaks MCP 2025-06-18, whose forms cannot show a multi-select " +
        "(field 'toppings'). Use a host that supports MCP 2025-11-25 or later.",
    );
    expect(host.elicitations).toEqual([]);
    expect(host.protocolErrors.map((e) => e.message)).toEqual([expect.stringContaining("needs to ask 'toppings'")]);
  });

  it('asks a 2025-11-25 host the same multi-select', async () => {
    const host = await connect({ kind: 'v1 2025-11-25', answer: () => ({ action: 'decline' }), engine: DEFINITIONS });
    await host.callTool('pick_toppings', {});
    expect(wireElicitations(host)[0]!.requestedSchema).toMatchObject({ properties: { toppings: { type: 'array' } } });
  });
});
