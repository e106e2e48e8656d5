import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createMemoryLedger, generateKey } from '@roundtrip/engine';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { defaultKeyFilePath, defaultLedgerPath, RoundtripConfigError, resolveServerSettings } from '../src/node/index.ts';
import { openLedgerAt } from '../src/node/open-ledger.ts';
import { createBundles } from './fixtures/suite-bundle.ts';

const folders: string[] = [];
const tempDir = () => {
  const folder = mkdtempSync(join(tmpdir(), 'rt-settings-'));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

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
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: 'shortkey' })).toThrow(
      /^ROUNDTRIP_KEY: Key #1: it decodes to 6 bytes; a state key is exactly 32 bytes\./,
    );
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: 'not base64url!' })).toThrow(
      /^ROUNDTRIP_KEY: Key #1: it is not base64url text\. Fix: Generate a key with /,
    );
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
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: join(dir, 'missing') })).toThrow(
      /Cannot read the key file .*missing \(ENOENT\)/,
    );
    writeFileSync(file, '# nothing here\n');
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: file })).toThrow(/holds no key/);
  });

  it('warns when a key file can be read by other users', () => {
    const file = join(tempDir(), 'keys');
    writeFileSync(file, `${generateKey()}\n`, { mode: 0o644 });
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: file }).warnings[0]).toMatch(/can be read by other users; run `chmod 600/);
  });

  it('checks a key file before reading it: a FIFO, a folder or an oversized file is refused, one others can write too', () => {
    const dir = tempDir();
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: fifo })).toThrow(
      `The key file ${fifo} is a FIFO, not a file. Point ROUNDTRIP_KEY_FILE at a file that holds the key.`,
    );
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: dir })).toThrow(`The key file ${dir} is a folder, not a file.`);
    const big = join(dir, 'big');
    writeFileSync(big, 'x'.repeat(70_000), { mode: 0o600 });
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: big })).toThrow(/is 70000 bytes; a key file holds a few keys/);
    const shared = join(dir, 'shared');
    writeFileSync(shared, `${generateKey()}\n`);
    chmodSync(shared, 0o620);
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: shared })).toThrow(
      `The key file ${shared} can be written by other users, who could plant a key and forge states. Run \`chmod 600 ${shared}\`, then start again.`,
    );
  });

  it('warns when the folder of a key file can be written by others', () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const file = join(dir, 'keys');
    writeFileSync(file, `${generateKey()}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY_FILE: file }).warnings).toEqual([
      `The folder of the key file ${file} can be written by other users, who could replace the file; run \`chmod o-w ${dir}\`.`,
    ]);
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
    const bundles = createBundles();
    const script = await bundles.of(join(import.meta.dirname, 'fixtures', 'print-sealing-kid.ts'));
    onTestFinished(() => bundles.remove());
    const run = () =>
      promisify(execFile)(process.execPath, [script], { env: { PATH: process.env.PATH, XDG_CONFIG_HOME: config, HOME: config } });
    // two are a race as well as three: either may make the key file, and the other must read that one
    const results = await Promise.all([run(), run()]);
    const kids = results.map((r) => r.stdout.trim());
    expect(new Set(kids).size).toBe(1);
    expect(kids[0]).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });

  it('binds states to ROUNDTRIP_PRINCIPAL, else to the OS user', () => {
    const key = generateKey();
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key, ROUNDTRIP_PRINCIPAL: 'ada@example.com' }).principal).toBe('ada@example.com');
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key }).principal).toBe(userInfo().username);
  });

  it('takes every limit from its variable, else from code, else the default; the variable wins over code', () => {
    const key = generateKey();
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key }).limits).toEqual({
      stateTtlSeconds: 600,
      settleTimeoutMs: 10_000,
      maxRounds: 64,
      maxStateBytes: 65_536,
    });
    const fromCode = { limits: { stateTtlSeconds: 300, settleTimeoutMs: 2000, maxRounds: 20, maxStateBytes: 32_768 } };
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key }, fromCode).limits).toEqual(fromCode.limits);
    const env = {
      ROUNDTRIP_KEY: key,
      ROUNDTRIP_STATE_TTL: '30',
      ROUNDTRIP_SETTLE_TIMEOUT_MS: '2500',
      ROUNDTRIP_MAX_ROUNDS: ' 12 ',
      ROUNDTRIP_MAX_STATE_BYTES: '1048576',
    };
    expect(resolveServerSettings('srv', env, fromCode).limits).toEqual({
      stateTtlSeconds: 30,
      settleTimeoutMs: 2500,
      maxRounds: 12,
      maxStateBytes: 1_048_576,
    });
    // one variable overrides its own limit only; an empty one counts as unset
    expect(
      resolveServerSettings('srv', { ROUNDTRIP_KEY: key, ROUNDTRIP_MAX_ROUNDS: '8', ROUNDTRIP_STATE_TTL: ' ' }, fromCode).limits,
    ).toEqual({ ...fromCode.limits, maxRounds: 8 });
  });

  it.each([
    [
      'ROUNDTRIP_STATE_TTL',
      'the state lifetime in whole seconds from 1 to 604800 (default 600)',
      ['0', '-5', '1.5', 'ten', '604801', '1e3'],
    ],
    [
      'ROUNDTRIP_SETTLE_TIMEOUT_MS',
      'the time invoked work may take within one round, in whole milliseconds from 1 to 600000 (default 10000)',
      ['0', '600001', '2.5', '10s'],
    ],
    [
      'ROUNDTRIP_MAX_ROUNDS',
      'the number of rounds one request may take, a whole number from 1 to 1000 (default 64)',
      ['0', '1001', 'many', '-1'],
    ],
    [
      'ROUNDTRIP_MAX_STATE_BYTES',
      'the size of the largest requestState accepted, in whole bytes from 1 to 1048576 (default 65536)',
      ['0', '1048577', '64k', '0x10'],
    ],
  ])('refuses a bad %s, naming the range and the default', (variable, range, bads) => {
    for (const bad of bads) {
      const attempt = () => resolveServerSettings('srv', { ROUNDTRIP_KEY: generateKey(), [variable]: bad }, { limits: { maxRounds: 5 } });
      expect(attempt).toThrow(RoundtripConfigError);
      expect(attempt).toThrow(`${variable} is ${JSON.stringify(bad)}; give ${range}.`);
      try {
        attempt();
      } catch (error) {
        expect((error as RoundtripConfigError).setting).toBe(variable);
      }
    }
  });

  it('checks the limit variables before it writes a key file', () => {
    const config = tempDir();
    const env = { XDG_CONFIG_HOME: config, HOME: config, ROUNDTRIP_MAX_ROUNDS: 'lots' };
    expect(() => resolveServerSettings('srv', env)).toThrow(/ROUNDTRIP_MAX_ROUNDS/);
    expect(existsSync(defaultKeyFilePath('srv', env, 'linux'))).toBe(false);
  });

  it('keeps the effect ledger at ROUNDTRIP_LEDGER, else at the path the code gives, else at the per-user default', () => {
    const key = generateKey();
    const state = tempDir();
    const env = { ROUNDTRIP_KEY: key, XDG_STATE_HOME: state, HOME: state };
    expect(resolveServerSettings('my server', env).ledgerPath).toBe(join(state, 'roundtrip', 'ledgers', 'my_server.db'));
    expect(resolveServerSettings('srv', env, { ledger: { path: '/srv/effects.db' } }).ledgerPath).toBe('/srv/effects.db');
    expect(
      resolveServerSettings('srv', { ...env, ROUNDTRIP_LEDGER: '/var/ops.db' }, { ledger: { path: '/srv/effects.db' } }).ledgerPath,
    ).toBe('/var/ops.db');
    expect(resolveServerSettings('srv', { ...env, ROUNDTRIP_LEDGER: 'relative.db' }).ledgerPath).toBe(resolve('relative.db'));
    expect(resolveServerSettings('srv', { ...env, ROUNDTRIP_LEDGER: ':memory:' }).ledgerPath).toBe(':memory:');
  });

  it("uses the code's own ledger object unless ROUNDTRIP_LEDGER overrides it, and then says so", () => {
    const env = { ROUNDTRIP_KEY: generateKey() };
    const own = createMemoryLedger();
    const plain = resolveServerSettings('srv', env, { ledger: own });
    expect(plain.ledgerPath).toBeUndefined();
    expect(plain.warnings).toEqual([]);
    const overridden = resolveServerSettings('srv', { ...env, ROUNDTRIP_LEDGER: '/var/ops.db' }, { ledger: own });
    expect(overridden.ledgerPath).toBe('/var/ops.db');
    expect(overridden.warnings).toEqual([
      "ROUNDTRIP_LEDGER overrides the effect ledger this server's code supplies; effects are recorded in /var/ops.db.",
    ]);
  });
});

describe('defaultLedgerPath', () => {
  it('follows the platform convention beside the key files', () => {
    expect(defaultLedgerPath('orders', { HOME: '/home/ada' }, 'linux')).toBe('/home/ada/.local/state/roundtrip/ledgers/orders.db');
    expect(defaultLedgerPath('orders', { HOME: '/home/ada', XDG_STATE_HOME: '/xdg/state' }, 'linux')).toBe(
      '/xdg/state/roundtrip/ledgers/orders.db',
    );
    expect(defaultLedgerPath('my orders/v2', { HOME: '/Users/ada' }, 'darwin')).toBe(
      '/Users/ada/Library/Application Support/Roundtrip/ledgers/my_orders_v2.db',
    );
    expect(defaultLedgerPath('orders', { HOME: 'C:/Users/ada', LOCALAPPDATA: 'C:/Users/ada/AppData/Local' }, 'win32')).toBe(
      join('C:/Users/ada/AppData/Local', 'Roundtrip', 'ledgers', 'orders.db'),
    );
  });
});

describe('openLedgerAt', () => {
  it('opens the SQLite ledger, and names ROUNDTRIP_LEDGER when the file cannot be opened', async () => {
    const dir = tempDir();
    const ledger = await openLedgerAt(join(dir, 'nested', 'effects.db'));
    expect(await ledger.claim({ run: 'r', effect: 'e' }, 1)).toBe('claimed');
    await ledger.close();
    const notAFolder = join(dir, 'file');
    writeFileSync(notAFolder, '');
    const refused = await openLedgerAt(join(notAFolder, 'effects.db')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RoundtripConfigError);
    expect(refused).toMatchObject({ setting: 'ROUNDTRIP_LEDGER', code: 'unavailable' });
    expect((refused as Error).message).toMatch(
      /^Cannot open the effect ledger at .*file\/effects\.db .*ROUNDTRIP_LEDGER sets the ledger path\.$/,
    );
  });

  it('keeps a :memory: ledger in this process, without SQLite', async () => {
    const ledger = await openLedgerAt(':memory:');
    expect(await ledger.claim({ run: 'r', effect: 'e' }, 1)).toBe('claimed');
    expect(await ledger.claim({ run: 'r', effect: 'e' }, 2)).toEqual({ state: 'running', startedAt: 1 });
    expect('runOnceInTransaction' in ledger).toBe(false);
    await ledger.close();
  });
});
