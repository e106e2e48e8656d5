// The book_meeting tool (declared as a flow) through the engine in this process, over a real SQLite file
// shared by the meetings and the effect ledger, as the server runs it.
import { createEngine, type Engine } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_NAME } from '../src/demo-definitions.ts';
import { createBookMeetingToolV0 } from './fixtures/book-meeting-tool-v0.ts';
import {
  accept,
  cancel,
  closeDemoEngines,
  type DemoEngine,
  decline,
  demoEngine,
  done,
  FORM,
  question,
  sharedKeyring,
  textOf,
} from './support/demo-engine.ts';

afterEach(closeDemoEngines);

const ARGS = { topic: 'Roadmap review' };
/** A date `days` from today (UTC), as the tool's check reads dates. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const DATE = inDays(30);
const when = (attendees: number, date = DATE, time = '14:00') => ({ when: accept({ date, time, attendees }) });
const choice = (option: string) => ({ confirm: accept({ choice: option }) });

/** One round of book_meeting answering the state with `responses`. */
const answer = (demo: DemoEngine, requestState: string, responses: Record<string, unknown>) =>
  demo.call('book_meeting', ARGS, { requestState, inputResponses: responses });

/** Answers the first question (and the room, when given) and returns the review. */
async function untilReview(demo: DemoEngine, attendees: number, room?: string) {
  const first = question(await demo.call('book_meeting', ARGS), 'when');
  let next = await answer(demo, first.requestState, when(attendees));
  if (room !== undefined) next = await answer(demo, question(next, 'room').requestState, { room: accept({ room }) });
  return question(next, 'confirm');
}

describe('book_meeting', () => {
  it('is listed with its topic argument and an output schema', async () => {
    const tool = (await demoEngine()).engine.listTools().find((t) => t.name === 'book_meeting');
    expect(tool).toMatchObject({
      title: 'Book a meeting',
      inputSchema: { properties: { topic: { type: 'string', minLength: 1 } }, required: ['topic'] },
      outputSchema: { type: 'object', required: ['status'] },
      annotations: { destructiveHint: false, idempotentHint: false, readOnlyHint: false, openWorldHint: false },
    });
  });

  it('asks the date, the time and the number of attendees in one form', async () => {
    const first = question(await (await demoEngine()).call('book_meeting', ARGS), 'when');
    expect(first.message).toBe('When should "Roadmap review" take place, and for how many people?');
    expect(first.schema).toEqual({
      type: 'object',
      properties: {
        date: { type: 'string', title: 'Date', description: 'YYYY-MM-DD', format: 'date' },
        time: {
          type: 'string',
          title: 'Time',
          oneOf: [
            { const: '09:00', title: '9:00' },
            { const: '11:00', title: '11:00' },
            { const: '14:00', title: '14:00' },
            { const: '16:00', title: '16:00' },
          ],
        },
        attendees: { type: 'integer', title: 'Attendees', minimum: 1, maximum: 40 },
      },
      required: ['date', 'time', 'attendees'],
    });
  });

  it('books a meeting of up to 5 people in the huddle corner after the review, without asking for a room', async () => {
    const demo = await demoEngine();
    const review = await untilReview(demo, 4);
    expect(review.message).toBe(`Book "Roadmap review"?\n\n- Date: ${DATE}\n- Time: 14:00\n- Attendees: 4`);
    expect(await demo.meetings.meetingsAbout('Roadmap review')).toEqual([]);
    const result = done(await answer(demo, review.requestState, choice('confirm')));
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe(`Booked "Roadmap review" in Huddle corner on ${DATE} at 14:00 for 4 people (booking 1).`);
    expect(result.structuredContent).toEqual({
      status: 'booked',
      booking_id: 1,
      topic: 'Roadmap review',
      date: DATE,
      time: '14:00',
      attendees: 4,
      room: 'huddle',
    });
    expect(await demo.meetings.meetingsAbout('Roadmap review')).toEqual([
      expect.objectContaining({ room: 'huddle', attendees: 4, date: DATE }),
    ]);
  });

  it('asks for a room when more than 5 people come, and shows it at the review', async () => {
    const demo = await demoEngine();
    const first = question(await demo.call('book_meeting', ARGS), 'when');
    const room = question(await answer(demo, first.requestState, when(8)), 'room');
    expect(room.message).toBe(`Which room for 8 people on ${DATE} at 14:00?`);
    expect(room.schema).toEqual({
      type: 'object',
      properties: {
        room: {
          type: 'string',
          title: 'Room',
          oneOf: [
            { const: 'atlas', title: 'Atlas (up to 10)' },
            { const: 'orion', title: 'Orion (up to 20)' },
            { const: 'auditorium', title: 'Auditorium (up to 40)' },
          ],
        },
      },
      required: ['room'],
    });
    const review = question(await answer(demo, room.requestState, { room: accept({ room: 'orion' }) }), 'confirm');
    expect(review.message).toBe(`Book "Roadmap review"?\n\n- Date: ${DATE}\n- Time: 14:00\n- Attendees: 8\n- Room: Orion (up to 20)`);
    expect(review.schema).toMatchObject({
      properties: {
        choice: {
          oneOf: [
            { const: 'confirm', title: 'Book it' },
            { const: 'change_when', title: 'Change: Date, Time, Attendees' },
            { const: 'change_room', title: 'Change: Room' },
            { const: 'abandon', title: 'Abandon' },
          ],
        },
      },
    });
    const result = done(await answer(demo, review.requestState, choice('confirm')));
    expect(textOf(result)).toBe(`Booked "Roadmap review" in Orion on ${DATE} at 14:00 for 8 people (booking 1).`);
    expect(await demo.meetings.meetingsIn('orion', DATE, DATE)).toEqual([
      expect.objectContaining({ topic: 'Roadmap review', attendees: 8 }),
    ]);
  });

  it('refuses a date in the past, saying why, and asks again', async () => {
    const demo = await demoEngine();
    const first = question(await demo.call('book_meeting', ARGS), 'when');
    const again = question(await answer(demo, first.requestState, when(4, '2020-01-06')), 'when');
    expect(again.message).toBe(
      'When should "Roadmap review" take place, and for how many people?\n\n' +
        'Your last answer was not accepted: 2020-01-06 is in the past. Please answer again.',
    );
    const review = question(await answer(demo, again.requestState, when(4)), 'confirm');
    expect(review.message).toContain(`- Date: ${DATE}`);
  });

  it('refuses a slot already taken and a room too small, saying why', async () => {
    const demo = await demoEngine();
    await demo.meetings.book({ topic: 'Sync', date: DATE, time: '14:00', attendees: 3, room: 'huddle' });
    await demo.meetings.book({ topic: 'Planning', date: DATE, time: '14:00', attendees: 15, room: 'orion' });
    const first = question(await demo.call('book_meeting', ARGS), 'when');
    const huddleTaken = question(await answer(demo, first.requestState, when(4)), 'when');
    expect(huddleTaken.message).toMatch(new RegExp(`not accepted: Huddle corner is booked on ${DATE} at 14:00 for "Sync"\\. Please`));
    const room = question(await answer(demo, huddleTaken.requestState, when(12)), 'room');
    // Orion is taken at 14:00 and Atlas holds 10: the room question offers only the Auditorium
    expect((room.schema as { properties: Record<string, unknown> }).properties.room).toEqual({
      type: 'string',
      title: 'Room',
      oneOf: [{ const: 'auditorium', title: 'Auditorium (up to 40)' }],
    });
    const orionTaken = question(await answer(demo, room.requestState, { room: accept({ room: 'orion' }) }), 'room');
    expect(orionTaken.message).toMatch(/not accepted: "orion" is not one of the options offered \(Auditorium \(up to 40\)\)\. Please/);
    const review = question(await answer(demo, orionTaken.requestState, { room: accept({ room: 'auditorium' }) }), 'confirm');
    expect(review.message).toContain('- Room: Auditorium (up to 40)');
  });

  it('asks a step again when the user changes it at the review, then shows the new answers', async () => {
    const demo = await demoEngine();
    const review = await untilReview(demo, 8, 'orion');
    const again = question(await answer(demo, review.requestState, choice('change_when')), 'when');
    expect(again.message).toBe('When should "Roadmap review" take place, and for how many people?');
    const later = inDays(31);
    const second = question(await answer(demo, again.requestState, when(3, later, '09:00')), 'confirm');
    expect(second.message).toBe(`Book "Roadmap review"?\n\n- Date: ${later}\n- Time: 9:00\n- Attendees: 3`);
    const result = done(await answer(demo, second.requestState, choice('confirm')));
    expect(result.structuredContent).toMatchObject({ status: 'booked', date: later, time: '09:00', attendees: 3, room: 'huddle' });
    expect(await demo.meetings.meetingsAbout('Roadmap review')).toHaveLength(1);
  });

  it('asks for the room again when a change at the review makes the room chosen before too small', async () => {
    const demo = await demoEngine();
    const review = await untilReview(demo, 8, 'atlas');
    const again = question(await answer(demo, review.requestState, choice('change_when')), 'when');
    // the room answer kept from before fails its check now: the room is asked again, with the reason
    const room = question(await answer(demo, again.requestState, when(30)), 'room');
    expect(room.message).toMatch(
      /not accepted: "atlas" is not one of the options offered \(Auditorium \(up to 40\)\)\. Please answer again\.$/,
    );
    const second = question(await answer(demo, room.requestState, { room: accept({ room: 'auditorium' }) }), 'confirm');
    expect(second.message).toContain('- Attendees: 30\n- Room: Auditorium (up to 40)');
    const result = done(await answer(demo, second.requestState, choice('confirm')));
    expect(result.structuredContent).toMatchObject({ status: 'booked', attendees: 30, room: 'auditorium' });
    expect(await demo.meetings.meetingsAbout('Roadmap review')).toHaveLength(1);
  });

  it('goes back to the first question when the room is declined', async () => {
    const demo = await demoEngine();
    const first = question(await demo.call('book_meeting', ARGS), 'when');
    const room = question(await answer(demo, first.requestState, when(8)), 'room');
    const back = question(await answer(demo, room.requestState, { room: decline }), 'when');
    expect(back.message).toBe('When should "Roadmap review" take place, and for how many people?');
  });

  for (const [what, step, responses, text] of [
    ['declines the first question', 'when', { when: decline }, "Nothing was booked: the question 'when' was declined."],
    ['cancels the first question', 'when', { when: cancel }, "Nothing was booked: the question 'when' was cancelled."],
    ['abandons at the review', 'confirm', choice('abandon'), 'Nothing was booked: the booking was abandoned.'],
    ['cancels the review', 'confirm', { confirm: cancel }, 'Nothing was booked: the booking was cancelled.'],
  ] as const) {
    it(`books nothing when the user ${what}`, async () => {
      const demo = await demoEngine();
      const state =
        step === 'when' ? question(await demo.call('book_meeting', ARGS), 'when').requestState : (await untilReview(demo, 4)).requestState;
      const result = done(await answer(demo, state, responses));
      expect(textOf(result)).toBe(text);
      expect(result.structuredContent).toMatchObject({ status: 'not_booked', step });
      expect(await demo.meetings.meetingsAbout('Roadmap review')).toEqual([]);
      expect(demo.effectsRecorded()).toBe(0);
    });
  }
});

describe('book_meeting answered more than once', () => {
  it('books once when the same confirmation arrives twice, and three times at once: one row, identical results', async () => {
    const demo = await demoEngine();
    const review = await untilReview(demo, 8, 'orion');
    const retry = () => answer(demo, review.requestState, choice('confirm'));
    const once = done(await retry());
    const again = done(await retry());
    expect(again).toEqual(once);
    const three = (await Promise.all([retry(), retry(), retry()])).map(done);
    for (const result of three) expect(result).toEqual(once);
    expect(await demo.meetings.meetingsAbout('Roadmap review')).toHaveLength(1);
    expect(demo.effectsRecorded()).toBe(1);
  });

  it('books once when two processes sharing the file serve the same confirmation', async () => {
    const first = await demoEngine();
    const second = await demoEngine({ db: first.db });
    const review = await untilReview(first, 4);
    const results = await Promise.all([first, second].map((demo) => answer(demo, review.requestState, choice('confirm'))));
    expect(done(results[1]!)).toEqual(done(results[0]!));
    expect(await first.meetings.meetingsAbout('Roadmap review')).toHaveLength(1);
    expect(first.effectsRecorded() + second.effectsRecorded()).toBe(1);
  });
});

describe('book_meeting across a deploy from version 0 (sync checks) to 2 (async checks, the free rooms loaded)', () => {
  /** The version before, served by another engine over the same stores and ledger. */
  const before = (demo: DemoEngine): Engine =>
    createEngine({
      tools: [createBookMeetingToolV0({ book: demo.meetings.book, holderOf: () => undefined })],
      keyring: sharedKeyring,
      audience: SERVER_NAME,
      ledger: demo.ledger,
    });
  const call = (engine: Engine, retry: { requestState?: string; inputResponses?: unknown } = {}) =>
    engine.callTool({ name: 'book_meeting', arguments: ARGS, principal: 'ada', capabilities: FORM, ...retry });

  it("continues each question version 0 asked: the first step's, the room's and the review's", async () => {
    const demo = await demoEngine();
    const old = before(demo);
    // the first question, sealed by version 0, answered by version 1: the answer is checked, the room asked
    const first = question(await call(old), 'when');
    const room = question(await answer(demo, first.requestState, when(8)), 'room');
    expect(room.message).toBe(`Which room for 8 people on ${DATE} at 14:00?`);
    // the room question, sealed by version 0 (no rooms loaded then: the migration offers those big enough)
    const oldRoom = question(await call(old, { requestState: first.requestState, inputResponses: when(8) }), 'room');
    const review = question(await answer(demo, oldRoom.requestState, { room: accept({ room: 'orion' }) }), 'confirm');
    expect(review.message).toContain('- Room: Orion (up to 20)');
    // the review, sealed by version 0: confirmed under version 1, booked once
    const oldReview = question(
      await call(old, { requestState: oldRoom.requestState, inputResponses: { room: accept({ room: 'atlas' }) } }),
      'confirm',
    );
    expect(textOf(done(await answer(demo, oldReview.requestState, choice('confirm'))))).toBe(
      `Booked "Roadmap review" in Atlas on ${DATE} at 14:00 for 8 people (booking 1).`,
    );
    expect(demo.logs.filter((e) => e.event === 'state_migrated').map((e) => e.message)).toEqual([
      expect.stringMatching(/'0' → '1' → '2'$/),
      expect.stringMatching(/'0' → '1' → '2'$/),
      expect.stringMatching(/'0' → '1' → '2'$/),
    ]);
    expect(await demo.meetings.meetingsAbout('Roadmap review')).toHaveLength(1);
  });
});
