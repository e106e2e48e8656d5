// The demo's incident reports in the SQLite file of the orders. Reads are synchronous in better-sqlite3
// and answered as resolved promises.
import type { Incident, IncidentsStore, IncidentsStoreOptions } from './incidents-store.ts';
import { hasTable, openSqliteFile } from './sqlite-file.ts';

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
  severity: Incident['severity'];
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
 * Opens the incidents store in the SQLite file at `path` (the orders file: a file from an earlier version of the demo gets
 * the `incidents` table on first open).
 *
 * @example
 * const incidents = openSqliteIncidentsStore(dbLocation());
 * await incidents.record({ summary: 'Checkout down', severity: 'high', services: ['checkout'], description: '…', paged: true });
 */
export function openSqliteIncidentsStore(path: string, options: IncidentsStoreOptions = {}): IncidentsStore {
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
    incidentsAbout: async (summary) => selectAbout.all(summary).map(toIncident),
    close: async () => {
      if (db.open) db.close();
    },
  };
}
