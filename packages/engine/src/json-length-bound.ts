// A quick upper bound on how long a value's JSON is, for the size checks of an answer: most answers are a
// few small fields, which this proves short without writing them out as JSON.

const MAX_DEPTH = 32;
// the longest text of a JS number in JSON ("-1.2345678901234567e-308" has 24 characters)
const NUMBER_CHARS = 24;
// a character of a string takes at most 6 in JSON (\u001f); its quotes take 2
const stringBound = (text: string) => 2 + 6 * text.length;

/**
 * Whether `JSON.stringify(value ?? null)` is certainly at most `limit` characters long. False when it is
 * longer, or when this cannot tell cheaply (anything but plain objects, arrays, strings, finite numbers,
 * booleans and null, such as a `toJSON`, a Date or a BigInt, or nesting deeper than 32): measure it then.
 */
export function jsonWithin(value: unknown, limit: number): boolean {
  try {
    return bound(value ?? null, limit, 0) <= limit;
  } catch {
    // a getter that throws: JSON.stringify throws there too, which the caller's own measure reports
    return false;
  }
}

/** An upper bound on the JSON length of `value`, or more than `budget` once it is past it or cannot tell. */
function bound(value: unknown, budget: number, depth: number): number {
  const over = budget + 1;
  switch (typeof value) {
    case 'string':
      return stringBound(value);
    case 'number':
      return Number.isFinite(value) ? NUMBER_CHARS : over;
    case 'boolean':
      return 5;
    case 'object':
      break;
    default:
      return over;
  }
  if (value === null) return 4;
  if (depth >= MAX_DEPTH) return over;
  // JSON.stringify writes what a toJSON returns (even one an object inherits): not measured here
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return over;
  let size = 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      // an undefined element is written as null
      size += 1 + (value[i] === undefined ? 4 : bound(value[i], budget - size, depth + 1));
      if (size > budget) return over;
    }
    return size;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return over;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const member = record[key];
    // an undefined member is left out; a function member (a toJSON among them) is not measured here
    if (member === undefined) continue;
    size += stringBound(key) + 2 + bound(member, budget - size, depth + 1);
    if (size > budget) return over;
  }
  return size;
}
