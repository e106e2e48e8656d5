// What a client sent, as an answer to it repeats it: cut at 120 characters (the rest counted), as every other
// answer of Roundtrip cuts an unknown tool name or a resource URI. The SDK's own refusals (a header that
// disagrees with the body, -32020; an unsupported protocol version, -32022) and the Host and Origin check's
// 403 repeat header and body values in full, in the message and again in `data`: those values are found in
// the request and cut wherever the answer repeats them.
import { safeText } from '@roundtrip/engine';

/** The longest client string an answer repeats, as the engine's answers cut them. */
const MAX_ECHO_CHARS = 120;
/** Any string of an error answer longer than this is cut whole: an echo no value of the request matched. */
const MAX_ERROR_TEXT_CHARS = 1000;
/** How many values of a body are looked at for echoes (a body of a million strings is not walked whole). */
const MAX_BODY_VALUES = 10_000;

/** A client string as an answer may repeat it: one line of safe text, at most `max` characters, the rest counted. */
export function clipped(text: string, max = MAX_ECHO_CHARS): string {
  const shown = safeText(text.slice(0, max), { maxChars: max });
  return text.length > max ? `${shown}… (${text.length - max} more characters)` : shown;
}

/** `=?base64?…?=`: how MCP headers carry a value that is not plain ASCII; the SDK repeats it decoded. */
function decodedSentinel(value: string): string | undefined {
  const match = /^=\?base64\?([A-Za-z0-9+/=_-]*)\?=$/i.exec(value.trim());
  if (!match) return undefined;
  try {
    const binary = atob(match[1]!.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** Adds `value` and the forms an answer may repeat it in (trimmed, JSON-escaped) when it is long enough to be cut. */
function addForms(found: Set<string>, value: string): void {
  for (const form of [value, value.trim(), JSON.stringify(value).slice(1, -1)]) {
    if (form.length > MAX_ECHO_CHARS) found.add(form);
  }
}

/**
 * The strings of a request an answer must not repeat in full: every header value (and what a base64
 * sentinel decodes to) and every string of the parsed body, keys included, longer than 120 characters.
 */
function longClientStrings(headers: Headers, body: unknown): string[] {
  const found = new Set<string>();
  headers.forEach((value) => {
    addForms(found, value);
    const decoded = decodedSentinel(value);
    if (decoded !== undefined) addForms(found, decoded);
  });
  const pending: unknown[] = [body];
  for (let seen = 0; pending.length > 0 && seen < MAX_BODY_VALUES; seen += 1) {
    const value = pending.pop();
    if (typeof value === 'string') addForms(found, value);
    else if (Array.isArray(value)) pending.push(...value);
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        addForms(found, key);
        pending.push(item);
      }
    }
  }
  // the longest first: a value that holds another is cut whole
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every occurrence of the client strings (the longest first) cut, and cut whole if it is
 * still longer than any answer needs; strings of up to 120 characters are shown as they are.
 */
export function withEchoesCut(text: string, strings: readonly string[]): string {
  let result = text;
  for (const value of strings) {
    if (value.length > MAX_ECHO_CHARS && result.includes(value)) result = result.split(value).join(clipped(value));
  }
  return result.length > MAX_ERROR_TEXT_CHARS ? clipped(result, MAX_ERROR_TEXT_CHARS) : result;
}

function cutDeep(value: unknown, strings: readonly string[]): unknown {
  if (typeof value === 'string') return withEchoesCut(value, strings);
  if (Array.isArray(value)) return value.map((item) => cutDeep(item, strings));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutDeep(item, strings)]));
  }
  return value;
}

/**
 * A JSON-RPC error answer (status 400 to 499, JSON) with the client strings it repeats cut in its
 * `error.message` and `error.data` (the `id` is the request's own, and stays as it came); any other
 * answer as it is. Cutting needs the body read: the answer is remade with the same status and headers.
 */
export async function withClientEchoesCut(response: Response, request: Request, body: unknown): Promise<Response> {
  if (response.status < 400 || response.status > 499 || !response.headers.get('content-type')?.startsWith('application/json')) {
    return response;
  }
  const text = await response.text();
  const remade = (content: string) => {
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(content, { status: response.status, statusText: response.statusText, headers });
  };
  let answer: { error?: { message?: unknown; data?: unknown } };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    return remade(text);
  }
  const { error } = answer;
  if (error === null || typeof error !== 'object') return remade(text);
  const strings = longClientStrings(request.headers, body);
  if (typeof error.message === 'string') error.message = withEchoesCut(error.message, strings);
  if (error.data !== undefined) error.data = cutDeep(error.data, strings);
  return remade(JSON.stringify(answer));
}
