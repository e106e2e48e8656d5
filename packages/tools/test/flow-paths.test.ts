// Every way through three declared flows, generated from their machines' graphs by conversationsOf and
// played through the protocol server in this process (the official client pinned to 2026-07-28 over the
// SDK's InMemoryTransport, the server from transport-stdio's factory): each must reach the end its path
// says, with the final action's result or the ended text, within the official client's 10 rounds.
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createEngine, createKeyring, defineTool, generateKey } from '@roundtrip/engine';
import { createServerFactory } from '@roundtrip/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { z } from 'zod';
import { ask, askAll, defineFlowPrompt, defineFlowTool, field, form, review } from '../src/index.ts';
import {
  type Conversation,
  type ConversationEnd,
  type ConversationRetry,
  conversationsOf,
  type InputResponse,
  maxRounds,
  playConversation,
} from '../src/testing/index.ts';

type Accepted = Extract<InputResponse, { action: 'accept' }>;
type Answers = Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;

// ─── book_room: a branch on a number, a check that refuses one option, 'back', a review with changes ───

const bookedText = (topic: string, answers: Answers) => {
  const room = answers.room?.room;
  return `Booked "${topic}" on ${String(answers.when?.date)} for ${String(answers.when?.attendees)}${room ? ` in the ${String(room)}` : ''}.`;
};

const bookRoom = defineFlowTool({
  name: 'book_room',
  description: 'Books a meeting, with a room for big ones',
  input: z.object({ topic: z.string() }),
  steps: {
    when: ask({
      message: 'When is "{{input.topic}}", and for how many?',
      fields: { date: field.text({ title: 'Date', format: 'date' }), attendees: field.integer({ title: 'Attendees', min: 1, max: 40 }) },
      next: [{ if: { 'when.attendees': { gt: 8 } }, goto: 'room' }, { goto: 'confirm' }],
    }),
    room: ask({
      message: 'Which room for {{when.attendees}} people?',
      fields: { room: field.select({ title: 'Room', options: { hall: 'The hall', atrium: 'The atrium' } }) },
      check: ({ answer }) => (answer.room === 'hall' ? 'the hall is being painted' : undefined),
      onDecline: 'back',
    }),
    confirm: review({ message: 'Book "{{input.topic}}"?' }),
  },
  final: ({ input, answers }) => ({ text: bookedText(input.topic, answers) }),
});

// ─── report_bug: askAll with a form asked only for bugs, 'skip' and 'back', a custom ended result ───

const reportText = (answers: Answers) =>
  [
    `Filed ${String(answers.kind?.type)}`,
    `severity ${String(answers.severity?.level ?? 'none')}`,
    `contact ${String(answers.contact?.email ?? 'none')}`,
    `paged ${answers.page ? String(answers.page.now) : 'no'}`,
  ].join(', ');

const reportBug = defineFlowTool({
  name: 'report_bug',
  description: 'Files a bug or an idea',
  input: z.object({}),
  steps: {
    kind: ask({ message: 'What are you reporting?', fields: { type: field.select({ options: ['bug', 'idea'] }) } }),
    details: askAll({
      forms: {
        severity: form({
          message: 'How bad is it?',
          if: { 'kind.type': { eq: 'bug' } },
          fields: { level: field.select({ options: ['low', 'high'] }) },
        }),
        contact: form({ message: 'Where can we reach you?', fields: { email: field.text({ format: 'email', optional: true }) } }),
      },
      onDecline: 'skip',
      onCancel: 'back',
      next: [{ if: { 'severity.level': { eq: 'high' } }, goto: 'page' }, { goto: 'finish' }],
    }),
    page: ask({ message: 'Page the on-call engineer?', fields: { now: field.boolean() }, onDecline: 'skip', onCancel: 'back' }),
  },
  final: ({ answers }) => ({ text: reportText(answers) }),
  ended: ({ step, how }) => ({ text: `No report: ${how} at ${step}.` }),
});

// ─── plan_agenda (prompt): a condition on a number and a multi select together ───

const agendaText = (team: string, answers: Answers) =>
  `Agenda for ${team}: ${String(answers.length?.minutes)} minutes on ${String(answers.length?.topics)}` +
  (answers.demo ? `, demo by ${String(answers.demo.presenter)}` : '');

const planAgenda = defineFlowPrompt({
  name: 'plan_agenda',
  description: 'Drafts an agenda',
  arguments: z.object({ team: z.string() }),
  steps: {
    length: ask({
      message: 'How long, and about what?',
      fields: {
        minutes: field.integer({ min: 5, max: 120 }),
        topics: field.multiSelect({ options: ['status', 'risks', 'demo'], min: 1 }),
      },
      next: [
        { if: { all: [{ 'length.minutes': { gte: 30 } }, { 'length.topics': { includes: 'demo' } }] }, goto: 'demo' },
        { goto: 'finish' },
      ],
    }),
    demo: ask({ message: 'Who presents the demo?', fields: { presenter: field.text({ minLength: 2 }) } }),
  },
  final: ({ input, answers }) => [{ role: 'user', text: agendaText(input.team, answers) }],
});

// ─── the server, in this process ───

let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  const engine = createEngine({
    tools: [bookRoom, reportBug],
    prompts: [planAgenda],
    keyring: createKeyring([generateKey()]),
    audience: 'flow-paths',
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(createServerFactory({ engine, name: 'flow-paths', version: '0.0.1', principal: 'ada' }), {
    transport: serverTransport,
  });
  client = new Client(
    { name: 'flow-paths-test', version: '0.0.1' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(clientTransport);
  close = async () => {
    await client.close();
    await handle.close();
  };
});
afterAll(() => close());

const manual = { allowInputRequired: true } as const;
const defaultEnded = (title: string, end: Extract<ConversationEnd, { status: 'ended' }>) =>
  `${title}: nothing was done, because ${
    end.how === 'abandoned' ? 'the answers were abandoned at the review' : `the question of step '${end.step}' was ${end.how}`
  }.`;

interface FlowCase {
  name: string;
  conversations: Conversation[];
  /** One request of the conversation: the first, or a retry. */
  send: (retry?: ConversationRetry) => Promise<unknown>;
  /** The text of the final result. */
  text: (result: unknown) => string;
  expected: (end: ConversationEnd) => string;
}

const toolText = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

const cases: FlowCase[] = [
  {
    name: 'book_room',
    conversations: conversationsOf(bookRoom, { input: { topic: 'Planning' } }),
    send: (retry) => client.callTool({ name: 'book_room', arguments: { topic: 'Planning' }, ...retry } as never, manual),
    text: toolText,
    expected: (end) => (end.status === 'done' ? bookedText('Planning', end.answers) : defaultEnded('book_room', end)),
  },
  {
    name: 'report_bug',
    conversations: conversationsOf(reportBug),
    send: (retry) => client.callTool({ name: 'report_bug', arguments: {}, ...retry } as never, manual),
    text: toolText,
    expected: (end) => (end.status === 'done' ? reportText(end.answers) : `No report: ${end.how} at ${end.step}.`),
  },
  {
    name: 'plan_agenda',
    conversations: conversationsOf(planAgenda, { input: { team: 'core' } }),
    send: (retry) => client.getPrompt({ name: 'plan_agenda', arguments: { team: 'core' }, ...retry } as never, manual),
    text: (result) => (result as { messages: Array<{ content: { text: string } }> }).messages[0]!.content.text,
    expected: (end) => (end.status === 'done' ? agendaText('core', end.answers) : defaultEnded('plan_agenda', end)),
  },
];

describe.each(cases)('$name', (flow) => {
  it('has every simple path within the 10 rounds of the official client', () => {
    const simple = flow.conversations.filter((c) => c.kind === 'simple');
    expect(simple.length).toBeGreaterThan(0);
    expect(maxRounds(simple)).toBeLessThanOrEqual(10);
    expect(new Set(flow.conversations.map((c) => c.end.status))).toEqual(new Set(['done', 'ended']));
  });

  it.each(flow.conversations.map((c) => [c.name, c] as const))('%s', async (_, conversation) => {
    const { result } = await playConversation(conversation, flow.send);
    expect(flow.text(result)).toBe(flow.expected(conversation.end));
  });
});

describe('what the conversations cover', () => {
  const [book, report, agenda] = cases.map((c) => c.conversations) as [Conversation[], Conversation[], Conversation[]];
  const said = (conversations: Conversation[]) => conversations.map((c) => c.name).join('\n');

  it('takes each branch and each way out, and goes back only on loops', () => {
    expect(said(book)).toMatch(/"attendees":9\} › room: accept \{"room":"atrium"\} › confirm: accept \{"choice":"confirm"\} → done/);
    expect(said(book)).toMatch(/"attendees":1\} › confirm: accept \{"choice":"confirm"\} → done/);
    expect(said(book)).toContain('confirm: accept {"choice":"abandon"} → ended');
    expect(said(book)).toContain('{"choice":"change_when"}');
    // the hall is refused by the room's check: a re-ask is a loop, never a path of its own
    expect(said(book)).not.toContain('"hall"');
    const back = book.filter((c) => c.kind === 'loop' && /room: decline › when:/.test(c.name));
    expect(back.length).toBeGreaterThan(0);
  });

  it('asks the conditional form only for bugs, and skips and goes back', () => {
    const asked = new Set(report.flatMap((c) => c.rounds.map((r) => r.asked.join('+'))));
    expect(asked).toEqual(new Set(['kind', 'severity+contact', 'contact', 'page']));
    expect(said(report)).toMatch(/severity: accept \{"level":"high"\} \+ contact: accept \{[^}]*\} › page: decline → done/);
    expect(report.some((c) => c.kind === 'loop' && /severity: cancel \+ contact: [^›]+› kind:/.test(c.name))).toBe(true);
  });

  it('answers either side of each comparison the conditions make, and sends every other option once', () => {
    const sent = (kind: Conversation['kind']) =>
      new Set(
        agenda
          .filter((c) => c.kind === kind)
          .flatMap((c) => c.rounds.map((r) => r.responses.length))
          .filter((r): r is Accepted => r?.action === 'accept')
          .map((r) => JSON.stringify(r.content)),
      );
    // minutes >= 30 (5 is the form's minimum) times topics including 'demo' make the paths
    expect(sent('simple')).toEqual(
      new Set([
        '{"minutes":5,"topics":["status"]}',
        '{"minutes":5,"topics":["demo"]}',
        '{"minutes":30,"topics":["status"]}',
        '{"minutes":30,"topics":["demo"]}',
      ]),
    );
    // 'risks' decides nothing 'status' does not: sent once, on a conversation of its own
    expect(sent('variant')).toEqual(new Set(['{"minutes":5,"topics":["risks"]}']));
    expect(said(report)).toContain('contact: accept {} → done');
    expect(said(report)).toContain('page: accept {"now":false} → done');
  });
});

describe('limits', () => {
  it('fails clearly when a flow has more conversations than maxPaths', () => {
    expect(() => conversationsOf(bookRoom, { input: { topic: 'Planning' }, maxPaths: 5 })).toThrow(
      /^conversationsOf: Tool 'book_room' has \d+ conversations, more than maxPaths \(5\)\. Raise maxPaths/,
    );
  });

  it('fails clearly for arguments the definition refuses, and for a definition that is not a flow', () => {
    expect(() => conversationsOf(bookRoom)).toThrow(
      /the input does not fit Tool 'book_room' \(topic: .*\)\. Pass its arguments as options\.input/,
    );
    const plain = defineTool({
      name: 'plain',
      description: 'Asks nothing',
      input: z.object({}),
      machine: createMachine({ initial: 'done', states: { done: { type: 'final' } } }),
      result: () => ({ text: 'ok' }),
    });
    expect(() => conversationsOf(plain)).toThrow(/Not a declared flow/);
  });
});
