// A setting a Node server cannot start with is a RoundtripConfigError naming the setting, with a code that says
// what kind of problem it is: a caller can tell a value to fix from a file or database not there right now.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { RoundtripConfigError as FromRoot } from '../src/index.ts';
import { RoundtripConfigError, resolveServerSettings } from '../src/node/index.ts';

const folder = mkdtempSync(join(tmpdir(), 'rt-config-codes-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What resolving the settings of `env` threw. */
function refusalOf(env: NodeJS.ProcessEnv): unknown {
  try {
    resolveServerSettings('srv', env);
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('RoundtripConfigError', () => {
  it('is one class, at the web-standard root and the Node subpath', () => {
    expect(RoundtripConfigError).toBe(FromRoot);
    expect(new RoundtripConfigError('ROUNDTRIP_STATE_TTL', 'ROUNDTRIP_STATE_TTL is "x"')).toMatchObject({
      name: 'RoundtripConfigError',
      setting: 'ROUNDTRIP_STATE_TTL',
      code: 'invalid_value',
    });
  });

  it('says what kind of problem each setting has', () => {
    const key = generateKey();
    expect(refusalOf({ ROUNDTRIP_KEY: key, ROUNDTRIP_STATE_TTL: 'soon' })).toMatchObject({
      setting: 'ROUNDTRIP_STATE_TTL',
      code: 'invalid_value',
    });
    expect(
      refusalOf({ ROUNDTRIP_KEYFILE: '/run/secrets/k', ROUNDTRIP_LEDGER: ':memory:', HOME: folder, XDG_CONFIG_HOME: folder }),
    ).toMatchObject({
      setting: 'ROUNDTRIP_KEYFILE',
      code: 'unknown_setting',
    });
    expect(refusalOf({ ROUNDTRIP_KEY_FILE: join(folder, 'absent') })).toMatchObject({ setting: 'ROUNDTRIP_KEY_FILE', code: 'unavailable' });
    const shared = join(folder, 'shared');
    writeFileSync(shared, `${key}\n`);
    chmodSync(shared, 0o620);
    expect(refusalOf({ ROUNDTRIP_KEY_FILE: shared })).toMatchObject({ setting: 'ROUNDTRIP_KEY_FILE', code: 'unsafe' });
  });
});
