// report_incident with a NUL character (U+0000) in its summary or in an answer: refused before anything
// is stored, in the same words on SQLite and on PostgreSQL (whose text cannot hold it: the store would
// fail with 22021 after the user answered everything, the failure recorded, the conversation lost). The
// PostgreSQL half needs ROUNDTRIP_TEST_PG (see the engine's postgres-test-database.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../../packages/engine/test/postgres-test-database.ts';
import { accept, asked, closeDemoEngines, type DemoEngine, demoEngine, done, question, textOf } from './support/demo-engine.ts';

afterEach(closeDemoEngines);

const SUMMARY = 'Checkout times out';
const DESCRIPTION = 'Card payments time out after 30 s since the 10:05 deploy.';
const REFUSED = 'NUL characters (U+0000) are not accepted; remove them';

/** The summary with a NUL refused as invalid arguments; nothing asked, recorded or stored. */
async function refusesTheSummary(demo: DemoEngine) {
  const result = done(await demo.call('report_incident', { summary: `Checkout\u0000 times out` }));
  expect(result.isError).toBe(true);
  expect(textOf(result)).toBe(
    `Invalid arguments for tool 'report_incident': summary: ${REFUSED}. Call it again with arguments matching its input schema.`,
  );
  expect(demo.effectsRecorded()).toBe(0);
  expect(demo.logs.filter((entry) => entry.level !== 'info')).toEqual([]);
}

/** A description with a NUL asked again with the reason; the clean one then recorded, once. */
async function asksTheDescriptionAgain(demo: DemoEngine) {
  const args = { summary: SUMMARY };
  const first = question(await demo.call('report_incident', args), 'severity');
  const severity = asked(
    await demo.call('report_incident', args, { requestState: first.requestState, inputResponses: { severity: accept({ level: 'low' }) } }),
  );
  const details = (description: string) => ({ details: accept({ services: ['checkout'], description }) });
  const again = question(
    await demo.call('report_incident', args, { requestState: severity.requestState, inputResponses: details(`${DESCRIPTION}\u0000`) }),
    'details',
  );
  expect(again.message).toBe(
    `Which services does "${SUMMARY}" affect, and what happened?\n\nYour last answer was not accepted: description: ${REFUSED}. Please answer again.`,
  );
  expect(demo.effectsRecorded()).toBe(0);
  const result = done(await demo.call('report_incident', args, { requestState: again.requestState, inputResponses: details(DESCRIPTION) }));
  expect(textOf(result)).toBe(`Recorded incident 1 (low): "${SUMMARY}" affecting Checkout.`);
  expect(await demo.incidents.incidentsAbout(SUMMARY)).toEqual([expect.objectContaining({ description: DESCRIPTION })]);
  expect(demo.effectsRecorded()).toBe(1);
}

describe('report_incident with a NUL character, on SQLite', () => {
  it('refuses it in the summary as invalid arguments, naming the field', async () => {
    await refusesTheSummary(await demoEngine());
  });

  it('asks again for a description with one, saying why, and records the clean one', async () => {
    await asksTheDescriptionAgain(await demoEngine());
  });
});

describe.skipIf(skipPostgres)('report_incident with a NUL character, on PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('refuses it in the summary as invalid arguments, naming the field, as on SQLite', async () => {
    await refusesTheSummary(await demoEngine({ db: (await db.freshSchema()).url }));
  });

  it('asks again for a description with one, saying why, and records the clean one, as on SQLite', async () => {
    await asksTheDescriptionAgain(await demoEngine({ db: (await db.freshSchema()).url }));
  });
});
