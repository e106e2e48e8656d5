// Text for the SVG drawing: one clean line, cut to a length, escaped for XML, and measured without a
// browser (the drawing uses a monospace font, so the width is the character count times a fixed advance).

// Characters XML 1.0 does not allow, plus controls, bidi overrides and zero-width characters: a label
// must neither break the document nor reorder or hide the text around it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing controls is what it is for
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]+/g;
// lone surrogates are not characters at all: an XML parser refuses them
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// East Asian wide and fullwidth ranges take two cells of a monospace font
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;

/** The font every text of the drawing uses; its advance is at most 0.61 em in the fonts listed. */
export const FONT_FAMILY = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";
const ADVANCE_EM = 0.61;

/** `text` as one line: hidden characters and line breaks become spaces, runs of spaces one space. */
export function oneLine(text: string): string {
  return text.replace(HIDDEN, ' ').replace(LONE_SURROGATE, '\ufffd').replace(/\s+/g, ' ').trim();
}

/** `text` (one line) cut to at most `max` characters, the last one an ellipsis when it was cut. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}

/** The width of `text` in a monospace font of `size` pixels, wide characters counted twice. */
export function textWidth(text: string, size: number): number {
  let cells = 0;
  for (const char of text) cells += WIDE.test(char) ? 2 : 1;
  return cells * size * ADVANCE_EM;
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `text` safe inside an XML element or a quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** A coordinate as the drawing writes it: one decimal at most, never `-0`. */
export function num(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return String(rounded === 0 ? 0 : rounded);
}
