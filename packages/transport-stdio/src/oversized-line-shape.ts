// What can be told about a JSON-RPC line too large to keep, from its first and last few KiB: the
// top-level keys near its start and its request id (near the start, or last before the closing brace,
// where the official SDK clients put it).

/** Request ids longer than this are not repeated back: a reply never echoes input unbounded. */
const MAX_ECHOED_ID_CHARS = 200;

export type RequestId = string | number;

export interface OversizedLineShape {
  /** The request id, when one was found and is a valid JSON-RPC id (a string up to 200 characters or an integer). */
  id: RequestId | undefined;
  /** What the line looks like: a request (`method` and `id`), a notification (`method`, no `id`), a response (`result` or `error`), or unknown. */
  kind: 'request' | 'notification' | 'response' | 'unknown';
}

/** A valid id to answer with, or undefined. */
export function requestIdOf(value: unknown): RequestId | undefined {
  if (typeof value === 'string') return value.length <= MAX_ECHOED_ID_CHARS ? value : undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  return undefined;
}

/**
 * The top-level keys (and the value of `id`) found in `head`, the start of a JSON object: scans
 * strings and nesting only, stops where the head ends. Values other than `id` are skipped.
 */
function scanHead(head: string): { keys: Set<string>; id: RequestId | undefined } {
  const keys = new Set<string>();
  let id: RequestId | undefined;
  let depth = 0;
  let expectKey = false;
  let i = head.indexOf('{');
  if (i < 0) return { keys, id };
  for (; i < head.length; i++) {
    const c = head[i];
    if (c === '"') {
      const end = stringEnd(head, i);
      if (end < 0) break;
      if (depth === 1 && expectKey) {
        const key = safeParse(head.slice(i, end + 1));
        if (typeof key === 'string') {
          keys.add(key);
          if (key === 'id') id = requestIdOf(safeParse(valueAfterColon(head, end + 1)));
        }
        expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      depth++;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth <= 0) break;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
  }
  return { keys, id };
}

/** The index of the quote closing the string that opens at `start`, or -1 when the text ends first. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** The JSON scalar after `:` at `from` (a number or a string), as text; empty when there is none. */
function valueAfterColon(text: string, from: number): string {
  const match = /^\s*:\s*(-?\d{1,16}(?![\d.eE])|"(?:[^"\\]|\\.){0,400}")/.exec(text.slice(from, from + 500));
  return match?.[1] ?? '';
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// `"id": <number or string>` as the last member, right before the object's closing brace
const TRAILING_ID = /[,{]\s*"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,400}")\s*\}\s*$/;

/**
 * Tells what it can about a line too large to keep from its first bytes (`head`) and its last bytes
 * (`tail`, of the same line; may overlap the head when the line is short). Never throws.
 *
 * @example
 * oversizedLineShape('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"xxxx', 'xxxx"}}') // { id: 7, kind: 'request' }
 */
export function oversizedLineShape(head: string, tail: string): OversizedLineShape {
  const scanned = scanHead(head);
  let id = scanned.id;
  if (id === undefined) {
    const trailing = TRAILING_ID.exec(tail);
    if (trailing?.[1] !== undefined) id = requestIdOf(safeParse(trailing[1]));
  }
  const keys = scanned.keys;
  if (keys.has('result') || keys.has('error')) return { id, kind: 'response' };
  if (keys.has('method')) return { id, kind: id === undefined ? 'notification' : 'request' };
  return { id, kind: 'unknown' };
}
