import { hostname } from 'node:os';
import { RoundtripConfigError } from '@roundtrip/mcp';
import type { JwtAuthenticatorOptions } from '../jwt-authenticator.ts';
import { hostForUrl, isLoopbackHost, isWildcardHost } from '../loopback-host.ts';
import type { ListenAddress } from './listen-address.ts';
import { type JwtFlags, resolveJwtSettings } from './resolve-jwt-settings.ts';

/** The HTTP flags of the command line; each wins over its environment variable. */
export interface HttpFlags extends JwtFlags {
  /** `--allowed-hosts`: host names clients may address this server by, comma-separated (ROUNDTRIP_ALLOWED_HOSTS). */
  allowedHosts?: string;
  /** `--allowed-origins`: host names of browser pages that may call it, comma-separated (ROUNDTRIP_ALLOWED_ORIGINS). */
  allowedOrigins?: string;
  /** `--public-url`: the URL clients reach the MCP endpoint at, behind a proxy (ROUNDTRIP_PUBLIC_URL). */
  publicUrl?: string;
  /** `--insecure-no-auth`: serve a non-loopback address without authentication (ROUNDTRIP_INSECURE_NO_AUTH=1). */
  insecureNoAuth?: boolean;
}

/** What the HTTP transport reads besides the settings every Node server shares. */
export interface HttpSettings {
  /** Bearer authentication, or undefined for none. */
  jwt: JwtAuthenticatorOptions | undefined;
  allowedHosts: string[];
  allowedOrigins: string[];
  /** The operator's public URL of the endpoint, when given. */
  publicUrl: URL | undefined;
  insecureNoAuth: boolean;
  /** How long a shutdown waits for requests in flight (ROUNDTRIP_DRAIN_TIMEOUT_MS). */
  drainTimeoutMs: number;
  /** The `Roundtrip-Instance` header's value (ROUNDTRIP_INSTANCE, else host name and pid). */
  instance: string;
}

/**
 * Every variable the HTTP transport reads besides the settings every Node server shares: the check at
 * start names any other ROUNDTRIP_* variable as unknown (see resolveServerSettings in @roundtrip/mcp/node).
 */
export const HTTP_VARIABLES: readonly string[] = [
  'ROUNDTRIP_JWKS',
  'ROUNDTRIP_ISSUER',
  'ROUNDTRIP_AUDIENCE',
  'ROUNDTRIP_JWT_TYP',
  'ROUNDTRIP_ALLOWED_HOSTS',
  'ROUNDTRIP_ALLOWED_ORIGINS',
  'ROUNDTRIP_PUBLIC_URL',
  'ROUNDTRIP_INSECURE_NO_AUTH',
  'ROUNDTRIP_DRAIN_TIMEOUT_MS',
  'ROUNDTRIP_INSTANCE',
];

/** How long a shutdown waits by default: rounds are bounded by the settle timeout (10 s), and orchestrators wait 30 s. */
const DEFAULT_DRAIN_TIMEOUT_MS = 20_000;
const MAX_DRAIN_TIMEOUT_MS = 600_000;

const settingOf = (flag: string | undefined, variable: string | undefined) => {
  const value = (flag ?? variable)?.trim();
  return value === '' ? undefined : value;
};

function listOf(flag: string | undefined, variable: string | undefined): string[] {
  return (settingOf(flag, variable) ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function insecureOf(flag: boolean | undefined, variable: string | undefined): boolean {
  if (flag) return true;
  const value = variable?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no'].includes(value)) return false;
  if (['1', 'true', 'yes'].includes(value)) return true;
  throw new RoundtripConfigError(
    'ROUNDTRIP_INSECURE_NO_AUTH',
    `ROUNDTRIP_INSECURE_NO_AUTH is ${JSON.stringify(variable)}; give 1 or leave it unset`,
  );
}

function publicUrlOf(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash !== '' || url.search !== '') {
    throw new RoundtripConfigError(
      'ROUNDTRIP_PUBLIC_URL',
      `--public-url (ROUNDTRIP_PUBLIC_URL) ${JSON.stringify(value)}: give the http(s) URL clients reach the MCP endpoint at, ` +
        'without query or fragment, e.g. https://mcp.example.com/mcp',
    );
  }
  return url;
}

function drainTimeoutOf(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_DRAIN_TIMEOUT_MS;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!(ms >= 0 && ms <= MAX_DRAIN_TIMEOUT_MS)) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_DRAIN_TIMEOUT_MS',
      `ROUNDTRIP_DRAIN_TIMEOUT_MS is ${JSON.stringify(value)}: give how long a shutdown waits for requests in flight, in whole ` +
        `milliseconds from 0 to ${MAX_DRAIN_TIMEOUT_MS} (default ${DEFAULT_DRAIN_TIMEOUT_MS})`,
    );
  }
  return ms;
}

function instanceOf(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return `${hostname()}:${process.pid}`;
  if (!/^[\x21-\x7e]{1,100}$/.test(value.trim())) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_INSTANCE',
      'ROUNDTRIP_INSTANCE: give a name of 1 to 100 visible ASCII characters without spaces (it is sent as the Roundtrip-Instance header)',
    );
  }
  return value.trim();
}

/**
 * Reads the HTTP transport's settings from `flags` (the command line's) and the environment: the bearer
 * authentication (see resolveJwtSettings), `ROUNDTRIP_ALLOWED_HOSTS`, `ROUNDTRIP_ALLOWED_ORIGINS`,
 * `ROUNDTRIP_PUBLIC_URL`, `ROUNDTRIP_INSECURE_NO_AUTH`, `ROUNDTRIP_DRAIN_TIMEOUT_MS` (default 20000)
 * and `ROUNDTRIP_INSTANCE`. Throws RoundtripConfigError naming the flag or variable and the fix.
 */
export function resolveHttpSettings(flags: HttpFlags, env: NodeJS.ProcessEnv, cwd: string = process.cwd()): HttpSettings {
  return {
    jwt: resolveJwtSettings(flags, env, cwd),
    allowedHosts: listOf(flags.allowedHosts, env.ROUNDTRIP_ALLOWED_HOSTS),
    allowedOrigins: listOf(flags.allowedOrigins, env.ROUNDTRIP_ALLOWED_ORIGINS),
    publicUrl: publicUrlOf(settingOf(flags.publicUrl, env.ROUNDTRIP_PUBLIC_URL)),
    insecureNoAuth: insecureOf(flags.insecureNoAuth, env.ROUNDTRIP_INSECURE_NO_AUTH),
    drainTimeoutMs: drainTimeoutOf(env.ROUNDTRIP_DRAIN_TIMEOUT_MS),
    instance: instanceOf(env.ROUNDTRIP_INSTANCE),
  };
}

/** The endpoint's URL on this machine, e.g. `http://127.0.0.1:3000/mcp` (a wildcard bind is reached at 127.0.0.1). */
export function localEndpoint(address: ListenAddress): URL {
  const host = isWildcardHost(address.host) ? '127.0.0.1' : hostForUrl(address.host);
  return new URL(`http://${host}:${address.port}/mcp`);
}

/**
 * The resource identifier the metadata and every 401 name: the public URL when given, else the
 * tokens' audience when it is an http(s) URL, else the local endpoint, which only a loopback or specific
 * address can stand for: behind a wildcard bind clients come from elsewhere, so the public URL is asked for.
 */
export function resourceOf(settings: HttpSettings, address: ListenAddress): URL {
  if (settings.publicUrl) return settings.publicUrl;
  const audience = settings.jwt?.audience ?? '';
  if (/^https?:\/\//i.test(audience) && URL.canParse(audience)) return new URL(audience);
  if (isWildcardHost(address.host) && settings.jwt !== undefined) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_PUBLIC_URL',
      `the audience ${JSON.stringify(audience)} is not a URL and the server listens on every address, so clients cannot be told where ` +
        'this resource is: give --public-url (ROUNDTRIP_PUBLIC_URL), the URL they reach the MCP endpoint at, e.g. https://mcp.example.com/mcp',
      { code: 'missing' },
    );
  }
  return localEndpoint(address);
}

/** The Host names allowed: the operator's, plus the public URL's host (a proxy that keeps it forwards it as is). */
export function allowedHostsOf(settings: HttpSettings, resource: URL): string[] {
  const hosts = [...settings.allowedHosts];
  if (!isLoopbackHost(resource.hostname) && !hosts.includes(resource.hostname)) hosts.push(resource.hostname);
  return hosts;
}
