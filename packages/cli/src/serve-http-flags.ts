// The flags of `roundtrip serve … --http [host:]port`: where to listen, the bearer authentication, the
// allow-lists, the public URL and --insecure-no-auth. Taken out of serve's arguments before the rest is
// read, so that config, call and chat (which know nothing of HTTP) never see them. Nothing here loads
// the HTTP transport: it is imported only when --http is given.

/** What `--http` and its companions say; each wins over its variable when the server starts. */
export interface HttpServeFlags {
  /** `[host:]port`, as given. */
  readonly listen: string;
  readonly jwks?: string;
  readonly issuer?: string;
  readonly audience?: string;
  readonly typ?: string;
  readonly allowedHosts?: string;
  readonly allowedOrigins?: string;
  readonly publicUrl?: string;
  readonly insecureNoAuth: boolean;
}

type ValueFlag = '--http' | '--jwks' | '--issuer' | '--audience' | '--jwt-typ' | '--allowed-hosts' | '--allowed-origins' | '--public-url';

const VALUE_FLAGS: Record<ValueFlag, { key: Exclude<keyof HttpServeFlags, 'insecureNoAuth'>; what: string }> = {
  '--http': { key: 'listen', what: 'the address to listen on, [host:]port, e.g. 3000 or 127.0.0.1:3000' },
  '--jwks': { key: 'jwks', what: "the https URL of your authorization server's JWKS, or a file of its public keys" },
  '--issuer': { key: 'issuer', what: "your authorization server's issuer URL, as the tokens' iss has it" },
  '--audience': { key: 'audience', what: "this server's resource identifier, the aud of its tokens" },
  '--jwt-typ': { key: 'typ', what: 'the typ header every token must carry, e.g. at+jwt' },
  '--allowed-hosts': { key: 'allowedHosts', what: 'the host names clients reach this server by, comma-separated' },
  '--allowed-origins': { key: 'allowedOrigins', what: 'the host names of browser pages that may call this server, comma-separated' },
  '--public-url': { key: 'publicUrl', what: 'the URL clients reach the MCP endpoint at, e.g. https://mcp.example.com/mcp' },
};
const INSECURE = '--insecure-no-auth';

/** Every HTTP flag of serve, for "did you mean". */
export const SERVE_HTTP_FLAGS: readonly string[] = [...Object.keys(VALUE_FLAGS), INSECURE];

/** The help lines of the HTTP flags. */
export const SERVE_HTTP_FLAGS_HELP = `  --http [host:]port         serve over Streamable HTTP at /mcp instead of stdio (host: 127.0.0.1 by default)
  --jwks <url|file>          accept bearer tokens signed by these keys (ROUNDTRIP_JWKS), with:
  --issuer <url>             the tokens' issuer (ROUNDTRIP_ISSUER)
  --audience <id>            the tokens' audience, this server's resource identifier (ROUNDTRIP_AUDIENCE)
  --jwt-typ <typ>            the typ header every token must carry, e.g. at+jwt (ROUNDTRIP_JWT_TYP; default: not checked)
  --public-url <url>         the URL clients reach /mcp at, behind a proxy (ROUNDTRIP_PUBLIC_URL; default: the audience)
  --allowed-hosts <names>    Host names answered besides this machine's, comma-separated (ROUNDTRIP_ALLOWED_HOSTS)
  --allowed-origins <names>  browser page origins allowed, comma-separated (ROUNDTRIP_ALLOWED_ORIGINS)
  --insecure-no-auth         serve an address other than loopback without authentication (trusted networks only)`;

/**
 * Takes the HTTP flags out of serve's arguments: the rest, and what they say (undefined without
 * `--http`). The problem as text when one has no value, or is given without `--http`.
 */
export function takeHttpFlags(args: readonly string[]): { rest: string[]; http: HttpServeFlags | undefined } | string {
  const rest: string[] = [];
  const given: { -readonly [K in keyof HttpServeFlags]?: HttpServeFlags[K] } = {};
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const equals = arg.indexOf('=');
    const flag = equals > 0 ? arg.slice(0, equals) : arg;
    if (flag === INSECURE) {
      if (equals > 0) return `${INSECURE} takes no value.`;
      given.insecureNoAuth = true;
      named.push(flag);
      continue;
    }
    const spec = Object.hasOwn(VALUE_FLAGS, flag) ? VALUE_FLAGS[flag as ValueFlag] : undefined;
    if (spec === undefined) {
      rest.push(arg);
      continue;
    }
    const value = equals > 0 ? arg.slice(equals + 1) : args[i + 1];
    if (value === undefined || value.trim() === '' || (equals < 0 && value.startsWith('--'))) return `${flag} needs ${spec.what}.`;
    if (equals < 0) i++;
    given[spec.key] = value;
    named.push(flag);
  }
  if (given.listen === undefined) {
    const first = named[0];
    if (first === undefined) return { rest, http: undefined };
    return `${first} is for serving over HTTP: add --http [host:]port (over stdio the host starts the server itself, and no token or Host header comes with its requests).`;
  }
  return { rest, http: { ...given, listen: given.listen, insecureNoAuth: given.insecureNoAuth ?? false } };
}
