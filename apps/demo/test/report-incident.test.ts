// The report_incident tool (declared as a flow) through the engine in this process: the severity, then
// one round of one or two forms, the report recorded in SQLite once.
import { afterEach, describe, expect, it } from 'vitest';
import {
  accept,
  asked,
  cancel,
  closeDemoEngines,
  type DemoEngine,
  decline,
  demoEngine,
  done,
  question,
  textOf,
} from './support/demo-engine.ts';

afterEach(closeDemoEngines);

const ARGS = { summary: 'Checkout times out' };
const DESCRIPTION = 'Card payments time out after 30 s since the 10:05 deploy.';
const details = (services: string[] = ['checkout', 'payments'], description = DESCRIPTION) => accept({ services, description });

const answer = (demo: DemoEngine, requestState: string, responses: Record<string, unknown>) =>
  demo.call('report_incident', ARGS, { requestState, inputResponses: responses });

/** Answers the severity question and returns the next round. */
async function afterSeverity(demo: DemoEngine, level: string) {
  const first = question(await demo.call('report_incident', ARGS), 'severity');
  return answer(demo, first.requestState, { severity: accept({ level }) });
}

describe('report_incident', () => {
  it('asks the severity first, as a choice with titles', async () => {
    const first = question(await (await demoEngine()).call('report_incident', ARGS), 'severity');
    expect(first.message).toBe('How severe is "Checkout times out"?');
    expect(first.schema).toEqual({
      type: 'object',
      properties: {
        level: {
          type: 'string',
          title: 'Severity',
          oneOf: [
            { const: 'low', title: 'Low: no customer notices' },
            { const: 'medium', title: 'Medium: some customers are slowed down' },
            { const: 'high', title: 'High: customers cannot work' },
          ],
        },
      },
      required: ['level'],
    });
  });

  it('asks only the details for a low severity, and records the incident', async () => {
    const demo = await demoEngine();
    const round = asked(await afterSeverity(demo, 'low'));
    expect(Object.keys(round.inputRequests)).toEqual(['details']);
    expect((round.inputRequests.details!.params as { requestedSchema: unknown }).requestedSchema).toEqual({
      type: 'object',
      properties: {
        services: {
          type: 'array',
          title: 'Affected services',
          items: {
            anyOf: [
              { const: 'checkout', title: 'Checkout' },
              { const: 'search', title: 'Search' },
              { const: 'payments', title: 'Payments' },
              { const: 'accounts', title: 'Accounts' },
            ],
          },
          minItems: 1,
        },
        description: { type: 'string', title: 'What happened', description: 'At least 20 characters', minLength: 20, maxLength: 500 },
      },
      required: ['services', 'description'],
    });
    const result = done(await answer(demo, round.requestState, { details: details(['search']) }));
    expect(textOf(result)).toBe('Recorded incident 1 (low): "Checkout times out" affecting Search.');
    expect(result.structuredContent).toEqual({
      status: 'recorded',
      incident_id: 1,
      severity: 'low',
      services: ['search'],
      paged: null,
      reported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await demo.incidents.incidentsAbout('Checkout times out')).toEqual([
      expect.objectContaining({ severity: 'low', services: ['search'], description: DESCRIPTION, paged: null }),
    ]);
  });

  it('asks the details and the on-call confirmation in the same round for a high severity', async () => {
    const demo = await demoEngine();
    const round = asked(await afterSeverity(demo, 'high'));
    expect(Object.keys(round.inputRequests)).toEqual(['details', 'oncall']);
    expect(round.inputRequests.details!.params.message).toBe('Which services does "Checkout times out" affect, and what happened?');
    expect(round.inputRequests.oncall!.params).toMatchObject({
      message: 'A high-severity incident: page the on-call engineer now?',
      requestedSchema: { properties: { page: { type: 'boolean', title: 'Page the on-call engineer' } }, required: ['page'] },
    });
    const result = done(await answer(demo, round.requestState, { details: details(), oncall: accept({ page: true }) }));
    expect(textOf(result)).toBe(
      'Recorded incident 1 (high): "Checkout times out" affecting Checkout, Payments; the on-call engineer was paged.',
    );
    expect(await demo.incidents.incidentsAbout('Checkout times out')).toEqual([
      expect.objectContaining({ severity: 'high', services: ['checkout', 'payments'], paged: true }),
    ]);
  });

  it('asks again for the form whose answer does not fit, keeping the other answer', async () => {
    const demo = await demoEngine();
    const round = asked(await afterSeverity(demo, 'high'));
    const again = asked(
      await answer(demo, round.requestState, { details: details(['checkout'], 'Slow.'), oncall: accept({ page: false }) }),
    );
    expect(Object.keys(again.inputRequests)).toEqual(['details']);
    expect(again.inputRequests.details!.params.message).toMatch(
      /not accepted: description: Too small: expected string to have >=20 characters/,
    );
    const result = done(await answer(demo, again.requestState, { details: details(['checkout']) }));
    expect(result.structuredContent).toMatchObject({ status: 'recorded', severity: 'high', paged: false });
    expect(textOf(result)).toMatch(/; nobody was paged\.$/);
  });

  for (const [what, responses, step, how] of [
    ['declines the severity', 'severity', 'severity', 'declined'],
    ['declines the details', { details: decline, oncall: accept({ page: true }) }, 'report', 'declined'],
    ['cancels the on-call confirmation', { details: details(), oncall: cancel }, 'report', 'cancelled'],
  ] as const) {
    it(`records nothing when the user ${what}`, async () => {
      const demo = await demoEngine();
      const outcome =
        responses === 'severity'
          ? await answer(demo, question(await demo.call('report_incident', ARGS), 'severity').requestState, { severity: decline })
          : await answer(demo, asked(await afterSeverity(demo, 'high')).requestState, responses);
      const result = done(outcome);
      expect(textOf(result)).toBe(`No incident was recorded: the question '${step}' was ${how}.`);
      expect(result.structuredContent).toEqual({ status: 'not_recorded', step, how });
      expect(await demo.incidents.incidentsAbout('Checkout times out')).toEqual([]);
      expect(demo.effectsRecorded()).toBe(0);
    });
  }

  it('records once when the same final answers arrive twice: one row, identical results', async () => {
    const demo = await demoEngine();
    const round = asked(await afterSeverity(demo, 'high'));
    const retry = () => answer(demo, round.requestState, { details: details(), oncall: accept({ page: true }) });
    const once = done(await retry());
    expect(done(await retry())).toEqual(once);
    expect(await demo.incidents.incidentsAbout('Checkout times out')).toHaveLength(1);
    expect(demo.effectsRecorded()).toBe(1);
  });
});
