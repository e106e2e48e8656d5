// The demo's meetings in the SQLite file of the orders. Reads are synchronous in better-sqlite3 and
// answered as resolved promises.
import type { BookingResult, Meeting, MeetingRequest, MeetingsStore, MeetingsStoreOptions, RoomId } from './meetings-store.ts';
import { hasTable, openSqliteFile } from './sqlite-file.ts';

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
 * Opens the meetings store in the SQLite file at `path` (the orders file: a file from an earlier version of the demo gets
 * the `meetings` table on first open).
 *
 * @example
 * const meetings = openSqliteMeetingsStore(dbLocation());
 * await meetings.book({ topic: 'Roadmap', date: '2026-12-10', time: '14:00', attendees: 8, room: 'atlas' }); // { status: 'booked', … }
 */
export function openSqliteMeetingsStore(path: string, options: MeetingsStoreOptions = {}): MeetingsStore {
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
    holderOf: async (room, date, time) => holderOf(room, date, time),
    meetingsIn: async (room, from, to) => selectBetween.all(room, from, to).map(toMeeting),
    meetingsAbout: async (topic) => selectAbout.all(topic).map(toMeeting),
    close: async () => {
      if (db.open) db.close();
    },
  };
}
