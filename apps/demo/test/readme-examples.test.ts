// The code the README and the docs show as whole examples is real: each block marked
// `<!-- example: <file> -->` is that file's code as it is (so `pnpm typecheck` checks what readers copy),
// every TypeScript block of the README is marked so, and the README's declared flow, plan_trip, works:
// every way through it (conversationsOf) played against the engine in this process, and the longest
// finished one and a refused answer through the protocol server.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createEngine, createKeyring, generateKey } from '@roundtrip/engine';
import { createServerFactory } from '@roundtrip/mcp';
import { type Conversation, type ConversationEnd, conversationsOf, playConversation } from '@roundtrip/tools/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planTrip } from '../src/examples/plan-trip.ts';
import { callRound } from './support/demo-client.ts';
import { engineRound } from './support/engine-rounds.ts';

const root = new URL('../../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface CodeBlock {
  page: string;
  line: number;
  lang: string;
  code: string;
  /** The file named by an `<!-- example: … -->` comment right above the block. */
  example: string | undefined;
}

/** The fenced code blocks of a Markdown page, each with the example file named above it, if any. */
function codeBlocksOf(page: string): CodeBlock[] {
  const lines = read(page).split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lang = /^```(\w+)$/.exec(lines[i]!)?.[1];
    if (lang === undefined) continue;
    const end = lines.indexOf('```', i + 1);
    const above = lines.slice(0, i).findLast((line) => line.trim() !== '');
    const example = /^<!-- example: (\S+) -->$/.exec(above ?? '')?.[1];
    blocks.push({ page, line: i + 1, lang, code: `${lines.slice(i + 1, end).join('\n')}\n`, example });
    i = end;
  }
  return blocks;
}

const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const blocks = pages.flatMap(codeBlocksOf);
const examples = blocks.filter((block) => block.example !== undefined);

describe('examples shown as they are', () => {
  it('marks every TypeScript block of the README with the file it comes from', () => {
    const unmarked = codeBlocksOf('README.md').filter((block) => block.lang === 'ts' && block.example === undefined);
    expect(unmarked.map(({ line }) => `README.md:${line}`)).toEqual([]);
    expect(examples.map(({ example }) => example)).toEqual(expect.arrayContaining(['apps/demo/src/examples/plan-trip.ts']));
  });

  it.each(examples.map((block) => [`${block.page}:${block.line}`, block] as const))(
    '%s is its file, from the first import on',
    (_, block) => {
      const source = read(block.example!);
      expect(block.code).toBe(source.slice(source.search(/^import /m)));
    },
  );
});

// ─── plan_trip, every way through it ───

const NOW = new Date();
const conversations = conversationsOf(planTrip, { input: { city: 'Lyon' }, now: NOW });

/** What plan_trip answers at the end of a conversation. */
function expected(end: ConversationEnd): string {
  if (end.status === 'ended') {
    const how = end.how === 'abandoned' ? 'the answers were abandoned at the review' : `the question of step '${end.step}' was ${end.how}`;
    return `plan_trip: nothing was done, because ${how}.`;
  }
  const { when, party, seat } = end.answers as Record<string, Record<string, unknown> | undefined>;
  return `Booked: Lyon on ${when?.date}, ${party?.people} by ${party?.by}, ${seat?.seat ?? 'any'} seat.`;
}

const engine = createEngine({ tools: [planTrip], keyring: createKeyring([generateKey()]), audience: 'readme' });
const PLAN_TRIP = { kind: 'tool', name: 'plan_trip', arguments: { city: 'Lyon' } } as const;

describe('plan_trip, the README flow', () => {
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const server = serveStdio(createServerFactory({ engine, name: 'readme', version: '0.0.0', principal: 'ada' }), {
      transport: serverTransport,
    });
    client = new Client(
      { name: 'readme-examples', version: '0.0.1' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(clientTransport);
    close = async () => {
      await client.close();
      await server.close();
    };
  });
  afterAll(() => close());

  it('branches on the way of travel, and ends every way a user can leave', () => {
    const simple = conversations.filter((c) => c.kind === 'simple');
    expect(simple.some((c) => c.rounds.some((round) => round.asked.includes('seat')))).toBe(true);
    expect(simple.some((c) => c.end.status === 'done' && !('seat' in c.end.answers))).toBe(true);
    expect(new Set(simple.map((c) => c.end.status))).toEqual(new Set(['done', 'ended']));
  });

  it.each(conversations.map((c) => [`${c.kind}: ${c.name}`, c] as const))('%s', async (_, conversation) => {
    const { result } = await playConversation(conversation, (retry) => engineRound(engine, PLAN_TRIP, retry));
    expect((result as { content: { text: string }[] }).content[0]?.text).toBe(expected(conversation.end));
  });

  it('plays the longest finished conversation through the protocol server too', async () => {
    const longest = conversations
      .filter((c) => c.end.status === 'done')
      .reduce<Conversation | undefined>((best, c) => (best && best.rounds.length >= c.rounds.length ? best : c), undefined)!;
    const { result } = await playConversation(longest, (retry) => callRound(client, 'plan_trip', { city: 'Lyon' }, retry));
    expect((result as { content: { text: string }[] }).content[0]?.text).toBe(expected(longest.end));
  });

  it('refuses a date in the past with the reason, and asks again', async () => {
    const first = await callRound(client, 'plan_trip', { city: 'Lyon' });
    const again = await callRound(
      client,
      'plan_trip',
      { city: 'Lyon' },
      {
        requestState: first.requestState!,
        inputResponses: { when: { action: 'accept', content: { date: '2020-01-01' } } },
      },
    );
    expect(Object.keys(again.inputRequests ?? {})).toEqual(['when']);
    expect(again.inputRequests?.when?.params.message).toContain('2020-01-01 is in the past');
  });
});
