// The demo's meeting rooms and their bookings, in the same SQLite file as the orders. A room holds one
// meeting per date and time: the table says so, so no two conversations can book the same slot.
import { hasTable, openSqliteFile } from './sqlite-file.ts';

/** The rooms that can be booked, with how many people each holds. Meetings of up to 5 take the huddle corner. */
export const ROOMS = {
  huddle: { title: 'Huddle corner', capacity: 5 },
  atlas: { title: 'Atlas', capacity: 10 },
  orion: { title: 'Orion', capacity: 20 },
  auditorium: { title: 'Auditorium', capacity: 40 },
} as const satisfies Record<string, { title: string; capacity: number }>;

export type RoomId = keyof typeof ROOMS;

/** Whether `room` names one of {@link ROOMS}. */

/** One booked meeting. Plain JSON. */
export interface Meeting {
  id: number;
  topic: string;
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:MM` */
  time: string;
  attendees: number;
  room: RoomId;
  /** ISO 8601 time of the booking. */
  bookedAt: string;
}

type MeetingRequest = Pick<Meeting, 'topic' | 'date' | 'time' | 'attendees' | 'room'>;

export type BookingResult =
  | { status: 'booked'; meeting: Meeting }
  /** Another meeting holds the room at that date and time: nothing was booked. */
  | { status: 'taken'; holder: Meeting };

export interface MeetingsStore {
  /**
   * Books a meeting unless its room is taken at that date and time; the check and the write are one
   * transaction. While another connection holds the file's write lock it waits (without blocking other
   * requests); after `busyTimeoutMs` it rejects with a DatabaseLockedError and nothing is booked.
   */
  book(request: MeetingRequest): Promise<BookingResult>;
  /** The meeting holding `room` at `date` and `time`, if any. */
  holderOf(room: RoomId, date: string, time: string): Meeting | undefined;
  /** A room's meetings from `from` to `to` (`YYYY-MM-DD`, both included), by date and time. */
  meetingsIn(room: RoomId, from: string, to: string): Meeting[];
  /** Every meeting on this topic, oldest booking first; for tests and the demo's checks. */
  meetingsAbout(topic: string): Meeting[];
  close(): void;
}

export interface MeetingsStoreOptions {
  /** How long a write waits for another connection's lock before failing with a DatabaseLockedError. @defaultValue 5000 */
  busyTimeoutMs?: number | undefined;
  /** Clock for booking times, for tests. @defaultValue () => new Date() */
  now?: () => Date;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meetings (
    id         INTEGER PRIMARY KEY,
    topic      TEXT NOT NULL,
    date       TEXT NOT NULL,
    time       TEXT NOT NULL,
    attendees  INTEGER NOT NULL CHECK (attendees > 0),
    room       TEXT NOT NULL,
    booked_at  TEXT NOT NULL,
    UNIQUE (room, date, time)
  ) STRICT;
`;

interface MeetingRow {
  id: number;
  topic: string;
  date: string;
  time: string;
  attendees: number;
  room: RoomId;
  booked_at: string;
}

const toMeeting = ({ booked_at, ...row }: MeetingRow): Meeting => ({ ...row, bookedAt: booked_at });
const COLUMNS = 'id, topic, date, time, attendees, room, booked_at';

/**
 * Opens the meetings store at `path` (the orders file: a file from an earlier version of the demo gets
 * the `meetings` table on first open).
 *
 * @example
 * const meetings = openMeetingsStore(dbPath());
 * await meetings.book({ topic: 'Roadmap', date: '2026-12-10', time: '14:00', attendees: 8, room: 'atlas' }); // { status: 'booked', … }
 */
export function openMeetingsStore(path: string, options: MeetingsStoreOptions = {}): MeetingsStore {
  const now = options.now ?? (() => new Date());
  const { db, write } = openSqliteFile(path, {
    what: 'meetings database',
    busyTimeoutMs: options.busyTimeoutMs,
    isUpToDate: (opened) => hasTable(opened, 'meetings'),
    prepare: (opened) => opened.exec(SCHEMA),
  });
  const selectHolder = db.prepare<[string, string, string], MeetingRow>(
    `SELECT ${COLUMNS} FROM meetings WHERE room = ? AND date = ? AND time = ?`,
  );
  const selectBetween = db.prepare<[string, string, string], MeetingRow>(
    `SELECT ${COLUMNS} FROM meetings WHERE room = ? AND date BETWEEN ? AND ? ORDER BY date, time`,
  );
  const selectAbout = db.prepare<[string], MeetingRow>(`SELECT ${COLUMNS} FROM meetings WHERE topic = ? ORDER BY id`);
  const insert = db.prepare<[string, string, string, number, string, string], MeetingRow>(
    `INSERT INTO meetings (topic, date, time, attendees, room, booked_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );

  const holderOf = (room: RoomId, date: string, time: string) => {
    const row = selectHolder.get(room, date, time);
    return row ? toMeeting(row) : undefined;
  };
  const book = db.transaction((request: MeetingRequest): BookingResult => {
    const holder = holderOf(request.room, request.date, request.time);
    if (holder) return { status: 'taken', holder };
    const row = insert.get(request.topic, request.date, request.time, request.attendees, request.room, now().toISOString())!;
    return { status: 'booked', meeting: toMeeting(row) };
  });

  return {
    // immediate: take the write lock before reading, so two connections cannot both see the slot free
    book: (request) => write(`book ${request.room} on ${request.date} at ${request.time}`, () => book.immediate(request)),
    holderOf,
    meetingsIn: (room, from, to) => selectBetween.all(room, from, to).map(toMeeting),
    meetingsAbout: (topic) => selectAbout.all(topic).map(toMeeting),
    close: () => {
      if (db.open) db.close();
    },
  };
}
