// runHttpServer (and so mainHttpServer and `roundtrip serve --http`) checks the names of the ROUNDTRIP_*
// variables it starts with against the settings every Node server reads and the HTTP transport's own: an
// unknown one is named in the log with the setting meant, and one meant for the key while no key is given
// stops the start. Every variable the transport reads is in its list, so none of them is called unknown.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EngineLogEntry, generateKey } from '@roundtrip/engine';
import { RoundtripConfigError } from '@roundtrip/mcp/node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SERVER_VARIABLES } from '../../mcp/src/node/setting-names.ts';
import { bookTable } from '../../mcp/test/fixtures/booking-definitions.ts';
import { runHttpServer } from '../src/node/index.ts';
import { HTTP_VARIABLES } from '../src/node/resolve-http-settings.ts';
import { closeAll, startServer } from './support/http-host.ts';

afterEach(closeAll);
const home = mkdtempSync(join(tmpdir(), 'rt-http-names-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the HTTP server: the ROUNDTRIP_* names it starts with', () => {
  it('names an unknown variable with the setting meant, and knows its own (ROUNDTRIP_INSTANCE, ROUNDTRIP_DRAIN_TIMEOUT_MS)', async () => {
    const { logs } = await startServer(
      { tools: [bookTable] },
      { ROUNDTRIP_ALLOWED_HOST: 'mcp.example.com', ROUNDTRIP_INSTANCE: 'one', ROUNDTRIP_DRAIN_TIMEOUT_MS: '100' },
    );
    expect(logs.filter((entry) => entry.event === 'settings').map((entry) => entry.message)).toEqual([
      'ROUNDTRIP_ALLOWED_HOST is set, but no setting has that name, so it is ignored. Did you mean ROUNDTRIP_ALLOWED_HOSTS?',
    ]);
  });

  it('refuses a misspelt key setting when no key is given, before a key file is generated', async () => {
    const attempt = startServer({ tools: [bookTable] }, { ROUNDTRIP_KEY: '', ROUNDTRIP_KEYFILE: '/k', HOME: home, XDG_CONFIG_HOME: home });
    await expect(attempt).rejects.toThrow(RoundtripConfigError);
    await expect(attempt).rejects.toThrow(/^ROUNDTRIP_KEYFILE is set, but no setting has that name\. Did you mean ROUNDTRIP_KEY_FILE\?/);
    expect(existsSync(join(home, 'roundtrip'))).toBe(false);
  });

  it('names a misspelt ROUNDTRIP_JWKS before the refusal to serve a network address without authentication', async () => {
    const logs: EngineLogEntry[] = [];
    const attempt = runHttpServer({
      name: 'http-test',
      version: '0.0.1',
      tools: [bookTable],
      listen: '0.0.0.0:0',
      handleSignals: false,
      log: (entry) => logs.push(entry),
      env: {
        ROUNDTRIP_KEY: generateKey(),
        ROUNDTRIP_PRINCIPAL: 'ada',
        ROUNDTRIP_LEDGER: ':memory:',
        ROUNDTRIP_JWK: 'https://idp.example.com/jwks',
      },
    });
    await expect(attempt).rejects.toThrow(/authentication/);
    expect(logs.map((entry) => entry.message)).toContain(
      'ROUNDTRIP_JWK is set, but no setting has that name, so it is ignored. Did you mean ROUNDTRIP_JWKS?',
    );
  });

  it('lists every variable the transport reads (env.ROUNDTRIP_* in its sources)', () => {
    const read = new Set<string>();
    const visit = (folder: URL) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) visit(new URL(`${entry.name}/`, folder));
        else if (entry.name.endsWith('.ts'))
          for (const [, name] of readFileSync(new URL(entry.name, folder), 'utf8').matchAll(/\benv\.(ROUNDTRIP_[A-Z0-9_]+)/g))
            read.add(name!);
      }
    };
    visit(new URL('../src/', import.meta.url));
    expect(read.size).toBeGreaterThan(5);
    expect([...read].filter((name) => !HTTP_VARIABLES.includes(name) && !SERVER_VARIABLES.includes(name))).toEqual([]);
  });
});
