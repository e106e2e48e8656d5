import { hostForUrl, isLoopbackHost } from './loopback-host.ts';

/** The address an HTTP server binds when the operator names none: this machine only. */
export const DEFAULT_BIND_HOST = '127.0.0.1';

/** What {@link decideBind} decides from. */
export interface BindRequest {
  /** The address to listen on, as the operator gave it (`127.0.0.1`, `0.0.0.0`, `::`, a name). */
  host: string;
  port: number;
  /** Whether requests must carry a bearer token that an authenticator verifies. */
  authenticated: boolean;
  /** The operator's `--insecure-no-auth`: serve a non-loopback address without authentication anyway. */
  insecureNoAuth?: boolean;
}

/**
 * Whether to start, as data. A refusal carries the message for the operator (stderr, exit status 1);
 * a start may carry a warning to log once.
 */
export type BindDecision = { ok: true; warning?: string } | { ok: false; message: string };

/**
 * The bind policy of the HTTP transport: a loopback address may be served without authentication
 * (development on one machine; the principal is then `ROUNDTRIP_PRINCIPAL`, as on stdio); any other
 * address, wildcards included, only with an authenticator, unless the operator says
 * `--insecure-no-auth`, which starts with a warning.
 *
 * @example
 * ```ts
 * const decision = decideBind({ host: '0.0.0.0', port: 3000, authenticated: false });
 * if (!decision.ok) {
 *   process.stderr.write(`${decision.message}\n`);
 *   process.exit(1);
 * }
 * ```
 */
export function decideBind(request: BindRequest): BindDecision {
  const where = `${request.host.trim() === '' ? '0.0.0.0' : hostForUrl(request.host)}:${request.port}`;
  if (request.authenticated) {
    return request.insecureNoAuth
      ? { ok: true, warning: `--insecure-no-auth is ignored on ${where}: bearer tokens are checked (--jwks, --issuer, --audience)` }
      : { ok: true };
  }
  if (isLoopbackHost(request.host)) return { ok: true };
  if (request.insecureNoAuth) {
    return {
      ok: true,
      warning:
        `serving on ${where} WITHOUT authentication (--insecure-no-auth): anyone who can reach this address can call ` +
        'every tool, as the one principal ROUNDTRIP_PRINCIPAL names. Keep it on a trusted network.',
    };
  }
  return {
    ok: false,
    message:
      `refusing to serve on ${where} without authentication: anyone who can reach it could call every tool, ` +
      'as the one principal ROUNDTRIP_PRINCIPAL names. ' +
      'Set --jwks, --issuer and --audience (ROUNDTRIP_JWKS, ROUNDTRIP_ISSUER, ROUNDTRIP_AUDIENCE) to accept only ' +
      `tokens from your authorization server, bind ${DEFAULT_BIND_HOST} (the default) to serve this machine only, ` +
      'or, for a trusted network only, --insecure-no-auth.',
  };
}
