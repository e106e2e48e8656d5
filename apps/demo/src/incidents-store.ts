// The demo's incident reports, beside the orders (in the same SQLite file, or the same PostgreSQL
// database). Every call is async, reads included.

type Severity = 'low' | 'medium' | 'high';

/** One recorded incident. Plain JSON. */
export interface Incident {
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
   * Records an incident and returns it with its id. While another connection holds the lock it needs, it
   * waits (without blocking other requests); after `busyTimeoutMs` it rejects with a DatabaseLockedError.
   */
  record(report: IncidentReport): Promise<Incident>;
  /** Every incident with this summary, oldest first; for tests and the demo's checks. */
  incidentsAbout(summary: string): Promise<Incident[]>;
  close(): Promise<void>;
}

export interface IncidentsStoreOptions {
  /** How long a write waits for another connection's lock before failing with a DatabaseLockedError. @defaultValue 5000 */
  busyTimeoutMs?: number | undefined;
  /** Clock for report times, for tests. @defaultValue () => new Date() */
  now?: () => Date;
}
