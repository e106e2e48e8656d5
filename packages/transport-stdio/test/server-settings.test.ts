import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateKey } from '@roundtrip/engine';
import { defaultKeyFilePath, resolveServerSettings, RoundtripConfigError } from '../src/index.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'rt-settings-'));

describe('resolveServerSettings', () => {
  it('takes the key from ROUNDTRIP_KEY, and several comma-separated keys with the first sealing', () => {
    const [a, b] = [generateKey(), generateKey()];
    const one = resolveServerSettings('srv', { ROUNDTRIP_KEY: a });
    expect(one.keyring.kids).toHaveLength(1);
    expect(one.keySource).toBe('ROUNDTRIP_KEY (1 key)');
    const two = resolveServerSettings('srv', { ROUNDTRIP_KEY: `${b}, ${a}` });
    expect(two.keyring.kids).toHaveLength(2);
    expect(two.keyring.sealingKid).not.toBe(one.keyring.sealingKid);
    expect(two.keyring.kids).toContain(one.keyring.sealingKid);
  });

  it('refuses a malformed ROUNDTRIP_KEY and says how to make a good one', () => {
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: 'short' })).toThrow(RoundtripConfigError);
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: 'shortkey' })).toThrow('ROUNDTRIP_KEY: Key #1 decodes to 6 bytes; a state key must be exactly 32 bytes (43 base64url characters).');
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: 'not base64url!' })).toThrow(/ROUNDTRIP_KEY: Key #1 is not base64url text\. Generate one/);
  });

  it('reads ROUNDTRIP_KEY_FILE with one key a line and comments, and names a missing file', () => {
    const dir = tempDir();
    const file = join(dir, 'keys');
    const [a, b] = [generateKey(), generateKey()];
    writeFileSync(file, `# rotated 2026-12-01\n${a}\n\n${b}\n`, { mode: 0o600 });
    const settings = resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: file });
    expect(settings.keyring.kids).toHaveLength(2);
    expect(settings.keySource).toBe(`key file ${file}`);
    expect(settings.warnings).toEqual([]);
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: join(dir, 'missing') })).toThrow(/Cannot read the key file .*missing \(ENOENT\)/);
    writeFileSync(file, '# nothing here\n');
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: file })).toThrow(/holds no key/);
  });

  it('warns when a key file can be read by other users', () => {
    const file = join(tempDir(), 'keys');
    writeFileSync(file, `${generateKey()}\n`, { mode: 0o644 });
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: file }).warnings[0]).toMatch(/can be read by other users; run `chmod 600/);
  });

  it('generates the default key file once, owner-only, and reuses it on the next start', () => {
    const config = tempDir();
    const env = { XDG_CONFIG_HOME: config, HOME: config };
    const path = defaultKeyFilePath('my server', env, 'linux');
    expect(path).toBe(join(config, 'roundtrip', 'keys', 'my_server.key'));
    const first = resolveServerSettings('my server', env);
    expect(first.keySource).toBe(`key file ${path} (generated now)`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, 'roundtrip', 'keys')).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, 'utf8')).toMatch(/^# Roundtrip state key.*\n[A-Za-z0-9_-]{43}\n$/);
    const second = resolveServerSettings('my server', env);
    expect(second.keySource).toBe(`key file ${path}`);
    expect(second.keyring.sealingKid).toBe(first.keyring.sealingKid);
  });

  it('gives two processes starting at once the same generated key', async () => {
    const config = tempDir();
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const script = join(import.meta.dirname, 'fixtures', 'print-sealing-kid.ts');
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', tsx, script], { env: { PATH: process.env.PATH, XDG_CONFIG_HOME: config, HOME: config } });
    const results = await Promise.all([run(), run(), run()]);
    const kids = results.map((r) => r.stdout.trim());
    expect(new Set(kids).size).toBe(1);
    expect(kids[0]).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });

  it('binds states to ROUNDTRIP_PRINCIPAL, else to the OS user', () => {
    const key = generateKey();
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key, ROUNDTRIP_PRINCIPAL: 'ada@example.com' }).principal).toBe('ada@example.com');
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key }).principal).toBe(userInfo().username);
  });

  it('reads ROUNDTRIP_STATE_TTL in seconds (default 600) and refuses anything else', () => {
    const key = generateKey();
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key }).stateTtlSeconds).toBe(600);
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key, ROUNDTRIP_STATE_TTL: '30' }).stateTtlSeconds).toBe(30);
    for (const bad of ['0', '-5', '1.5', 'ten', '90000']) {
      expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: key, ROUNDTRIP_STATE_TTL: bad })).toThrow(/ROUNDTRIP_STATE_TTL is .*whole seconds from 1 to 86400/);
    }
  });
});
