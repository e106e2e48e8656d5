/**
 * A host name or IPv4 address (letters, digits, `-`, `_` and dots), or an IPv6 address in brackets,
 * then an optional port: what a `Host` header holds (RFC 9110 §7.2), and nothing a URL would read more
 * into. `evil.com@localhost` (user info), `localhost/evil`, `localhost?evil` and `localhost#evil` are not
 * plain: read as URLs they name `localhost`, so the Host check must refuse them rather than compare that.
 */
const PLAIN_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_][A-Za-z0-9_.-]*)(?::(\d{1,5}))?$/;

/** Whether a `Host` header is a plain `host[:port]` (see {@link PLAIN_HOST}), with a port up to 65535, that a URL can hold. */
export function isPlainHost(value: string): boolean {
  const match = PLAIN_HOST.exec(value);
  if (match === null) return false;
  if (match[1] !== undefined && Number(match[1]) > 65535) return false;
  return URL.canParse(`http://${value}`);
}
