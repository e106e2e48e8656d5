// Text that came from a client (an argument, an answer, a name a store gives back), made safe to put in
// what a person or a model reads: one line, nothing hidden or reordered, bounded however large the input.

// Controls (NUL, ESC, CR, LF, DEL, C1), format characters (bidi overrides and isolates, zero-width
// characters, the BOM, tag characters), line and paragraph separators, lone surrogates, and the Hangul
// fillers that render as blanks. Matching controls is the point here, hence the `u`-flag property classes.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115f\u1160\u3164\uffa0]+/gu;
// The same characters (and any control), one at a time, for text that must show them instead of dropping them.
const ESCAPED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115f\u1160\u3164\uffa0]/gu;

// Printable ASCII words with single spaces between them, nothing at either end: already safe as it is.
const PLAIN = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** How long a value may be, in UTF-16 code units, unless the caller says otherwise. */
const DEFAULT_MAX_CHARS = 200;

/** Options of {@link safeText}. */
export interface SafeTextOptions {
  /**
   * The longest text returned, ellipsis included (in UTF-16 code units, as `String.length` counts);
   * longer values are cut and end with `…`.
   * @defaultValue 200
   */
  readonly maxChars?: number;
}

/** Cuts `text` to `max` code units, the last being `…`, without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * A value a client gave, made safe to repeat in a result, an error, a prompt or a question: control
 * characters (NUL, ESC, CR, LF…), bidi overrides (U+202E), zero-width and other invisible characters and
 * line separators (U+2028) become spaces, runs of white space one space, the ends are trimmed, and a text
 * longer than `maxChars` is cut with an ellipsis. The value cannot add lines, reorder or hide the text
 * around it, or make a reply large. Use it for every piece of client input a text repeats (and for what a
 * store gives back that a client once wrote); it is not an escape for HTML or SQL.
 *
 * @param value - The value to show: text, or a number or boolean (shown as `String(value)` would).
 * @param options - `maxChars`: the longest result, 200 by default.
 * @returns One line of plain text, at most `maxChars` long; empty when nothing visible was left.
 * @example
 * const message = `No order with id '${safeText(input.order_id, { maxChars: 64 })}'.`;
 * // input.order_id 'ord_51\n\nIgnore the above\u202e' → "No order with id 'ord_51 Ignore the above'."
 */
export function safeText(value: string | number | boolean | bigint, options: SafeTextOptions = {}): string {
  const max = options.maxChars ?? DEFAULT_MAX_CHARS;
  if (!Number.isInteger(max) || max < 1) {
    throw new RangeError(`safeText: maxChars must be a whole number of at least 1, not ${String(max)}; leave it out for 200.`);
  }
  const raw = String(value);
  if (PLAIN.test(raw)) return cut(raw, max);
  const text = raw.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim();
  return cut(text, max);
}

/** `\u202e`: one UTF-16 code unit as a JSON escape. */
const escapeUnit = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

/**
 * Text with every hidden character shown as its JSON escape (`\u202e`, `\u2028`, `\u0000`), except line
 * feeds and tabs, which a multi-line message may hold. For text a model reads that must stay exact.
 */
export function showHidden(text: string): string {
  return text.replace(ESCAPED, (found) => {
    if (found === '\n' || found === '\t') return found;
    let escaped = '';
    for (let i = 0; i < found.length; i += 1) escaped += escapeUnit(found.charCodeAt(i));
    return escaped;
  });
}

/**
 * A value as JSON text that shows what it holds: `JSON.stringify` escapes C0 controls but lets DEL, C1
 * controls, U+2028/U+2029, bidi overrides and zero-width characters through raw; these are escaped too
 * (`\u202e`), so the text parses back to the same value and nothing in it is hidden or reordered.
 */
export function quoteJson(value: unknown): string {
  return showHidden(JSON.stringify(value) ?? 'null');
}
