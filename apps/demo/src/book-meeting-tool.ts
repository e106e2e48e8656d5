// The `book_meeting` tool, declared as a flow of questions (@roundtrip/tools) instead of a hand-written
// machine: when and for how many (one form), a room only for more than 5 people, a review, then the
// booking, made at most once per conversation through the engine's effect ledger.
import { safeText, type ToolDefinition } from '@roundtrip/engine';
import { defineFlowTool, type FlowToolResult, field } from '@roundtrip/tools';
import { z } from 'zod';
import { type BookingResult, type Meeting, type MeetingsStore, ROOMS, type RoomId } from './meetings-store.ts';

const TIMES = { '09:00': '9:00', '11:00': '11:00', '14:00': '14:00', '16:00': '16:00' } as const;
const BIG_ROOMS = { atlas: 'Atlas (up to 10)', orion: 'Orion (up to 20)', auditorium: 'Auditorium (up to 40)' } as const;

/** The structured content of every result: what was booked, or why nothing was. */
const bookingOutput = z.object({
  status: z.enum(['booked', 'taken', 'too_small', 'not_booked']),
  booking_id: z.int().optional(),
  topic: z.string().optional(),
  date: z.string().optional(),
  time: z.string().optional(),
  attendees: z.int().optional(),
  room: z.string().optional(),
  /** For `not_booked`: the step the user left, and how. */
  step: z.string().optional(),
  how: z.enum(['declined', 'cancelled', 'abandoned']).optional(),
});

type BookingView = FlowToolResult<typeof bookingOutput>;
type Slot = Pick<Meeting, 'date' | 'time' | 'attendees'>;

/** Today in UTC, `YYYY-MM-DD`: dates before it are past. */
const today = () => new Date().toISOString().slice(0, 10);
const roomText = (room: RoomId) => ROOMS[room].title;
const slotText = ({ date, time }: Pick<Slot, 'date' | 'time'>) => `${date} at ${time}`;

/** Why a room cannot hold this meeting, or undefined when it can. */
async function roomProblem(store: Pick<MeetingsStore, 'holderOf'>, room: RoomId, slot: Slot): Promise<string | undefined> {
  const { title, capacity } = ROOMS[room];
  if (slot.attendees > capacity) return `${title} holds ${capacity} people, not ${slot.attendees}`;
  const holder = await store.holderOf(room, slot.date, slot.time);
  return holder ? `${title} is booked on ${slotText(slot)} for "${safeText(holder.topic)}"` : undefined;
}

// a topic is a client's words, so results repeat it as safe text
function bookedResult(result: BookingResult | { status: 'too_small'; room: RoomId; slot: Slot }): BookingView {
  if (result.status === 'booked') {
    const m = result.meeting;
    return {
      text: `Booked "${safeText(m.topic)}" in ${roomText(m.room)} on ${slotText(m)} for ${m.attendees} people (booking ${m.id}).`,
      structured: {
        status: 'booked',
        booking_id: m.id,
        topic: safeText(m.topic),
        date: m.date,
        time: m.time,
        attendees: m.attendees,
        room: m.room,
      },
    };
  }
  // the room was taken, or grew too small, after it was checked: nothing was booked
  const problem =
    result.status === 'taken'
      ? `${roomText(result.holder.room)} was booked on ${slotText(result.holder)} for "${safeText(result.holder.topic)}" meanwhile`
      : `${roomText(result.room)} holds ${ROOMS[result.room].capacity} people, not ${result.slot.attendees}`;
  return { text: `Nothing was booked: ${problem}. Call book_meeting again.`, structured: { status: result.status }, isError: true };
}

/** The steps whose checks read the store: from version 1 on, each asks in its `asking` state while its check waits in `checking`. */
const CHECKED_STEPS = new Set(['when', 'room']);

/**
 * Builds the `book_meeting` tool over the meetings store.
 *
 * @example
 * const tool = createBookMeetingTool((await openDemoStores(dbLocation())).meetings);
 */
export function createBookMeetingTool(store: Pick<MeetingsStore, 'book' | 'holderOf'>): ToolDefinition {
  return defineFlowTool({
    name: 'book_meeting',
    // version 1 reads the store asynchronously in its checks (the store may be PostgreSQL): a state sealed
    // at a checked step by the version before (none, '0') continues in that step's `asking` state
    version: '1',
    migrations: {
      '0': {
        to: '1',
        migrate: (snapshot) =>
          typeof snapshot.value === 'string' && CHECKED_STEPS.has(snapshot.value)
            ? { ...snapshot, value: { [snapshot.value]: 'asking' } }
            : snapshot,
      },
    },
    title: 'Book a meeting',
    description:
      'Books a meeting room after asking the date, time and number of attendees, a room when more than 5 people come, and a ' +
      'final confirmation. A meeting is booked at most once per call, however often the confirmation arrives.',
    annotations: { destructiveHint: false, idempotentHint: false, readOnlyHint: false, openWorldHint: false },
    input: z.object({ topic: z.string().min(1).max(120).describe('What the meeting is about') }),
    output: bookingOutput,
    finalProgress: 'Booking the room…',
    // declared in order: each step's check sees the answers before it, typed, and `final` gets `when` as
    // required (every way to the booking passes it) and `room` as optional (asked only for more than 5)
    steps: (flow) =>
      flow
        .ask('when', {
          message: 'When should "{{input.topic}}" take place, and for how many people?',
          fields: {
            date: field.text({ title: 'Date', description: 'YYYY-MM-DD', format: 'date' }),
            time: field.select({ title: 'Time', options: TIMES }),
            attendees: field.integer({ title: 'Attendees', min: 1, max: 40 }),
          },
          // async: it reads the meetings store, so it runs as an invoked actor the round waits for
          check: async ({ answer }) => {
            if (answer.date < today()) return `${answer.date} is in the past`;
            return answer.attendees > ROOMS.huddle.capacity ? undefined : roomProblem(store, 'huddle', answer);
          },
          progress: 'Checking the date and the rooms…',
          next: [{ if: { 'when.attendees': { gt: ROOMS.huddle.capacity } }, goto: 'room' }, { goto: 'confirm' }],
        })
        .ask('room', {
          message: 'Which room for {{when.attendees}} people on {{when.date}} at {{when.time}}?',
          fields: { room: field.select({ title: 'Room', options: BIG_ROOMS }) },
          check: async ({ answer, answers }) => roomProblem(store, answer.room, answers.when),
          progress: 'Checking that the room is free…',
          onDecline: 'back',
        })
        .review('confirm', { message: 'Book "{{input.topic}}"?', labels: { confirm: 'Book it' } }),
    final: async ({ input, answers }) => {
      const { date, time, attendees } = answers.when;
      const room: RoomId = answers.room?.room ?? 'huddle';
      // a change at the review keeps the room chosen before, whose size was checked for the old count
      if (attendees > ROOMS[room].capacity) return bookedResult({ status: 'too_small', room, slot: { date, time, attendees } });
      return bookedResult(await store.book({ topic: input.topic, date, time, attendees, room }));
    },
    ended: ({ step, how }) => ({
      text: `Nothing was booked: the ${step === 'confirm' ? 'booking' : `question '${step}'`} was ${how}.`,
      structured: { status: 'not_booked', step, how },
    }),
  });
}
