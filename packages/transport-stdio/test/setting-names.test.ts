// mainStdioServer, what an application's main runs (the demo's), checks the names of the ROUNDTRIP_*
// variables it starts with: an unknown one is named in the log with the setting meant, the application's
// own (declared in ownVariables) are not, and one meant for the key while no key is given stops the start.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBundles } from '../../mcp/test/fixtures/suite-bundle.ts';
import { startInProcess } from './fixtures/in-process-server.ts';
import { spawnRawServer } from './fixtures/spawn-raw-server.ts';

const bundles = createBundles();
let script: string;
beforeAll(async () => {
  script = await bundles.of(join(import.meta.dirname, 'fixtures', 'greeting-server.ts'));
});
afterAll(() => bundles.remove());

describe('the stdio server: the ROUNDTRIP_* names it starts with', () => {
  it("names an unknown variable in its log with the setting meant, leaves the code's own alone, and serves", async () => {
    const server = await startInProcess(
      { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_LEDGER: ':memory:', ROUNDTRIP_MAX_ROUND: '5', ROUNDTRIP_GREETING: 'Hi' },
      { ownVariables: ['ROUNDTRIP_GREETING'] },
    );
    const log = await server.stderrMatching(/info started: /);
    expect(log).toContain(
      '[greeting-test] warn settings: ROUNDTRIP_MAX_ROUND is set, but no setting has that name, so it is ignored. Did you mean ROUNDTRIP_MAX_ROUNDS?\n',
    );
    expect(log).not.toContain('ROUNDTRIP_GREETING');
    await server.end();
  });

  it('as a main, refuses to start on a misspelt key setting when no key is given: status 1, before a key file is generated', async () => {
    const server = spawnRawServer(script, { ROUNDTRIP_KEY_FLIE: '/run/secrets/greeting.key' });
    // a server that started anyway ends with its stdin, at once
    server.child.stdin.end();
    expect((await server.exited).code).toBe(1);
    expect(server.stderr()).toContain(
      '[greeting-test] cannot start: ROUNDTRIP_KEY_FLIE is set, but no setting has that name. Did you mean ROUNDTRIP_KEY_FILE? With neither ROUNDTRIP_KEY nor ROUNDTRIP_KEY_FILE set,',
    );
    expect(existsSync(join(server.home, '.config', 'roundtrip', 'keys'))).toBe(false);
    expect(server.stdoutLines).toEqual([]);
  });
});
