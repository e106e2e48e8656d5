// What a host shows while a declared flow works on the server: the progress notifications it receives
// say the author's words (a step's `progress`, the tool's `finalProgress`) or general ones, never the
// names of loaders, checks, shows or the final action. Served through the real protocol server to the
// official client, which answers the questions its user is asked.
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  createEngine,
  createKeyring,
  describeDefinition,
  generateKey,
  RoundtripDefinitionError,
  type ToolDefinition,
} from '@roundtrip/engine';
import { createServerFactory } from '@roundtrip/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, field, load, review } from '../src/index.ts';

type Progress = { progress: number; message?: string };
type Elicited = { message: string; requestedSchema: { properties: Record<string, unknown>; required?: string[] } };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/**
 * Calls `tool` from a 2025-11-25 host (the server holds the call open while its user answers, so one
 * request sees every round's progress): its user picks the first room, says yes, and confirms the review.
 */
async function call(tool: ToolDefinition): Promise<{ progress: Progress[]; elicited: Elicited[]; text: string }> {
  const engine = createEngine({ tools: [tool], keyring: createKeyring([generateKey()]), audience: 'progress-words' });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(createServerFactory({ engine, name: 'progress-words', version: '0.0.1', principal: 'ada' }), {
    transport: serverEnd,
  });
  const client = new Client({ name: 'progress-words-test', version: '0.0.1' }, { capabilities: { elicitation: { form: {} } } });
  const elicited: Elicited[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as Elicited;
    elicited.push(params);
    const fields = Object.keys(params.requestedSchema.properties);
    const content = fields.includes('choice') ? { choice: 'confirm' } : { room: 'atlas', ...(fields.includes('ok') && { ok: true }) };
    return { action: 'accept', content } as never;
  });
  await client.connect(clientEnd);
  closers.push(async () => {
    await client.close();
    await handle.close();
  });
  const progress: Progress[] = [];
  const result = await client.callTool({ name: tool.name, arguments: {} }, { onprogress: (p: Progress) => progress.push(p) });
  return { progress, elicited, text: (result as { content: Array<{ text: string }> }).content[0]!.text };
}

const room = { room: field.select({ options: ['atlas', 'orion'] }) };

describe('progress while a flow works on the server', () => {
  it("says each step's progress and the tool's finalProgress as the work starts", async () => {
    const tool = defineFlowTool({
      name: 'book_room',
      description: 'Books a room',
      input: z.object({}),
      finalProgress: 'Booking the room…',
      loaders: { readCalendar: async () => ({ free: 2 }) },
      steps: (flow) =>
        flow
          .load('calendar', { run: 'readCalendar', progress: 'Reading the calendar…' })
          .ask('pick', { message: 'Which room?', fields: room, check: async () => undefined, progress: 'Checking that the room is free…' })
          .review('confirm', { message: 'Book it?', show: async () => ({ Price: '$40' }), progress: 'Getting the price…' }),
      final: () => ({ text: 'Booked.' }),
    });
    const { progress, text } = await call(tool);
    expect(text).toBe('Booked.');
    expect(progress).toEqual([
      { progress: 1, message: 'Reading the calendar…' },
      { progress: 2, message: 'Checking that the room is free…' },
      { progress: 3, message: 'Getting the price…' },
      { progress: 4, message: 'Booking the room…' },
    ]);
  });

  it('says general words for work without words of its own, never a name from the machine', async () => {
    const tool = defineFlowTool({
      name: 'book_room',
      description: 'Books a room',
      input: z.object({}),
      finalName: 'book',
      loaders: { readCalendar: async () => ({ free: 2 }) },
      steps: (flow) =>
        flow
          .load('calendar', { run: 'readCalendar' })
          .ask('pick', { message: 'Which room, and sure?', fields: { ...room, ok: field.boolean() }, check: async () => undefined })
          .review('confirm', { message: 'Book it?', show: async () => ({ Price: '$40' }) }),
      final: () => ({ text: 'Booked.' }),
    });
    const { progress } = await call(tool);
    expect(progress.map((p) => p.message)).toEqual(['Loading…', 'Checking your answer…', 'Getting the latest details…', 'Finishing…']);
    expect(JSON.stringify(progress)).not.toMatch(/book_room|readCalendar|calendar|check|pick|show|confirm|book'|running/);
  });
});

describe('progress words and versions', () => {
  it('are not structure: rewording them keeps the structure hash, so states sealed before go on', () => {
    const worded = (words: { progress?: string; finalProgress?: string }) =>
      defineFlowTool({
        name: 'book_room',
        description: 'Books a room',
        input: z.object({}),
        ...(words.finalProgress !== undefined && { finalProgress: words.finalProgress }),
        loaders: { readCalendar: async () => ({ free: 2 }) },
        steps: { calendar: load({ run: 'readCalendar', ...(words.progress !== undefined && { progress: words.progress }) }) },
        final: () => ({ text: 'Booked.' }),
      });
    const hash = (words: { progress?: string; finalProgress?: string }) => describeDefinition(worded(words)).structureHash;
    expect(hash({ progress: 'Reading the calendar…', finalProgress: 'Booking the room…' })).toBe(hash({}));
  });
});

describe('a yes/no field of a flow', () => {
  it('reaches the host unticked: default false, still required, so the form can send "no" as shown', async () => {
    const tool = defineFlowTool({
      name: 'book_room',
      description: 'Books a room',
      input: z.object({}),
      steps: { pick: ask({ message: 'Which room, and sure?', fields: { ...room, ok: field.boolean(), late: z.boolean() } }) },
      final: () => ({ text: 'Booked.' }),
    });
    const { elicited } = await call(tool);
    expect(elicited[0]!.requestedSchema.properties).toMatchObject({
      ok: { type: 'boolean', default: false },
      late: { type: 'boolean', default: false },
    });
    expect(elicited[0]!.requestedSchema.required).toEqual(['room', 'ok', 'late']);
    expect(elicited[0]!.requestedSchema.properties.room).not.toHaveProperty('default');
  });
});

describe('progress words a flow cannot say', () => {
  const problemsOf = (define: () => unknown) => {
    try {
      define();
    } catch (error) {
      expect(error).toBeInstanceOf(RoundtripDefinitionError);
      return (error as RoundtripDefinitionError).problems.map(({ path, code, message }) => ({ path: path.join(' › '), code, message }));
    }
    throw new Error('the declaration was accepted');
  };

  it('refuses empty words, placeholders (said as written) and words for a step that makes nobody wait', () => {
    const problems = problemsOf(() =>
      defineFlowTool({
        name: 'book_room',
        description: 'Books a room',
        input: z.object({}),
        finalProgress: '  ',
        loaders: { readCalendar: async () => ({ free: 2 }) },
        steps: {
          calendar: load({ run: 'readCalendar', progress: 'Reading {{input.day}}…' }),
          pick: ask({ message: 'Which room?', fields: room, check: () => undefined, progress: 'Checking…' }),
          confirm: review({ message: 'Book it?', progress: 'Getting the price…' }),
        },
        final: () => ({ text: 'Booked.' }),
      }),
    );
    expect(problems).toEqual([
      {
        path: "tool 'book_room' › step 'calendar' › progress",
        code: 'invalid_template',
        message: 'it holds a placeholder, but progress is said as written: nothing is filled in.',
      },
      {
        path: "tool 'book_room' › step 'pick' › progress",
        code: 'invalid_step',
        message: 'nothing would say it: no check of this step is async, so it does no work the user waits for.',
      },
      {
        path: "tool 'book_room' › step 'confirm' › progress",
        code: 'invalid_step',
        message: 'nothing would say it: its show is not async (or it has none), so it does no work the user waits for.',
      },
    ]);
    // the steps' problems are reported first; the final action's once the steps are sound
    expect(
      problemsOf(() =>
        defineFlowTool({
          name: 'book_room',
          description: 'Books a room',
          input: z.object({}),
          finalProgress: '  ',
          steps: { pick: ask({ message: 'Which room?', fields: room }) },
          final: () => ({ text: 'Booked.' }),
        }),
      ),
    ).toEqual([{ path: "tool 'book_room' › finalProgress", code: 'invalid_step', message: 'it is "  ", not text.' }]);
  });
});
