// JSON written as a TypeScript literal the way the repository's formatter (Biome, 2 spaces, width 140,
// single quotes, trailing commas) writes it, so a generated file passes `biome check` unchanged: an
// object or array on one line when it fits, keys unquoted when they are identifiers.

const WIDTH = 140;
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/** A string literal: single quotes unless the text holds more single than double quotes. */
export function quote(text: string): string {
  const singles = text.split("'").length;
  const doubles = text.split('"').length;
  const q = singles > doubles ? '"' : "'";
  // JSON's escapes (\\, \n, \u0000…), with the quote escaped by the one chosen
  const inner = JSON.stringify(text)
    .slice(1, -1)
    .replace(/\\(.)|['"]/g, (match: string, escaped: string | undefined) => {
      if (escaped === undefined) return match === q ? `\\${q}` : match;
      return escaped === '"' && q === "'" ? '"' : match;
    });
  return `${q}${inner}${q}`;
}

export const propertyKey = (key: string): string => (IDENTIFIER.test(key) ? key : quote(key));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function numberText(value: number): string {
  return Number.isFinite(value) ? String(value).replace('e+', 'e') : 'null';
}

/** The value on one line. */
function flat(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(flat).join(', ')}]`;
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${propertyKey(k)}: ${flat(v)}`).join(', ')} }`;
  }
  return 'null';
}

// the formatter always breaks an array of several objects (or arrays) that each hold more than one
// entry, and with it everything around it
function mustBreak(value: unknown): boolean {
  if (Array.isArray(value)) {
    const several = value.length > 1;
    if (several && value.every((item) => isObject(item) && Object.keys(item).length > 1)) return true;
    if (several && value.every((item) => Array.isArray(item) && item.length > 1)) return true;
    return value.some(mustBreak);
  }
  return isObject(value) && Object.values(value).some(mustBreak);
}

/**
 * `value` written at `indent` spaces, after `lead` characters already on its first line and followed by
 * `tail` characters (`,` inside a broken object or array): the lines, the first without indentation.
 */
function lines(value: unknown, indent: number, lead: number, tail: number): string[] {
  const one = flat(value);
  const composite = Array.isArray(value) || isObject(value);
  if (!composite || one === '[]' || one === '{}') return [one];
  if (indent + lead + one.length + tail <= WIDTH && !mustBreak(value)) return [one];
  const pad = ' '.repeat(indent + 2);
  const out: string[] = [Array.isArray(value) ? '[' : '{'];
  if (Array.isArray(value)) {
    for (const item of value) {
      const [first = '', ...rest] = lines(item, indent + 2, 0, 1);
      out.push(`${pad}${first}`, ...rest);
      out[out.length - 1] += ',';
    }
  } else {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (item === undefined) continue;
      out.push(...property(propertyKey(key), item, indent + 2));
    }
  }
  out.push(`${' '.repeat(indent)}${Array.isArray(value) ? ']' : '}'}`);
  return out;
}

/**
 * `key: value,` at `indent`. A string too long for the line moves to the next one, as the formatter does,
 * unless the key is shorter than 5 characters (too little would be gained).
 */
function property(key: string, value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const lead = key.length + 2;
  if (typeof value === 'string' && key.length >= 5 && indent + lead + quote(value).length + 1 > WIDTH)
    return [`${pad}${key}:`, `${pad}  ${quote(value)},`];
  const [first = '', ...rest] = lines(value, indent, lead, 1);
  const out = [`${pad}${key}: ${first}`, ...rest];
  out[out.length - 1] += ',';
  return out;
}

/** An object literal written from column `indent` (its `{` already placed), as the formatter would write it broken. */
export function objectLiteral(value: Readonly<Record<string, unknown>>, indent: number): string {
  const body = Object.entries(value).flatMap(([key, item]) => (item === undefined ? [] : property(propertyKey(key), item, indent + 2)));
  return body.length === 0 ? '{}' : ['{', ...body, `${' '.repeat(indent)}}`].join('\n');
}
