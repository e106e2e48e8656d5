import { localhostAllowedHostnames, localhostAllowedOrigins, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { RoundtripConfigError } from '@roundtrip/mcp';
import { withEchoesCut } from './client-echo.ts';
import { jsonRpcErrorResponse, repeatedHeaderResponse } from './http-responses.ts';
import { hostForUrl, isLoopbackHost, isWildcardHost } from './loopback-host.ts';
import { isPlainHost } from './plain-host.ts';
import type { RequestHead } from './request-head.ts';

/** Whom, besides this machine, the server answers. */
export interface HostOriginOptions {
  /**
   * Host names (no scheme, no port; IPv6 in brackets or not) clients may address this server by, beside
   * `localhost`, `127.0.0.1` and `[::1]`: the public name of a server bound to `0.0.0.0`, say.
   */
  allowedHosts?: string[];
  /**
   * Host names of browser pages (their `Origin`) that may call this server, beside pages served from
   * `localhost`, `127.0.0.1` and `[::1]`. A `<scheme>://*` entry such as `moz-extension://*` allows every
   * origin of a non-web scheme, as the SDK defines. Requests without an Origin (every non-browser client) pass.
   */
  allowedOrigins?: string[];
  /** The address the server binds: a specific one (not loopback, not a wildcard) is allowed as a Host too. */
  bindHost?: string;
  /**
   * How the operator sets the two allow-lists, named in refusal reasons and configuration errors, e.g.
   * `--allowed-hosts (ROUNDTRIP_ALLOWED_HOSTS)`. @defaultValue `allowedHosts` and `allowedOrigins`
   */
  settingNames?: { allowedHosts: string; allowedOrigins: string };
}

/**
 * A request let through, or refused with the answer the client gets (400 for a Host header that is
 * missing or not a plain `host[:port]`, 403 for a name or page not allowed) and the reason the operator's log gets.
 */
export type HostOriginVerdict = { ok: true } | { ok: false; response: Response; reason: string };

/** An allow-list entry as the SDK compares it: a lower-case host name, IPv6 in brackets; else a config error. */
function hostnameEntry(entry: string, option: string): string {
  const name = hostForUrl(entry.trim().toLowerCase());
  const parsed = URL.canParse(`http://${name}`) ? new URL(`http://${name}`) : undefined;
  if (name === '' || parsed === undefined || parsed.hostname !== name || parsed.port !== '' || parsed.username !== '') {
    throw new RoundtripConfigError(
      option,
      `${option}: ${JSON.stringify(entry)} is not a host name; give the name alone, without scheme, port or path (e.g. mcp.example.com)`,
    );
  }
  return name;
}

function originEntry(entry: string, option: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/\*$/.test(entry.trim()) ? entry.trim() : hostnameEntry(entry, option);
}

function quoted(value: string | null): string {
  return value === null ? 'none' : JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}

/**
 * The SDK's refusal of a Host or Origin: 403 with a JSON-RPC error naming what was wrong (the name it
 * repeats cut, as every client string an answer repeats).
 */
const forbidden = (message: string, echoes: Array<string | null | undefined>) =>
  jsonRpcErrorResponse(
    403,
    -32000,
    withEchoesCut(
      message,
      echoes.filter((echo): echo is string => typeof echo === 'string').sort((a, b) => b.length - a.length),
    ),
  );

/**
 * Why a Host header is refused before its name is looked at, or `undefined` when it is a plain
 * `host[:port]` (RFC 9112 §3.2: a missing, repeated or malformed Host is a bad request). A header sent
 * twice arrives joined by a comma (the Node listener joins the ones node:http would drop).
 */
function malformedHost(host: string | null): HostOriginVerdict | undefined {
  if (host !== null && isPlainHost(host)) return undefined;
  if (host === null || host === '') {
    return {
      ok: false,
      response: jsonRpcErrorResponse(
        400,
        -32000,
        'Bad Request: no Host header. Send the name and port this server is reached at, e.g. Host: localhost:3000.',
      ),
      reason: 'request refused: no Host header (HTTP/1.1 requires one; a proxy in front of this server must pass it on)',
    };
  }
  const several = host.includes(',');
  return {
    ok: false,
    response: several
      ? repeatedHeaderResponse('Host')
      : jsonRpcErrorResponse(
          400,
          -32000,
          'Bad Request: the Host header must be a plain host[:port], e.g. localhost:3000: no user info, path, query or fragment.',
        ),
    reason: several
      ? `request refused: Host ${quoted(host)} holds several values (the header was sent more than once)`
      : `request refused: Host ${quoted(host)} is not a plain host[:port]`,
  };
}

/**
 * A check of every request's `Host` and `Origin` headers, before anything else reads it. First the
 * form: a Host that is missing, sent twice, or not a plain `host[:port]` (user info, a path, a query or a
 * fragment, which a URL would read past to another name) is a bad request, 400. Then the DNS
 * rebinding and cross-site protection the MCP transport specification asks of a server, done by the
 * SDK's `validateHostHeader` and `validateOriginHeader` (host names compared without the port), the
 * refusal the 403 its `hostHeaderValidationResponse` and `originValidationResponse` give. It reads the
 * headers alone: a web `Request` will do, or any {@link RequestHead}. By default only names of this machine pass; the allow-lists add to them. Throws an
 * {@link RoundtripConfigError} at once for an allow-list entry that is not a host name.
 *
 * @example
 * ```ts
 * const checkHostAndOrigin = createHostOriginCheck({ allowedHosts: ['mcp.example.com'] });
 * const verdict = checkHostAndOrigin(request);
 * if (!verdict.ok) {
 *   log.warn(verdict.reason);
 *   return verdict.response;
 * }
 * ```
 */
export function createHostOriginCheck(options: HostOriginOptions = {}): (request: RequestHead) => HostOriginVerdict {
  const names = options.settingNames ?? { allowedHosts: 'allowedHosts', allowedOrigins: 'allowedOrigins' };
  const hosts = new Set(localhostAllowedHostnames());
  for (const entry of options.allowedHosts ?? []) hosts.add(hostnameEntry(entry, names.allowedHosts));
  const bindHost = options.bindHost?.trim();
  if (bindHost !== undefined && bindHost !== '' && !isWildcardHost(bindHost) && !isLoopbackHost(bindHost)) {
    hosts.add(hostnameEntry(bindHost, 'bindHost'));
  }
  const origins = new Set(localhostAllowedOrigins());
  for (const entry of options.allowedOrigins ?? []) origins.add(originEntry(entry, names.allowedOrigins));
  const hostList = [...hosts];
  const originList = [...origins];
  /** Why the Host header is refused, or `undefined` when it passes. */
  const hostVerdict = (host: string | null): HostOriginVerdict | undefined => {
    const malformed = malformedHost(host);
    if (malformed !== undefined) return malformed;
    const verdict = validateHostHeader(host, hostList);
    if (verdict.ok) return undefined;
    return {
      ok: false,
      response: forbidden(verdict.message, [host, verdict.hostname]),
      reason:
        `request refused (DNS rebinding protection): Host ${quoted(host)} is not a name this server answers to ` +
        `(${hostList.join(', ')}); if clients reach this server by that name, add it to ${options.settingNames ? names.allowedHosts : 'the allowed hosts'}`,
    };
  };

  // the last Host let through: a client sends the same one with every request, and its verdict is the same
  // each time (three URL parses a request otherwise)
  let passedHost: string | undefined;

  return (request) => {
    const host = request.headers.get('host');
    if (host === null || host !== passedHost) {
      const refused = hostVerdict(host);
      if (refused !== undefined) return refused;
      passedHost = host ?? undefined;
    }
    const origin = request.headers.get('origin');
    const originVerdict = validateOriginHeader(origin, originList);
    if (!originVerdict.ok) {
      return {
        ok: false,
        response: forbidden(originVerdict.message, [origin, originVerdict.hostname]),
        reason:
          `request refused (cross-origin protection): a browser page from Origin ${quoted(origin)} may not call ` +
          `this server (allowed: ${originList.join(', ')}); if that page is a client you trust, add its host name to ${options.settingNames ? names.allowedOrigins : 'the allowed origins'}`,
      };
    }
    return { ok: true };
  };
}
