// The `report_incident` tool, declared as a flow: the severity first, then one round asking the details
// and, only for a high severity, whether to page the on-call engineer; the report is recorded once.
import { safeText, type ToolDefinition } from '@roundtrip/engine';
import { defineFlowTool, field } from '@roundtrip/tools';
import { z } from 'zod';
import type { IncidentsStore } from './incidents-store.ts';

const SEVERITIES = {
  low: 'Low: no customer notices',
  medium: 'Medium: some customers are slowed down',
  high: 'High: customers cannot work',
} as const;

const SERVICES = { checkout: 'Checkout', search: 'Search', payments: 'Payments', accounts: 'Accounts' } as const;

/** The structured content of every result: what was recorded, or where the user stopped. */
const incidentOutput = z.object({
  status: z.enum(['recorded', 'not_recorded']),
  incident_id: z.int().optional(),
  severity: z.enum(['low', 'medium', 'high']).optional(),
  services: z.array(z.string()).optional(),
  /** Whether the on-call engineer was paged; null when the severity did not ask. */
  paged: z.boolean().nullable().optional(),
  reported_at: z.string().optional(),
  /** For `not_recorded`: the step the user left, and how. */
  step: z.string().optional(),
  how: z.enum(['declined', 'cancelled', 'abandoned']).optional(),
});

/**
 * Builds the `report_incident` tool over the incidents store.
 *
 * @example
 * const tool = createReportIncidentTool((await openDemoStores(dbLocation())).incidents);
 */
export function createReportIncidentTool(store: Pick<IncidentsStore, 'record'>): ToolDefinition {
  return defineFlowTool({
    name: 'report_incident',
    title: 'Report an incident',
    description:
      'Records an incident after asking its severity, the affected services and what happened; for a high severity it also asks, ' +
      'in the same round, whether to page the on-call engineer. An incident is recorded at most once per call.',
    annotations: { destructiveHint: false, idempotentHint: false, readOnlyHint: false, openWorldHint: false },
    input: z.object({ summary: z.string().min(1).max(120).describe('One line on what is wrong, e.g. "Checkout times out"') }),
    output: incidentOutput,
    finalProgress: 'Recording the incident…',
    // declared in order: `final` gets the severity and the details as required (every way to it asks
    // them) and the on-call form as optional (asked only for a high severity)
    steps: (flow) =>
      flow
        .ask('severity', {
          message: 'How severe is "{{input.summary}}"?',
          fields: { level: field.select({ title: 'Severity', options: SEVERITIES }) },
        })
        .askAll('report', {
          forms: {
            details: {
              message: 'Which services does "{{input.summary}}" affect, and what happened?',
              fields: {
                services: field.multiSelect({ title: 'Affected services', options: SERVICES, min: 1 }),
                description: field.text({ title: 'What happened', description: 'At least 20 characters', minLength: 20, maxLength: 500 }),
              },
            },
            oncall: {
              message: 'A high-severity incident: page the on-call engineer now?',
              fields: { page: field.boolean({ title: 'Page the on-call engineer' }) },
              if: { 'severity.level': { eq: 'high' } },
            },
          },
        }),
    final: async ({ input, answers }) => {
      const { level } = answers.severity;
      const { services, description } = answers.details;
      const incident = await store.record({
        summary: input.summary,
        severity: level,
        services,
        description,
        paged: answers.oncall?.page ?? null,
      });
      const paged = incident.paged === null ? '' : incident.paged ? '; the on-call engineer was paged' : '; nobody was paged';
      return {
        // the summary is the client's words: the result repeats it as safe text
        text: `Recorded incident ${incident.id} (${level}): "${safeText(incident.summary)}" affecting ${services.map((s) => SERVICES[s]).join(', ')}${paged}.`,
        structured: {
          status: 'recorded',
          incident_id: incident.id,
          severity: level,
          services,
          paged: incident.paged,
          reported_at: incident.reportedAt,
        },
      };
    },
    ended: ({ step, how }) => ({
      text: `No incident was recorded: the question '${step}' was ${how}.`,
      structured: { status: 'not_recorded', step, how },
    }),
  });
}
