import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConfigErrorCode, RoundtripConfigError } from '@roundtrip/mcp';
import type { JSONWebKeySet } from 'jose';
import type { JwtAuthenticatorOptions } from '../jwt-authenticator.ts';
import { isLoopbackHost } from '../loopback-host.ts';

/** The authentication flags of the command line; each wins over its environment variable. */
export interface JwtFlags {
  /** `--jwks`: the authorization server's JWKS, an https URL or a file of its public keys. */
  jwks?: string;
  /** `--issuer`: the `iss` of accepted tokens. */
  issuer?: string;
  /** `--audience`: the `aud` of accepted tokens, this server's resource identifier. */
  audience?: string;
  /** `--jwt-typ`: the `typ` header every accepted token must carry, e.g. `at+jwt` (ROUNDTRIP_JWT_TYP). */
  typ?: string;
}

const WHAT_JWKS =
  'give the https URL of your authorization server’s JWKS (its jwks_uri) or the path of a file holding that JSON Web Key Set';

function settingOf(flag: string | undefined, variable: string | undefined): string | undefined {
  const value = (flag ?? variable)?.trim();
  return value === '' ? undefined : value;
}

function jwksError(message: string, code: ConfigErrorCode = 'invalid_value'): RoundtripConfigError {
  return new RoundtripConfigError('ROUNDTRIP_JWKS', `--jwks (ROUNDTRIP_JWKS) ${message}`, { code });
}

function readKeySet(path: string): JSONWebKeySet {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied (let this user read it)'
          : code === 'EISDIR'
            ? 'a folder, not a file'
            : (error as Error).message;
    throw jwksError(`${path}: cannot read it: ${why}; ${WHAT_JWKS}`, 'unavailable');
  }
  try {
    return JSON.parse(text) as JSONWebKeySet;
  } catch (error) {
    throw jwksError(`${path}: not JSON (${(error as Error).message}); the file must hold a JSON Web Key Set, {"keys": [...]}`);
  }
}

function keySetOf(value: string, cwd: string): URL | JSONWebKeySet {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return readKeySet(resolve(cwd, value));
  if (!URL.canParse(value)) throw jwksError(`${JSON.stringify(value)}: not a URL; ${WHAT_JWKS}`);
  const url = new URL(value);
  if (scheme === 'file') return readKeySet(fileURLToPath(url));
  if (scheme === 'https') return url;
  if (scheme === 'http' && isLoopbackHost(url.hostname)) return url;
  if (scheme === 'http') {
    throw jwksError(
      `${url.href}: keys must be fetched over https (plain http only from this machine), or anyone on the network path could ` +
        'swap them and sign tokens of their own; use the https URL',
      'unsafe',
    );
  }
  throw jwksError(`${url.href}: a ${scheme} URL; ${WHAT_JWKS}`);
}

function issuerOf(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || !(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)))) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_ISSUER',
      `--issuer (ROUNDTRIP_ISSUER) ${JSON.stringify(value)}: give your authorization server’s issuer URL (https; http only on this machine), ` +
        'exactly as the iss claim of its tokens has it; clients find the server from it',
    );
  }
  return value;
}

/**
 * The bearer authentication the operator configured, from `--jwks`, `--issuer` and `--audience` or
 * `ROUNDTRIP_JWKS`, `ROUNDTRIP_ISSUER` and `ROUNDTRIP_AUDIENCE` (a flag wins over its variable), and
 * optionally the `typ` header tokens must carry (`--jwt-typ`, `ROUNDTRIP_JWT_TYP`, e.g. `at+jwt`):
 * options for `createJwtAuthenticator`, or `undefined` when none of them is set (no
 * authentication: the bind policy then allows loopback only, and the principal is
 * `ROUNDTRIP_PRINCIPAL`, as on stdio).
 *
 * `ROUNDTRIP_JWKS` is an https URL (fetched and cached, refetched on an unknown `kid`; http only to a
 * loopback address), or a file of public keys (a path, relative to `cwd`, or a file: URL), read once
 * now. Throws {@link RoundtripConfigError} saying what to do: a JWKS without an issuer or an audience, an
 * issuer or audience without a JWKS, an unreadable or non-JSON file, a plain-http URL to another machine.
 */
export function resolveJwtSettings(
  flags: JwtFlags = {},
  env: Record<string, string | undefined> = process.env,
  cwd: string = process.cwd(),
): JwtAuthenticatorOptions | undefined {
  const jwks = settingOf(flags.jwks, env.ROUNDTRIP_JWKS);
  const issuer = settingOf(flags.issuer, env.ROUNDTRIP_ISSUER);
  const audience = settingOf(flags.audience, env.ROUNDTRIP_AUDIENCE);
  const typ = settingOf(flags.typ, env.ROUNDTRIP_JWT_TYP);
  if (jwks === undefined) {
    if (issuer === undefined && audience === undefined && typ === undefined) return undefined;
    const set = [
      issuer !== undefined && '--issuer (ROUNDTRIP_ISSUER)',
      audience !== undefined && '--audience (ROUNDTRIP_AUDIENCE)',
      typ !== undefined && '--jwt-typ (ROUNDTRIP_JWT_TYP)',
    ].filter(Boolean);
    throw new RoundtripConfigError(
      'ROUNDTRIP_JWKS',
      `${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} set, but --jwks (ROUNDTRIP_JWKS) is not: without the authorization server’s keys no token ` +
        `can be checked; ${WHAT_JWKS}, or unset them to serve without authentication (loopback only)`,
      { code: 'missing' },
    );
  }
  if (issuer === undefined) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_ISSUER',
      '--jwks (ROUNDTRIP_JWKS) is set but --issuer (ROUNDTRIP_ISSUER) is not: tokens are accepted only from one issuer; ' +
        'give your authorization server’s issuer URL, exactly as the iss claim of its tokens has it',
      { code: 'missing' },
    );
  }
  if (audience === undefined) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_AUDIENCE',
      '--jwks (ROUNDTRIP_JWKS) is set but --audience (ROUNDTRIP_AUDIENCE) is not: without it a token issued for any other ' +
        'service would be accepted here; give this server’s resource identifier (usually its public URL, e.g. https://mcp.example.com/mcp), ' +
        'the aud its tokens carry',
      { code: 'missing' },
    );
  }
  return { jwks: keySetOf(jwks, cwd), issuer: issuerOf(issuer), audience, ...(typ !== undefined && { typ }) };
}
