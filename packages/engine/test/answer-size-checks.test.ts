// The size checks of an answer decide as JSON.stringify measures it: a small answer is proven short without
// being written out, and whatever that quick measure cannot tell (a toJSON, a getter that throws, an answer
// at the limit) is measured as JSON, so the notes say the same as they would with JSON.stringify alone.
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { accept, inputRequired, makeEngine, messageOf } from './support.ts';

const LIMIT = 4096;

function noteTool() {
  const questions = defineQuestions<object>()({
    note: { message: 'A note?', schema: z.object({ note: z.string() }) },
  });
  const machine = setup({
    types: { events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> },
  }).createMachine({
    id: 'note-size',
    initial: 'noting',
    states: { noting: { meta: { ask: ['note'] }, on: { 'note.*': 'done' } }, done: { type: 'final' } },
  });
  return defineTool({
    name: 'note',
    description: 'Takes a note',
    input: z.object({}),
    questions,
    machine,
    result: () => ({ text: 'noted' }),
  });
}

async function answerWith(answer: unknown) {
  const { call } = makeEngine([noteTool()], { maxStateBytes: LIMIT });
  const first = inputRequired(await call({ name: 'note', arguments: {} })).requestState;
  return call({ name: 'note', arguments: {}, requestState: first, inputResponses: { note: answer } });
}

const noteOf = async (answer: unknown) => messageOf(inputRequired(await answerWith(answer)).inputRequests.note);

describe('the size checks of an answer', () => {
  it('accepts a small answer', async () => {
    expect((await answerWith(accept({ note: 'short' }))).type).toBe('complete');
  });

  it('measures an answer exactly at the limit and one character over it as JSON', async () => {
    const sized = (length: number) => {
      const answer = accept({ note: '' });
      const padding = length - JSON.stringify(answer).length;
      return accept({ note: 'é'.repeat(padding) });
    };
    expect(JSON.stringify(sized(LIMIT + 1)).length).toBe(LIMIT + 1);
    expect(await noteOf(sized(LIMIT + 1))).toContain(`it is ${LIMIT + 1} characters long, more than the ${LIMIT}`);
    // at the limit it is read, and then too large to keep in the state
    expect(await noteOf(sized(LIMIT))).toMatch(/it would take about \d+ bytes of the 4096/);
  });

  it('measures what a toJSON writes, own or inherited', async () => {
    const big = { note: 'y'.repeat(LIMIT) };
    const own = { ...accept({ note: 'x' }), toJSON: () => big };
    expect(await noteOf(own)).toContain(`it is ${JSON.stringify(big).length} characters long`);
    const inherited = Object.assign(Object.create({ toJSON: () => big }), accept({ note: 'x' }));
    expect(await noteOf(inherited)).toContain(`it is ${JSON.stringify(big).length} characters long`);
  });

  it('says an answer whose getter throws cannot be read', async () => {
    const answer = {
      action: 'accept',
      get content(): never {
        throw new Error('no content');
      },
    };
    expect(await noteOf(answer)).toContain('it cannot be read as JSON');
  });

  it('says a cyclic answer (from a caller in this process) cannot be read, without walking it for long', async () => {
    const content: Record<string, unknown> = { note: 'x'.repeat(LIMIT) };
    content.self = content;
    content.again = { back: content, list: [content, content] };
    expect(await noteOf({ action: 'accept', content })).toContain('it cannot be read as JSON');
  });

  it('refuses an answer nested more than 64 levels at that depth, however deep it goes and whatever the stack', async () => {
    const nest = (levels: number) => {
      let nested: unknown = 'x';
      for (let i = 0; i < levels; i++) nested = { deeper: nested };
      return nested;
    };
    // the answer is level 1 and its content level 2: content of 63 nested objects reaches level 64
    expect(await noteOf({ action: 'accept', content: nest(63) })).not.toContain('levels deep');
    for (const levels of [64, 1_000, 100_000]) {
      expect(await noteOf({ action: 'accept', content: nest(levels) })).toContain('it is nested more than 64 levels deep');
    }
  });

  it('measures a deeply nested answer as JSON', async () => {
    let nested: unknown = 'x';
    for (let i = 0; i < 40; i++) nested = { deeper: nested };
    // short as JSON, deeper than the quick measure goes: read, and refused by the form
    expect(await noteOf({ action: 'accept', content: nested })).toContain('Your last answer was not accepted');
  });
});
