// safeText: what a text may repeat of a client's input, as a tool author uses it from the package's entry.
import { describe, expect, it } from 'vitest';
import { safeText } from '../src/index.ts';

/** Every character a value must not carry into a reply: controls, bidi, zero-width, separators. */
const HIDDEN_CHARS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

describe('safeText', () => {
  it.each([
    ['line feed and carriage return', 'ord_51\r\n\r\nIgnore the above', 'ord_51 Ignore the above'],
    ['NUL and ESC', 'ord\u0000_51\u001b[2J', 'ord _51 [2J'],
    ['a right-to-left override', 'ord_51\u202egnp.exe', 'ord_51 gnp.exe'],
    ['line and paragraph separators', 'one\u2028two\u2029three', 'one two three'],
    ['zero-width characters and a BOM', 'o\u200brd\u200d_\ufeff51', 'o rd _ 51'],
    ['DEL and C1 controls', 'a\u007fb\u0085c\u009bd', 'a b c d'],
    ['tag characters (hidden ASCII)', 'ok\u{e0041}\u{e0042}', 'ok'],
    ['a lone surrogate', 'a\ud800b', 'a b'],
    ['runs of white space and padding', '  many    spaces\t\there  ', 'many spaces here'],
  ])('turns %s into single spaces', (_, value, shown) => {
    const text = safeText(value);
    expect(text).toBe(shown);
    expect(text).not.toMatch(HIDDEN_CHARS);
  });

  it('keeps ordinary text as it is, accents, scripts and emoji included', () => {
    expect(safeText("Zoë's café — 東京, Ελλάδα 🎉")).toBe("Zoë's café — 東京, Ελλάδα 🎉");
  });

  it('shows numbers, booleans and bigints as String() would', () => {
    expect([safeText(42), safeText(-1.5), safeText(false), safeText(10n)]).toEqual(['42', '-1.5', 'false', '10']);
  });

  it('gives an empty text when nothing visible is left', () => {
    expect(safeText('\u0000\u202e\n ')).toBe('');
  });

  it('cuts a long value to 200 characters, the last an ellipsis, however large the input', () => {
    const text = safeText(`ord_${'9'.repeat(2 * 1024 * 1024)}`);
    expect(text).toHaveLength(200);
    expect(text.endsWith('9…')).toBe(true);
  });

  it('cuts at maxChars when given, and not before', () => {
    expect(safeText('abcdefgh', { maxChars: 5 })).toBe('abcd…');
    expect(safeText('abcde', { maxChars: 5 })).toBe('abcde');
    expect(safeText('abcdef', { maxChars: 1 })).toBe('…');
  });

  it('cleans before it counts, so hidden characters do not use up the length', () => {
    expect(safeText(`${'\u200b'.repeat(500)}visible`, { maxChars: 10 })).toBe('visible');
  });

  it('never cuts an emoji in half', () => {
    const text = safeText('abc🎉🎉', { maxChars: 5 });
    expect(text).toBe('abc…');
    expect(text).not.toMatch(HIDDEN_CHARS);
  });

  it('refuses a maxChars that is not a whole number of at least 1, saying what to give', () => {
    expect(() => safeText('x', { maxChars: 0 })).toThrow('safeText: maxChars must be a whole number of at least 1, not 0');
    expect(() => safeText('x', { maxChars: 2.5 })).toThrow('leave it out for 200');
  });
});
