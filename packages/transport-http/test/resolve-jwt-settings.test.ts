import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, HttpConfigError } from '../src/index.ts';
import { resolveJwtSettings } from '../src/node/index.ts';
import { AUDIENCE, bearer, ISSUER, keySetOf, makeSigningKey, NOW, type SigningKey, signToken } from './support/token-issuer.ts';

let folder: string;
let key: SigningKey;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'roundtrip-jwks-'));
  key = await makeSigningKey('file-key', 'ES256');
  writeFileSync(join(folder, 'jwks.json'), JSON.stringify(keySetOf(key)));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const env = { ROUNDTRIP_ISSUER: ISSUER, ROUNDTRIP_AUDIENCE: AUDIENCE };

function configError(run: () => unknown): HttpConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpConfigError) return error;
    throw error;
  }
  throw new Error('expected an HttpConfigError');
}

describe('resolveJwtSettings: --jwks, --issuer, --audience and their variables', () => {
  it('nothing set: no authentication', () => {
    expect(resolveJwtSettings({}, {})).toBeUndefined();
    expect(resolveJwtSettings({}, { ROUNDTRIP_JWKS: ' ', ROUNDTRIP_ISSUER: '' })).toBeUndefined();
  });

  it('a JWKS file (relative to the folder, or a file: URL) is read once, and its keys verify tokens', async () => {
    const options = resolveJwtSettings({}, { ...env, ROUNDTRIP_JWKS: 'jwks.json' }, folder);
    expect(options).toEqual({ jwks: keySetOf(key), issuer: ISSUER, audience: AUDIENCE });
    const authenticator = createJwtAuthenticator({ ...options!, now: () => NOW });
    const result = await authenticator.authenticate(bearer(await signToken(key, { sub: 'erin' })));
    expect(result.ok && result.principal).toBe('erin');
    const byUrl = resolveJwtSettings({}, { ...env, ROUNDTRIP_JWKS: pathToFileURL(join(folder, 'jwks.json')).href });
    expect(byUrl?.jwks).toEqual(keySetOf(key));
  });

  it('an https URL is kept as a URL (fetched later); http only to this machine', () => {
    expect(resolveJwtSettings({}, { ...env, ROUNDTRIP_JWKS: 'https://auth.example.test/jwks.json' })?.jwks).toEqual(
      new URL('https://auth.example.test/jwks.json'),
    );
    expect(resolveJwtSettings({}, { ...env, ROUNDTRIP_JWKS: 'http://127.0.0.1:9000/jwks' })?.jwks).toEqual(
      new URL('http://127.0.0.1:9000/jwks'),
    );
    const plain = configError(() => resolveJwtSettings({}, { ...env, ROUNDTRIP_JWKS: 'http://auth.example.test/jwks.json' }));
    expect(plain.setting).toBe('ROUNDTRIP_JWKS');
    expect(plain.message).toBe(
      '--jwks (ROUNDTRIP_JWKS) http://auth.example.test/jwks.json: keys must be fetched over https (plain http only from this machine), ' +
        'or anyone on the network path could swap them and sign tokens of their own; use the https URL',
    );
    expect(configError(() => resolveJwtSettings({}, { ...env, ROUNDTRIP_JWKS: 'ftp://x/jwks' })).message).toContain('a ftp URL');
  });

  it('flags win over variables', () => {
    const options = resolveJwtSettings(
      { jwks: 'https://flag.example.test/jwks', issuer: 'https://flag-issuer.example.test/', audience: 'flag-audience' },
      { ROUNDTRIP_JWKS: 'jwks.json', ...env },
      folder,
    );
    expect(options).toEqual({
      jwks: new URL('https://flag.example.test/jwks'),
      issuer: 'https://flag-issuer.example.test/',
      audience: 'flag-audience',
    });
  });

  it('a JWKS without an issuer or an audience, or those without a JWKS, is refused with what to set', () => {
    const noIssuer = configError(() => resolveJwtSettings({ jwks: 'https://a.test/jwks' }, { ROUNDTRIP_AUDIENCE: AUDIENCE }));
    expect(noIssuer.setting).toBe('ROUNDTRIP_ISSUER');
    expect(noIssuer.message).toContain('--jwks (ROUNDTRIP_JWKS) is set but --issuer (ROUNDTRIP_ISSUER) is not');
    const noAudience = configError(() => resolveJwtSettings({ jwks: 'https://a.test/jwks' }, { ROUNDTRIP_ISSUER: ISSUER }));
    expect(noAudience.setting).toBe('ROUNDTRIP_AUDIENCE');
    expect(noAudience.message).toContain('without it a token issued for any other service would be accepted here');
    const noJwks = configError(() => resolveJwtSettings({}, env));
    expect(noJwks.message).toMatch(
      /^--issuer \(ROUNDTRIP_ISSUER\) and --audience \(ROUNDTRIP_AUDIENCE\) are set, but --jwks \(ROUNDTRIP_JWKS\) is not: without the authorization server’s keys/,
    );
  });

  it('ROUNDTRIP_JWT_TYP (or --jwt-typ) names the typ header tokens must carry; alone, without a JWKS, it is refused', () => {
    const jwks = 'https://a.test/jwks';
    expect(resolveJwtSettings({ jwks }, { ...env, ROUNDTRIP_JWT_TYP: ' at+jwt ' })?.typ).toBe('at+jwt');
    expect(resolveJwtSettings({ jwks, typ: 'application/at+jwt' }, { ...env, ROUNDTRIP_JWT_TYP: 'at+jwt' })?.typ).toBe(
      'application/at+jwt',
    );
    expect(resolveJwtSettings({ jwks }, env)).not.toHaveProperty('typ');
    expect(configError(() => resolveJwtSettings({}, { ROUNDTRIP_JWT_TYP: 'at+jwt' })).message).toMatch(
      /^--jwt-typ \(ROUNDTRIP_JWT_TYP\) is set, but --jwks \(ROUNDTRIP_JWKS\) is not/,
    );
  });

  it('an issuer that is not an https URL is refused', () => {
    for (const issuer of ['auth.example.test', 'http://auth.example.test/']) {
      expect(
        configError(() => resolveJwtSettings({ jwks: 'https://a.test/jwks', issuer }, { ROUNDTRIP_AUDIENCE: AUDIENCE })).message,
      ).toContain('give your authorization server’s issuer URL (https; http only on this machine)');
    }
    expect(
      resolveJwtSettings({ jwks: 'https://a.test/jwks', issuer: 'http://localhost:8080/realms/dev' }, { ROUNDTRIP_AUDIENCE: AUDIENCE })
        ?.issuer,
    ).toBe('http://localhost:8080/realms/dev');
  });

  it('a file that is missing, a folder, unreadable or not JSON is refused, saying which and what to give', () => {
    const missing = configError(() => resolveJwtSettings({ jwks: 'missing.json' }, env, folder));
    expect(missing.message).toBe(
      `--jwks (ROUNDTRIP_JWKS) ${join(folder, 'missing.json')}: cannot read it: no such file; give the https URL of your ` +
        'authorization server’s JWKS (its jwks_uri) or the path of a file holding that JSON Web Key Set',
    );
    mkdirSync(join(folder, 'keys'), { recursive: true });
    expect(configError(() => resolveJwtSettings({ jwks: 'keys' }, env, folder)).message).toContain('cannot read it: a folder, not a file');
    writeFileSync(join(folder, 'broken.json'), '{"keys": [');
    expect(configError(() => resolveJwtSettings({ jwks: 'broken.json' }, env, folder)).message).toContain('broken.json: not JSON (');
    if (process.getuid?.() !== 0) {
      writeFileSync(join(folder, 'secret.json'), '{}');
      chmodSync(join(folder, 'secret.json'), 0o000);
      expect(configError(() => resolveJwtSettings({ jwks: 'secret.json' }, env, folder)).message).toContain('permission denied');
    }
  });

  it('a file holding a private key is refused when the authenticator is made', async () => {
    const { exportJWK } = await import('jose');
    writeFileSync(join(folder, 'private.json'), JSON.stringify({ keys: [{ ...(await exportJWK(key.privateKey)), kid: 'file-key' }] }));
    const options = resolveJwtSettings({ jwks: 'private.json' }, env, folder);
    expect(() => createJwtAuthenticator(options!)).toThrow('--jwks (ROUNDTRIP_JWKS): kid "file-key" is a private key');
  });
});
