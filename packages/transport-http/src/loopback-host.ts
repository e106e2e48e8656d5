/**
 * Whether a host name or address only ever reaches this machine: `localhost` (and its subdomains, which
 * RFC 6761 reserves for loopback), any `127.x.x.x` address, `::1`, and the IPv4-mapped `::ffff:127.x.x.x`.
 * Brackets around an IPv6 address are allowed (`[::1]`). A wildcard (`0.0.0.0`, `::`) is not loopback:
 * it binds every interface. Other names are not resolved (this runs where there is no DNS), so they
 * count as reachable from elsewhere.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '::1' || name === '0:0:0:0:0:0:0:1') return true;
  const ipv4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ipv4);
}

/** Whether a bind address listens on every interface (`0.0.0.0`, `::`). */
export function isWildcardHost(host: string): boolean {
  const name = host.trim().replace(/^\[(.*)\]$/, '$1');
  return name === '0.0.0.0' || name === '::' || name === '0:0:0:0:0:0:0:0';
}

/** A host as it stands in a URL authority and in a Host header: an IPv6 address in brackets. */
export function hostForUrl(host: string): string {
  const name = host.trim();
  return name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
}
