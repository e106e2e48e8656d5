// Text that came from a server (results, messages, titles, names, errors, its log), made safe to show at
// a terminal: a server must not set the terminal's title (ESC ] 0 ; … BEL), clear the screen (ESC [ 2 J),
// overwrite a line (CR), reverse it (U+202E) or hide text in it (zero-width characters). Every control
// (C0, DEL, C1), every format character (bidi embeddings, overrides, isolates and marks; zero-width
// spaces and joiners; the BOM; tag characters) and the line and paragraph separators are shown as visible
// escapes (`\x1b`, `\r`, `\u202e`, `\u{e0041}`), as the server escapes its own log. Multi-line text keeps
// its new lines and tabs; a zero-width joiner inside an emoji sequence (woman ZWJ laptop) is kept too.
// So that the server cannot fake an escape, a backslash it sends is doubled where it would otherwise read
// as one (`\x1b` sent as text shows `\\x1b`; an ESC shows `\x1b`); elsewhere (`C:\Users`) it stays as it is.

const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const ZERO_WIDTH_JOINER = '\u200d';
const EMOJI_BEFORE = /\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0)!;
  const hex = code.toString(16);
  if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
}

/** Whether the joiner at `at` joins two emoji: part of one pictogram, not a hidden character. */
const joinsEmoji = (text: string, at: number) =>
  EMOJI_BEFORE.test(text.slice(Math.max(0, at - 4), at)) && EMOJI_AFTER.test(text.slice(at + 1, at + 3));

const UNSAFE_OR_BACKSLASH = /[\p{Cc}\p{Cf}\u2028\u2029\\]/gu;
const UNSAFE_CHAR = /^[\p{Cc}\p{Cf}\u2028\u2029]$/u;
/** What follows the backslash of an escape shown: its letter, or a backslash (a doubled one). */
const AFTER_BACKSLASH = /^[xunrt\\]$/;

type Keep = (char: string, at: number) => boolean;

/**
 * Whether the server's backslash at `at` would read as an escape with what is shown after it: a letter of
 * one (`x`, `u`, `n`, `r`, `t`), a backslash, or a character shown escaped. Such a backslash is doubled.
 */
function readsAsEscape(text: string, at: number, keep: Keep): boolean {
  const code = text.codePointAt(at + 1);
  if (code === undefined) return false;
  const next = String.fromCodePoint(code);
  return AFTER_BACKSLASH.test(next) || (UNSAFE_CHAR.test(next) && !keep(next, at + 1));
}

function escapeUnsafe(text: string, keep: Keep): string {
  return text.replace(UNSAFE_OR_BACKSLASH, (char: string, at: number) => {
    if (char === '\\') return readsAsEscape(text, at, keep) ? '\\\\' : char;
    return keep(char, at) ? char : escapeOne(char);
  });
}

/** One line of a server's text (a name, a title, a URI, a log line): nothing in it starts a new line. */
export function displayLine(text: string): string {
  return escapeUnsafe(text, (char, at) => char === ZERO_WIDTH_JOINER && joinsEmoji(text, at));
}

/** A server's text that may span lines (a result, a message, a description): new lines and tabs kept, CR only before LF. */
export function displayText(text: string): string {
  return escapeUnsafe(
    text,
    (char, at) =>
      char === '\n' || char === '\t' || (char === '\r' && text[at + 1] === '\n') || (char === ZERO_WIDTH_JOINER && joinsEmoji(text, at)),
  );
}

/** A server's value as indented JSON that stays JSON: unsafe characters inside strings written as `\uXXXX`. */
export function displayJson(value: unknown): string {
  const json = JSON.stringify(value, null, 2) ?? String(value);
  // JSON.stringify escapes the C0 controls in strings: a new line left is the indentation's
  return json.replace(UNSAFE, (char: string) =>
    char === '\n' ? char : [...Array(char.length).keys()].map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}
