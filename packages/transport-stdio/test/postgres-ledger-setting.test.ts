// ROUNDTRIP_LEDGER=postgres://… keeps the stdio server's effect ledger in PostgreSQL (@roundtrip/engine/postgres):
// the URL is kept as it is (not made a path), logged without its password, and a server that cannot
// reach the database does not start (a server in this process). With ROUNDTRIP_TEST_PG (see the engine's
// postgres-test-database.ts) a real server process opens it, migrates its tables and closes it on exit.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { RoundtripConfigError, resolveServerSettings } from '@roundtrip/mcp/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../engine/test/postgres-test-database.ts';
import { refusedPort } from '../../engine/test/refused-port.ts';
import { createBundles } from '../../mcp/test/fixtures/suite-bundle.ts';
import { V8_TUNING_SHOWN } from '../../mcp/test/fixtures/v8-tuning-shown.ts';
import { startInProcess } from './fixtures/in-process-server.ts';
import { type RawServer, spawnRawServer } from './fixtures/spawn-raw-server.ts';

const bundles = createBundles();
let script: string;
beforeAll(async () => {
  script = await bundles.of(join(import.meta.dirname, 'fixtures', 'greeting-server.ts'));
});
afterAll(() => bundles.remove());
const running: RawServer[] = [];
const start = (ledger: string) => {
  const server = spawnRawServer(script, { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada', ROUNDTRIP_LEDGER: ledger });
  running.push(server);
  return server;
};
afterEach(() => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(server.home, { recursive: true, force: true });
  }
});

describe('ROUNDTRIP_LEDGER as a PostgreSQL URL', () => {
  it('is kept as a URL, from the environment or the code, and named without its password', () => {
    const env = { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada' };
    const url = 'postgres://app:s3cret@db.internal:5432/orders?sslmode=require';
    expect(resolveServerSettings('srv', { ...env, ROUNDTRIP_LEDGER: url }).ledgerPath).toBe(url);
    expect(resolveServerSettings('srv', env, { ledger: { path: 'postgresql://app@db/orders' } }).ledgerPath).toBe(
      'postgresql://app@db/orders',
    );
    const own = { claim: () => 'claimed' as const, complete: () => undefined, read: () => undefined };
    expect(resolveServerSettings('srv', { ...env, ROUNDTRIP_LEDGER: url }, { ledger: own }).warnings).toEqual([
      "ROUNDTRIP_LEDGER overrides the effect ledger this server's code supplies; effects are recorded in postgres://app@db.internal:5432/orders?sslmode=require.",
    ]);
  });

  it('keeps the server from starting when the database cannot be reached: the server without its password, what to do', async () => {
    // on a server in this process: how a process that cannot start exits (status 1, the message on stderr, nothing on
    // stdout) is stdio-server.test.ts's
    const port = await refusedPort();
    const env = {
      ROUNDTRIP_KEY: generateKey(),
      ROUNDTRIP_PRINCIPAL: 'ada',
      ROUNDTRIP_LEDGER: `postgres://roundtrip:s3cret@127.0.0.1:${port}/orders`,
    };
    const refused = await startInProcess(env).then(
      () => new Error('the server started'),
      (error: unknown) => error as Error,
    );
    // a setting's problem: the process says its message alone (a bug would show its stack)
    expect(refused).toBeInstanceOf(RoundtripConfigError);
    expect(refused.message).toMatch(
      new RegExp(
        `^Cannot open the effect ledger at postgres://roundtrip@127\\.0\\.0\\.1:${port}/orders \\(ECONNREFUSED: .*\\)\\. ` +
          "Nothing accepts connections there: start PostgreSQL .* ROUNDTRIP_LEDGER sets the ledger's URL\\.$",
      ),
    );
    expect(refused.message).not.toContain('s3cret');
  });

  describe.skipIf(skipPostgres)('on a real PostgreSQL', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('opens the ledger there (its tables made), logs the URL without its password, and closes it when stdin ends', async () => {
      const { url, schema } = await db.freshSchema();
      const server = start(url);
      const log = await server.stderrMatching(/info started: /);
      const shown = new URL(url);
      shown.password = '';
      expect(log).toContain(`; effect ledger ${shown.href}${V8_TUNING_SHOWN})`);
      expect(log).not.toContain(`:${new URL(url).password}@`);
      const { rows } = await db.sql.query(`SELECT version FROM ${schema}.roundtrip_ledger_migrations`);
      expect(rows).toEqual([{ version: 1 }, { version: 2 }]);
      server.child.stdin.end();
      expect(await server.exited).toEqual({ code: 0, signal: null });
    });
  });
});
