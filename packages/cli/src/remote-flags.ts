// The flags that name an HTTP MCP server already running instead of one to start: `--url` and `--header`,
// read the same way by call, chat and config; and a URL as messages show it. A header's value is often a
// secret (Authorization): no message here or elsewhere repeats it, only the header's name.

export interface HeaderFlag {
  readonly name: string;
  readonly value: string;
}

export type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Headers the MCP client sets on each request itself: a value given for one would be replaced, or break the exchange. */
const SET_BY_CLIENT = new Set([
  'accept',
  'connection',
  'content-length',
  'content-type',
  'host',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'mcp-session-id',
  'transfer-encoding',
]);

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const EXAMPLE_URL = 'http://127.0.0.1:3000/mcp';

/** The address of a server reached over Streamable HTTP: http or https, with no credentials in it. */
export function readUrl(text: string | undefined): Read<URL> {
  if (text === undefined || text === '')
    return { ok: false, problem: `--url needs the address of an HTTP MCP server, e.g. --url ${EXAMPLE_URL}.` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: `--url '${text}' is not a URL: give it whole, with its scheme, e.g. --url ${EXAMPLE_URL}.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `localhost:3000/mcp` parses as the scheme `localhost:`
    if (!text.includes('://')) return { ok: false, problem: `--url '${text}' has no scheme: write it as http://${text} (or https://).` };
    return {
      ok: false,
      problem: `--url takes an http:// or https:// address (MCP over Streamable HTTP), not ${url.protocol}//; a server that runs over stdio is given as a module, or as its command after --.`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      problem:
        "--url carries credentials (user:password@ before the host), which are not sent from there: send them as a header instead, e.g. --header 'Authorization: Bearer <token>'.",
    };
  }
  return { ok: true, value: url };
}

/** One `--header 'Name: value'`; `ordinal` (1, 2 …) names it when its name cannot be shown. */
export function readHeader(text: string | undefined, ordinal: number): Read<HeaderFlag> {
  if (text === undefined) return { ok: false, problem: "--header needs 'Name: value', e.g. --header 'Authorization: Bearer <token>'." };
  const colon = text.indexOf(':');
  // neither the text nor a part of it is shown: without a name to go by, it may be all secret
  if (colon === -1)
    return {
      ok: false,
      problem: `--header number ${ordinal} is not 'Name: value' (it has no ':'); its text is not shown, as it may be a secret.`,
    };
  const name = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  if (!TOKEN.test(name)) {
    return {
      ok: false,
      problem: `--header number ${ordinal} has no header name before its ':' (a name is letters, digits and -, as in 'Authorization: Bearer <token>').`,
    };
  }
  if (SET_BY_CLIENT.has(name.toLowerCase()))
    return { ok: false, problem: `--header '${name}' is set by the MCP client itself: leave it out.` };
  if (value === '') return { ok: false, problem: `--header '${name}' has no value after its ':' (is a variable in it empty?).` };
  const scheme = /^(Bearer|Basic)$/i.exec(value)?.[1];
  if (scheme && name.toLowerCase() === 'authorization') {
    return { ok: false, problem: `--header 'Authorization' has nothing after '${scheme}' (is the variable holding the token empty?).` };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) {
    return { ok: false, problem: `--header '${name}' has a line break or a control character in its value: give the value on one line.` };
  }
  return { ok: true, value: { name, value } };
}

/** Why these headers cannot go together (one given twice), or undefined. */
export function headersProblem(headers: readonly HeaderFlag[]): string | undefined {
  const seen = new Set<string>();
  for (const { name } of headers) {
    if (seen.has(name.toLowerCase())) return `--header '${name}' is given twice: give each header once.`;
    seen.add(name.toLowerCase());
  }
  return undefined;
}

/** A URL as messages show it: scheme, host, port and path; a query, which may hold a key, as `?…`. */
export function displayUrl(url: URL): string {
  return `${url.origin}${url.pathname}${url.search === '' ? '' : '?…'}`;
}
