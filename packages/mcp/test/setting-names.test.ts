// The ROUNDTRIP_* variables a server starts with are checked by name: an unknown one is named in a warning
// with the setting it was probably meant for, and one meant for the key, while no key is given, stops the
// start before a key file is generated (the issue: ROUNDTRIP_KEYFILE served on a generated key, which
// behind a balancer showed only as -32602 now and then).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultKeyFilePath, RoundtripConfigError, resolveServerSettings } from '../src/node/index.ts';
import { SERVER_VARIABLES } from '../src/node/setting-names.ts';

const folders: string[] = [];
const tempDir = () => {
  const folder = mkdtempSync(join(tmpdir(), 'rt-names-'));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const key = generateKey();
/** A server given a key, whose ledger is kept nowhere: only the names under test differ. */
const withKey = (env: NodeJS.ProcessEnv) => ({ ROUNDTRIP_KEY: key, ROUNDTRIP_LEDGER: ':memory:', ...env });

describe('the names of the ROUNDTRIP_* variables, checked at start', () => {
  it('names an unknown variable with the setting it was probably meant for, and still starts', () => {
    const settings = resolveServerSettings('srv', withKey({ ROUNDTRIP_STATE_TLL: '30', ROUNDTRIP_TTL: '30', ROUNDTRIP_COLOUR: 'blue' }));
    expect(settings.limits.stateTtlSeconds).toBe(600);
    expect(settings.warnings).toEqual([
      "ROUNDTRIP_COLOUR is set, but no setting has that name, so it is ignored. Check its spelling; a variable the server's own code reads is declared in its ownVariables option.",
      'ROUNDTRIP_STATE_TLL is set, but no setting has that name, so it is ignored. Did you mean ROUNDTRIP_STATE_TTL?',
      'ROUNDTRIP_TTL is set, but no setting has that name, so it is ignored. Did you mean ROUNDTRIP_STATE_TTL?',
    ]);
  });

  it('refuses a name meant for ROUNDTRIP_KEY_FILE or ROUNDTRIP_KEY while neither is set, before any key file is generated', () => {
    const config = tempDir();
    const env = { XDG_CONFIG_HOME: config, HOME: config, ROUNDTRIP_LEDGER: ':memory:' };
    for (const [name, meant] of [
      ['ROUNDTRIP_KEYFILE', 'ROUNDTRIP_KEY_FILE'],
      ['ROUNDTRIP_KEY_FLIE', 'ROUNDTRIP_KEY_FILE'],
      ['ROUNDTRIP_KEYS', 'ROUNDTRIP_KEY'],
    ] as const) {
      const attempt = () => resolveServerSettings('srv', { ...env, [name]: '/run/secrets/roundtrip.key' });
      expect(attempt).toThrow(RoundtripConfigError);
      expect(attempt).toThrow(
        `${name} is set, but no setting has that name. Did you mean ${meant}? With neither ROUNDTRIP_KEY nor ROUNDTRIP_KEY_FILE set, ` +
          'this server would seal its states with a key file it generates for itself, which no other instance shares (behind a balancer, ' +
          `rounds would fail now and then as an invalid requestState). Rename ${name} to ${meant}, or unset it to serve with the generated key file.`,
      );
      try {
        attempt();
      } catch (error) {
        expect((error as RoundtripConfigError).setting).toBe(name);
      }
    }
    expect(existsSync(defaultKeyFilePath('srv', env, 'linux'))).toBe(false);
  });

  it('only warns of a misspelt key setting when the key is given, and says so loudly of a key-like name when it is not', () => {
    expect(resolveServerSettings('srv', withKey({ ROUNDTRIP_KEYFILE: '/k' })).warnings).toEqual([
      'ROUNDTRIP_KEYFILE is set, but no setting has that name, so it is ignored. Did you mean ROUNDTRIP_KEY_FILE?',
    ]);
    const config = tempDir();
    const settings = resolveServerSettings('srv', { XDG_CONFIG_HOME: config, HOME: config, ROUNDTRIP_SIGNING_KEYRING: 'x' });
    expect(settings.keySource).toMatch(/\(generated now\)$/);
    expect(settings.warnings).toEqual([
      'ROUNDTRIP_SIGNING_KEYRING is set, but no setting has that name, so it is ignored. This server seals its states with the key ' +
        'file it generates for itself: give the key with ROUNDTRIP_KEY or ROUNDTRIP_KEY_FILE.',
    ]);
  });

  it("leaves alone every setting it reads, the transport's and the code's own variables, ROUNDTRIP_TEST_* and empty ones", () => {
    const ownVariables = ['ROUNDTRIP_DB', 'ROUNDTRIP_DB_BUSY_TIMEOUT_MS'];
    const env = withKey({
      ROUNDTRIP_PRINCIPAL: 'ada',
      ROUNDTRIP_MAX_ROUNDS: '8',
      ROUNDTRIP_DB: 'orders.db',
      ROUNDTRIP_DB_BUSY_TIMEOUT_MS: '100',
      ROUNDTRIP_JWKS: 'https://issuer.example/jwks',
      ROUNDTRIP_TEST_PG: 'postgres://localhost/test',
      ROUNDTRIP_KEYFILE: ' ',
    });
    expect(resolveServerSettings('srv', env, { ownVariables }, ['ROUNDTRIP_JWKS']).warnings).toEqual([]);
    // without the declarations, the same names are unknown
    expect(resolveServerSettings('srv', env).warnings.map((warning) => warning.split(' ')[0])).toEqual([
      'ROUNDTRIP_DB',
      'ROUNDTRIP_DB_BUSY_TIMEOUT_MS',
      'ROUNDTRIP_JWKS',
    ]);
  });

  it('knows every variable the settings are read from (a name read in src/node is in the list)', () => {
    const folder = new URL('../src/node/', import.meta.url);
    const read = new Set<string>();
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(new URL(file, folder), 'utf8');
      // env.ROUNDTRIP_X, and the names settings are looked up by ('ROUNDTRIP_X' as a setting or variable)
      for (const [, name] of source.matchAll(/\benv\.(ROUNDTRIP_[A-Z0-9_]+)/g)) read.add(name!);
      for (const [, name] of source.matchAll(/variable: '(ROUNDTRIP_[A-Z0-9_]+)'/g)) read.add(name!);
    }
    expect(read.size).toBeGreaterThan(8);
    expect([...read].filter((name) => !SERVER_VARIABLES.includes(name))).toEqual([]);
    expect([...SERVER_VARIABLES].sort()).toEqual([...read].sort());
  });

  it('points a file path given as ROUNDTRIP_KEY at ROUNDTRIP_KEY_FILE', () => {
    for (const path of ['/run/secrets/roundtrip.key', './keys/orders.key', 'orders.key', '~/orders.key', 'C:\\keys\\orders']) {
      expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: path })).toThrow(
        `ROUNDTRIP_KEY holds the key itself, but ${JSON.stringify(path)} looks like a file's path. To read the key from that file, ` +
          `set ROUNDTRIP_KEY_FILE=${path} instead and leave ROUNDTRIP_KEY unset.`,
      );
    }
    // a key that is not one is still told what a key is
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: 'shortkey' })).toThrow(/^ROUNDTRIP_KEY: Key #1: it decodes to 6 bytes/);
  });
});
