// The `book_meeting` tool, declared as a flow of questions (@roundtrip/tools) instead of a hand-written
// machine: when and for how many (one form), a room only for more than 5 people, a review, then the
// booking, made at most once per conversation through the engine's effect ledger.
import { type MigrationSnapshot, safeText, type ToolDefinition } from '@roundtrip/engine';
import { defineFlowTool, type FlowToolResult, field } from '@roundtrip/tools';
import { z } from 'zod';
import { type BookingResult, type Meeting, type MeetingsStore, ROOMS, type RoomId } from './meetings-store.ts';

/** The rooms other than the huddle corner, which a meeting of more than 5 people chooses among. */
const BIG_ROOMS = (Object.keys(ROOMS) as RoomId[]).filter((room) => room !== 'huddle');

const TIMES = { '09:00': '9:00', '11:00': '11:00', '14:00': '14:00', '16:00': '16:00' } as const;

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
/** A chosen room: the room question offers only rooms (field.choiceFrom refuses any other answer). */
function asRoom(value: string): RoomId {
  if (!Object.hasOwn(ROOMS, value)) throw new TypeError(`'${value}' is not a room: the room question offers only rooms`);
  return value as RoomId;
}
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

/** The big rooms free on a slot and big enough for it, as the room question offers them (`none`: nothing to offer). */
async function freeRooms(store: Pick<MeetingsStore, 'holderOf'>, slot: Slot) {
  const free: Array<{ id: RoomId; name: string }> = [];
  for (const room of roomsFor(slot.attendees)) if (!(await store.holderOf(room.id, slot.date, slot.time))) free.push(room);
  return { rooms: free, none: free.length === 0 };
}

/** The big rooms a slot's attendees fit in, as the room question offers them. */
const roomsFor = (attendees: number) =>
  BIG_ROOMS.filter((room) => ROOMS[room].capacity >= attendees).map((room) => ({
    id: room,
    name: `${ROOMS[room].title} (up to ${ROOMS[room].capacity})`,
  }));

/**
 * A state sealed before version 2, past the slot with a room to choose: the rooms were not loaded then, so
 * it gets those big enough, under `free` before `room` on the trail (the room's check still refuses a taken one).
 */
function withRoomsLoaded(snapshot: MigrationSnapshot): MigrationSnapshot {
  const context = snapshot.context as { trail: string[]; answers: { when?: Slot | null }; loaded?: Record<string, unknown> };
  const at = context.trail.indexOf('room');
  const slot = context.answers.when;
  if (at < 0 || !slot || context.loaded?.free !== undefined) return snapshot;
  const rooms = roomsFor(slot.attendees);
  return {
    ...snapshot,
    context: {
      ...context,
      trail: [...context.trail.slice(0, at), 'free', ...context.trail.slice(at)],
      loaded: { ...context.loaded, free: { rooms, none: rooms.length === 0 } },
    },
  };
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
    // version 2 loads the rooms free at the slot (step `free`) for the room question to offer
    version: '2',
    migrations: {
      '0': {
        to: '1',
        migrate: (snapshot) =>
          typeof snapshot.value === 'string' && CHECKED_STEPS.has(snapshot.value)
            ? { ...snapshot, value: { [snapshot.value]: 'asking' } }
            : snapshot,
      },
      '1': { to: '2', migrate: withRoomsLoaded },
    },
    title: 'Book a meeting',
    description:
      'Books a meeting room after asking the date, time and number of attendees, a room when more than 5 people come, and a ' +
      'final confirmation. A meeting is booked at most once per call, however often the confirmation arrives.',
    annotations: { destructiveHint: false, idempotentHint: false, readOnlyHint: false, openWorldHint: false },
    input: z.object({ topic: z.string().min(1).max(120).describe('What the meeting is about') }),
    output: bookingOutput,
    finalProgress: 'Booking the room…',
    loaders: {
      // asked only after `when`, whose answer is the slot
      freeRooms: async ({ answers }) => freeRooms(store, (answers as { when: Slot }).when),
    },
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
          next: [{ if: { 'when.attendees': { gt: ROOMS.huddle.capacity } }, goto: 'free' }, { goto: 'confirm' }],
        })
        // the rooms free at the chosen slot and big enough: the room question offers only those
        .load('free', {
          run: 'freeRooms',
          progress: 'Finding the free rooms…',
          next: [
            {
              if: { 'free.none': { eq: true } },
              end: 'No room for {{when.attendees}} people is free on {{when.date}} at {{when.time}}. Call book_meeting again with another slot.',
            },
            { goto: 'room' },
          ],
        })
        .ask('room', {
          message: 'Which room for {{when.attendees}} people on {{when.date}} at {{when.time}}?',
          fields: { room: field.choiceFrom('free.rooms', { title: 'Room', value: 'id', label: 'name' }) },
          // the room was free when offered: checked again, as it may have been booked meanwhile
          check: async ({ answer, answers }) => roomProblem(store, asRoom(answer.room), answers.when),
          progress: 'Checking that the room is free…',
          onDecline: 'back',
        })
        .review('confirm', { message: 'Book "{{input.topic}}"?', labels: { confirm: 'Book it' } }),
    final: async ({ input, answers }) => {
      const { date, time, attendees } = answers.when;
      const room: RoomId = answers.room ? asRoom(answers.room.room) : 'huddle';
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
