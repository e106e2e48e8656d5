// The demo's incident reports in PostgreSQL.
import type { Incident, IncidentsStore, IncidentsStoreOptions } from './incidents-store.ts';
import type { PostgresDatabase } from './postgres-database.ts';

interface IncidentRow {
  id: number;
  summary: string;
  severity: Incident['severity'];
  /** jsonb: pg parses it. */
  services: string[];
  description: string;
  paged: boolean | null;
  reported_at: string;
}

const toIncident = ({ reported_at, ...row }: IncidentRow): Incident => ({ ...row, reportedAt: reported_at });
const COLUMNS = 'id, summary, severity, services, description, paged, reported_at';

/**
 * The incidents store in the demo's PostgreSQL database (opened and migrated by openPostgresDatabase).
 *
 * @example
 * const incidents = openPostgresIncidentsStore(await openPostgresDatabase(url));
 * await incidents.record({ summary: 'Checkout down', severity: 'high', services: ['checkout'], description: '…', paged: true });
 */
export function openPostgresIncidentsStore(database: PostgresDatabase, options: IncidentsStoreOptions = {}): IncidentsStore {
  const now = options.now ?? (() => new Date());
  const db = database.forStore('incidents database');
  return {
    record: async (report) => {
      const [row] = await db.query<IncidentRow>(
        'record the incident',
        `INSERT INTO incidents (summary, severity, services, description, paged, reported_at)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6) RETURNING ${COLUMNS}`,
        [report.summary, report.severity, JSON.stringify(report.services), report.description, report.paged, now().toISOString()],
      );
      return toIncident(row!);
    },
    incidentsAbout: async (summary) =>
      (
        await db.query<IncidentRow>(
          'read the incidents with a summary',
          `SELECT ${COLUMNS} FROM incidents WHERE summary = $1 ORDER BY id`,
          [summary],
        )
      ).map(toIncident),
    close: () => db.close(),
  };
}
