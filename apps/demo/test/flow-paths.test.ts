// Every flow the demo declares with @roundtrip/tools, every way through it (conversationsOf: the simple
// paths of its machine's graph, plus one through each transition only a cycle takes and one for each
// sample answer the others do not send), played against the engine in this process (support/engine-rounds.ts):
// each reaches the end its path says, with the result the demo's stores account for, within 10 rounds.
// Then the longest finished conversation of each flow through the protocol server in this process, to a
// 2026-07-28 client and to a 2025-11-25 host answering real elicitation/create requests (the demo over
// real stdio on each era is demo-over-stdio.test.ts's).
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  createEngine,
  createKeyring,
  generateKey,
  type PromptDefinition,
  type ResourceDefinition,
  type ToolDefinition,
} from '@roundtrip/engine';
import { createServerFactory } from '@roundtrip/mcp';
import { flowMachineConfig } from '@roundtrip/tools/internal';
import { type Conversation, type ConversationEnd, conversationsOf, maxRounds, playConversation } from '@roundtrip/tools/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_NAME } from '../src/demo-definitions.ts';
import { type DemoStores, openDemoStores } from '../src/demo-stores.ts';
import { agendaInstructions } from '../src/meeting-agenda-prompt.ts';
import { ROOMS, type RoomId } from '../src/meetings-store.ts';
import { formatRoomWeek, weekOf } from '../src/room-bookings-resource.ts';
import { callRound, promptRound, readRound } from './support/demo-client.ts';
import { engineRound, type RoundTarget } from './support/engine-rounds.ts';
import { connectInMemory, type InMemoryDemo } from './support/in-memory-demo.ts';
import { borrowDefinitions } from './support/reused-definitions.ts';

type Stores = Omit<DemoStores, 'close'>;
type Definition = ToolDefinition | PromptDefinition | ResourceDefinition;
type Answers = Extract<ConversationEnd, { status: 'done' }>['answers'];

const NOW = new Date();
/** The day the conversations' dates fall on (conversationsOf answers dates a month after `now`). */
const SAMPLE_DAY = new Date(NOW.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
const TOPIC = 'Roadmap review';
const SUMMARY = 'Checkout times out';
const SERVICE_TITLES: Record<string, string> = { checkout: 'Checkout', search: 'Search', payments: 'Payments', accounts: 'Accounts' };

/** What the demo should answer at the end of a conversation, for one flow. */
interface Oracle {
  input: Record<string, string>;
  /** Data the flow reads, put in the fresh stores before each conversation. */
  seed?: (stores: Stores, conversation: Conversation) => Promise<unknown>;
  /** Sample results of the flow's load steps (conversationsOf's `loaded`): the seed makes the store give them. */
  loaded?: Record<string, unknown[]>;
  /** Whether the seed can make the stores give what the conversation's loads gave (the others are not played here). */
  seedable?: (conversation: Conversation) => boolean;
  expected: (end: ConversationEnd, stores: Stores) => string | Promise<string>;
}

/** The rooms for more than 5 people, as book_meeting offers them when all are free. */
const BIG_ROOMS = [
  ['atlas', 'Atlas (up to 10)'],
  ['orion', 'Orion (up to 20)'],
  ['auditorium', 'Auditorium (up to 40)'],
] as const;

const field = <T>(answers: Answers, form: string, name: string) => answers[form]?.[name] as T;

const oracles: Record<string, Oracle> = {
  book_meeting: {
    input: { topic: TOPIC },
    // every big room free (an empty store), or none: each booked on the conversation's slot
    loaded: {
      free: [
        { rooms: BIG_ROOMS.map(([id, name]) => ({ id, name })), none: false },
        { rooms: [], none: true },
      ],
    },
    // the seed books the slot full or leaves it free for the whole conversation, and the store does not fail
    // (a failed load ends a flow as packages/tools tests it)
    seedable: ({ loads }) =>
      loads.every((load) => load.outcome === 'loaded') && new Set(loads.map((load) => JSON.stringify(load))).size <= 1,
    seed: async ({ meetings }, conversation) => {
      if (!conversation.loads.some((load) => load.outcome === 'loaded' && (load.value as { none: boolean }).none)) return;
      const slot = conversation.rounds.map((round) => round.responses.when).find((r) => r?.action === 'accept');
      const { date, time } = (slot?.action === 'accept' ? slot.content : {}) as { date: string; time: string };
      for (const [room] of BIG_ROOMS) await meetings.book({ topic: 'Taken', date, time, attendees: 6, room });
    },
    expected: async (end, { meetings }) => {
      const booked = await meetings.meetingsAbout(TOPIC);
      if (end.status === 'ended') {
        expect(booked).toEqual([]);
        if (end.how === 'stopped') return end.message!;
        return `Nothing was booked: the ${end.step === 'confirm' ? 'booking' : `question '${end.step}'`} was ${end.how}.`;
      }
      const [date, time, attendees] = [
        field<string>(end.answers, 'when', 'date'),
        field<string>(end.answers, 'when', 'time'),
        field<number>(end.answers, 'when', 'attendees'),
      ];
      const room = field<RoomId | undefined>(end.answers, 'room', 'room') ?? 'huddle';
      const { title, capacity } = ROOMS[room];
      if (attendees > capacity) return `Nothing was booked: ${title} holds ${capacity} people, not ${attendees}. Call book_meeting again.`;
      expect(booked).toEqual([expect.objectContaining({ date, time, attendees, room })]);
      return `Booked "${TOPIC}" in ${title} on ${date} at ${time} for ${attendees} people (booking ${booked[0]!.id}).`;
    },
  },
  report_incident: {
    input: { summary: SUMMARY },
    expected: async (end, { incidents }) => {
      const recorded = await incidents.incidentsAbout(SUMMARY);
      if (end.status === 'ended') {
        expect(recorded).toEqual([]);
        return `No incident was recorded: the question '${end.step}' was ${end.how}.`;
      }
      const services = field<string[]>(end.answers, 'details', 'services');
      const page = field<boolean | undefined>(end.answers, 'oncall', 'page');
      const paged = page === undefined ? '' : page ? '; the on-call engineer was paged' : '; nobody was paged';
      expect(recorded).toHaveLength(1);
      const level = field<string>(end.answers, 'severity', 'level');
      return `Recorded incident ${recorded[0]!.id} (${level}): "${SUMMARY}" affecting ${services.map((s) => SERVICE_TITLES[s]).join(', ')}${paged}.`;
    },
  },
  meeting_agenda: {
    input: { topic: TOPIC },
    expected: (end) =>
      end.status === 'ended'
        ? 'No agenda was written: the questions about the meeting were not answered.'
        : agendaInstructions(
            TOPIC,
            field(end.answers, 'shape', 'minutes'),
            field(end.answers, 'shape', 'style'),
            field(end.answers, 'shape', 'notes'),
          ),
  },
  room_bookings: {
    input: { room: 'orion' },
    seed: ({ meetings }) => meetings.book({ topic: 'Standing meeting', date: SAMPLE_DAY, time: '11:00', attendees: 12, room: 'orion' }),
    expected: async (end, { meetings }) => {
      if (end.status === 'ended') return 'No bookings listed: no week was chosen.\n';
      const week = weekOf(field(end.answers, 'week', 'day'));
      const listed = await meetings.meetingsIn('orion', week.monday, week.sunday);
      expect(listed.map((m) => m.topic)).toContain('Standing meeting');
      return formatRoomWeek('orion', week, listed);
    },
  },
};

// ─── the definitions (a set built once per worker: reused-definitions.ts), over stores swapped before each conversation (a booking must not refuse the next one's slot) ───

let stores: DemoStores = await openDemoStores(':memory:');
const borrowed = borrowDefinitions(stores);
const { definitions } = borrowed;
/** Fresh stores for the next conversation, the definitions' calls going to them. */
async function freshStores(): Promise<void> {
  await stores.close();
  stores = await openDemoStores(':memory:');
  borrowed.switchTo(stores);
}

const isFlow = (definition: Definition) => {
  try {
    flowMachineConfig(definition);
    return true;
  } catch {
    return false;
  }
};
// refund_order's ways depend on the order it loads (none, refunded, open): refund-order-paths.test.ts plays them
const declared: Definition[] = [...definitions.tools, ...definitions.prompts, ...definitions.resources]
  .filter(isFlow)
  .filter((definition) => definition.name !== 'refund_order');

interface Flow {
  definition: Definition;
  oracle: Oracle;
  conversations: Conversation[];
}
const flows: Flow[] = declared.map((definition) => {
  const oracle = oracles[definition.name];
  if (!oracle) throw new Error(`no oracle for the demo's flow '${definition.name}': add one to this file`);
  const conversations = conversationsOf(definition, { input: oracle.input, now: NOW, ...(oracle.loaded ? { loaded: oracle.loaded } : {}) });
  return { definition, oracle, conversations: conversations.filter((c) => oracle.seedable?.(c) ?? true) };
});

const uriOf = (definition: ResourceDefinition, input: Record<string, string>) =>
  (definition.uri ?? definition.uriTemplate ?? '').replace(/\{([^{}]+)\}/g, (_, name: string) => input[name] ?? '');

/** What a round of `flow` asks the engine for. */
const targetOf = ({ definition, oracle }: Flow): RoundTarget =>
  definition.kind === 'resource'
    ? { kind: 'resource', uri: uriOf(definition, oracle.input) }
    : { kind: definition.kind, name: definition.name, arguments: oracle.input };

/** One request of a conversation (the first, or a retry) through the client, returning input_required results as they are. */
function sendRound(client: Client, { definition, oracle }: Flow, retry?: { requestState: string; inputResponses: object }) {
  const extra = retry as { requestState?: string; inputResponses?: Record<string, unknown> } | undefined;
  if (definition.kind === 'tool') return callRound(client, definition.name, oracle.input, extra);
  if (definition.kind === 'prompt') return promptRound(client, definition.name, oracle.input, extra);
  return readRound(client, uriOf(definition, oracle.input), extra);
}

/** The same request, answered to the end by the client (a 2025-era host fulfils elicitations itself). */
function sendOnce(client: Client, { definition, oracle }: Flow): Promise<unknown> {
  if (definition.kind === 'tool') return client.callTool({ name: definition.name, arguments: oracle.input });
  if (definition.kind === 'prompt') return client.getPrompt({ name: definition.name, arguments: oracle.input });
  return client.readResource({ uri: uriOf(definition, oracle.input) });
}

function textOf(result: unknown): string {
  const r = result as {
    content?: Array<{ text: string }>;
    messages?: Array<{ content: { text: string } }>;
    contents?: Array<{ text: string }>;
  };
  return r.content?.[0]?.text ?? r.messages?.[0]?.content.text ?? r.contents?.[0]?.text ?? JSON.stringify(result);
}

// ─── against the engine, in this process ───

const engine = createEngine({ ...definitions, keyring: createKeyring([generateKey()]), audience: SERVER_NAME });
afterAll(async () => {
  await stores.close();
  borrowed.giveBack();
});

it('declares book_meeting, report_incident, a prompt and a resource as flows, each with an oracle here', () => {
  expect(flows.map((f) => f.definition.name).sort()).toEqual(Object.keys(oracles).sort());
  expect(new Set(flows.map((f) => f.definition.kind))).toEqual(new Set(['tool', 'prompt', 'resource']));
});

describe.each(flows.map((flow) => [flow.definition.name, flow] as const))('%s', (_, flow) => {
  it('finishes every simple path within the 10 rounds of the official client, and ends both ways', () => {
    const simple = flow.conversations.filter((c) => c.kind === 'simple');
    expect(maxRounds(simple)).toBeLessThanOrEqual(10);
    expect(new Set(simple.map((c) => c.end.status))).toEqual(new Set(['done', 'ended']));
  });

  it.each(flow.conversations.map((c) => [`${c.kind}: ${c.name}`, c] as const))('%s', async (_, conversation) => {
    await freshStores();
    await flow.oracle.seed?.(stores, conversation);
    const { result } = await playConversation(conversation, (retry) => engineRound(engine, targetOf(flow), retry));
    expect(textOf(result)).toBe(await flow.oracle.expected(conversation.end, stores));
  });
});

// ─── through the protocol server: the longest finished conversation of each flow, on each era (2025-11-25: its questions as elicitation/create) ───

const longestDone = (conversations: readonly Conversation[]) =>
  conversations
    .filter((c) => c.kind === 'simple' && c.end.status === 'done')
    .reduce<Conversation | undefined>((best, c) => (best && best.rounds.length >= c.rounds.length ? best : c), undefined)!;

describe('to a 2026-07-28 client', () => {
  let demo: InMemoryDemo;
  beforeAll(async () => {
    demo = await connectInMemory(engine);
  });
  afterAll(() => demo.close());

  it('plays them, every input_required round on the wire', async () => {
    for (const flow of flows) {
      await freshStores();
      const conversation = longestDone(flow.conversations);
      await flow.oracle.seed?.(stores, conversation);
      const { result } = await playConversation(conversation, (retry) => sendRound(demo.client, flow, retry));
      expect(textOf(result), `${flow.definition.name}: ${conversation.name}`).toBe(await flow.oracle.expected(conversation.end, stores));
    }
  });
});

describe('to a 2025-11-25 host', () => {
  let answers: unknown[] = [];
  let asked = 0;
  let host: Client;
  let closeHost: () => Promise<void>;
  beforeAll(async () => {
    const engine = createEngine({ ...definitions, keyring: createKeyring([generateKey()]), audience: SERVER_NAME });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(createServerFactory({ engine, name: SERVER_NAME, version: '0.0.0', principal: 'ada' }), {
      transport: serverTransport,
    });
    host = new Client({ name: 'flow-paths-legacy', version: '0.0.1' }, { capabilities: { elicitation: { form: {} } } });
    host.setRequestHandler('elicitation/create', async () => (answers[asked++] ?? { action: 'cancel' }) as never);
    await host.connect(clientTransport);
    closeHost = async () => {
      await host.close();
      await handle.close();
    };
  });
  afterAll(() => closeHost());

  it('plays them answering real elicitation/create requests in order', async () => {
    expect(host.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    for (const flow of flows) {
      await freshStores();
      const conversation = longestDone(flow.conversations);
      await flow.oracle.seed?.(stores, conversation);
      answers = conversation.rounds.flatMap((round) => round.asked.map((key) => round.responses[key]));
      asked = 0;
      const result = await sendOnce(host, flow);
      expect(textOf(result), `${flow.definition.name}: ${conversation.name}`).toBe(await flow.oracle.expected(conversation.end, stores));
      expect(asked).toBe(answers.length);
    }
  });
});
