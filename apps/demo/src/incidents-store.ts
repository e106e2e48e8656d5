// The demo's incident reports, in the same SQLite file as the orders.
import { hasTable, openSqliteFile } from './sqlite-file.ts';

type Severity = 'low' | 'medium' | 'high';

/** One recorded incident. Plain JSON. */
interface Incident {
  id: number;
  summary: string;
  severity: Severity;
  /** The affected services, as picked. */
  services: string[];
  description: string;
  /** Whether the on-call engineer was paged; null when the severity did not ask. */
  paged: boolean | null;
  /** ISO 8601 time of the report. */
  reportedAt: string;
}

export type IncidentReport = Omit<Incident, 'id' | 'reportedAt'>;

export interface IncidentsStore {
  /**
   * Records an incident and returns it with its id. While another connection holds the file's write lock
   * it waits (without blocking other requests); after `busyTimeoutMs` it rejects with a DatabaseLockedError.
   */
  record(report: IncidentReport): Promise<Incident>;
  /** Every incident with this summary, oldest first; for tests and the demo's checks. */
  incidentsAbout(summary: string): Incident[];
  close(): void;
}

export interface IncidentsStoreOptions {
  /** How long a write waits for another connection's lock before failing with a DatabaseLockedError. @defaultValue 5000 */
  busyTimeoutMs?: number | undefined;
  /** Clock for report times, for tests. @defaultValue () => new Date() */
  now?: () => Date;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS incidents (
    id          INTEGER PRIMARY KEY,
    summary     TEXT NOT NULL,
    severity    TEXT NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
    services    TEXT NOT NULL,
    description TEXT NOT NULL,
    paged       INTEGER CHECK (paged IN (0, 1)),
    reported_at TEXT NOT NULL
  ) STRICT;
`;

interface IncidentRow {
  id: number;
  summary: string;
  severity: Severity;
  services: string;
  description: string;
  paged: 0 | 1 | null;
  reported_at: string;
}

const toIncident = (row: IncidentRow): Incident => ({
  id: row.id,
  summary: row.summary,
  severity: row.severity,
  services: JSON.parse(row.services) as string[],
  description: row.description,
  paged: row.paged === null ? null : row.paged === 1,
  reportedAt: row.reported_at,
});
const COLUMNS = 'id, summary, severity, services, description, paged, reported_at';

/**
 * Opens the incidents store at `path` (the orders file: a file from an earlier version of the demo gets
 * the `incidents` table on first open).
 *
 * @example
 * const incidents = openIncidentsStore(dbPath());
 * await incidents.record({ summary: 'Checkout down', severity: 'high', services: ['checkout'], description: '…', paged: true });
 */
export function openIncidentsStore(path: string, options: IncidentsStoreOptions = {}): IncidentsStore {
  const now = options.now ?? (() => new Date());
  const { db, write } = openSqliteFile(path, {
    what: 'incidents database',
    busyTimeoutMs: options.busyTimeoutMs,
    isUpToDate: (opened) => hasTable(opened, 'incidents'),
    prepare: (opened) => opened.exec(SCHEMA),
  });
  const insert = db.prepare<[string, string, string, string, number | null, string], IncidentRow>(
    `INSERT INTO incidents (summary, severity, services, description, paged, reported_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );
  const selectAbout = db.prepare<[string], IncidentRow>(`SELECT ${COLUMNS} FROM incidents WHERE summary = ? ORDER BY id`);
  return {
    record: async (report) => {
      const paged = report.paged === null ? null : Number(report.paged);
      const row = await write('record the incident', () =>
        insert.get(report.summary, report.severity, JSON.stringify(report.services), report.description, paged, now().toISOString()),
      );
      return toIncident(row!);
    },
    incidentsAbout: (summary) => selectAbout.all(summary).map(toIncident),
    close: () => {
      if (db.open) db.close();
    },
  };
}
