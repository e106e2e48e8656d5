// Which web pages may change what the inspector holds. A browser names the page behind every
// state-changing request in its Origin header; a Roundtrip server posting its rounds sends none. So a
// request other than GET or HEAD that names an origin is taken only from the inspector's own page:
// http://127.0.0.1:<port>, http://localhost:<port>, http://[::1]:<port> or the address it listens on.

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
/** Methods that only read: a page elsewhere cannot read their answers (no CORS headers are sent). */
const READING = new Set(['GET', 'HEAD']);

/** An origin as browsers write it (lower case, no default port), or undefined for one that is not a URL. */
function normalOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/** The origins of the inspector's own page, listening on `host`:`port`. */
export function ownOrigins(host: string, port: number): ReadonlySet<string> {
  const names = new Set([...LOOPBACK_NAMES, host.includes(':') && !host.startsWith('[') ? `[${host}]` : host]);
  const origins = new Set<string>();
  for (const name of names) {
    const origin = normalOrigin(`http://${name}:${port}`);
    if (origin) origins.add(origin);
  }
  return origins;
}

/**
 * Why the request is refused for the page it came from, or undefined when it is not: a state-changing
 * request whose Origin is present and not one of `own` (`Origin: null`, from a sandboxed or file page, included).
 */
export function foreignOriginProblem(
  method: string | undefined,
  origin: string | undefined,
  own: ReadonlySet<string>,
  address: string,
): string | undefined {
  if (READING.has(method ?? 'GET') || origin === undefined) return undefined;
  const normal = normalOrigin(origin);
  if (normal !== undefined && own.has(normal)) return undefined;
  const shown = origin.length > 120 ? `${origin.slice(0, 120)}…` : origin;
  return (
    `this inspector takes rounds from Roundtrip servers and its own page only, not from a web page at ${JSON.stringify(shown)}. ` +
    `Start the server with ROUNDTRIP_INSPECT=${address} (a server sends no Origin), and open the page at ${address} itself.`
  );
}
