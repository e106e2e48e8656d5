// Message templates of declared flows: `{{input.topic}}` and `{{form.field}}`, filled with values made safe
// for where they go. No code runs in a template; a value cannot add lines, controls or markup of its own.

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const PATH = /^[A-Za-z][A-Za-z0-9_]*\.[A-Za-z][A-Za-z0-9_]*$/;
// C0/C1 controls, bidi overrides and zero-width characters: a value must not reorder or hide the text around it.
// Matching control characters is the point here, so this one regex is exempt from the lint rule.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing controls is what it is for
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g;
const MAX_VALUE_CHARS = 200;

/** Shown for a placeholder whose answer was not given (a skipped step, an optional field left empty). */
const MISSING_VALUE = '—';

/** The placeholders of a template, and those that are not `name.field` paths. */
export function templatePaths(template: string): { paths: string[]; bad: string[] } {
  const paths: string[] = [];
  const bad: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) (PATH.test(match[1]!) ? paths : bad).push(match[1]!);
  return { paths, bad };
}

/**
 * A value as one line of plain text: controls and invisible characters become spaces, runs of white
 * space one space, and anything longer than 200 characters is cut with an ellipsis.
 */
export function safeValue(value: unknown): string {
  if (value === undefined || value === null) return MISSING_VALUE;
  if (Array.isArray(value)) return value.length === 0 ? MISSING_VALUE : value.map(safeValue).join(', ');
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else return MISSING_VALUE;
  text = text.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim();
  if (text === '') return MISSING_VALUE;
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** Reads `a.b` from a context object; undefined when any part is missing. */
function readPath(context: unknown, path: string): unknown {
  let value: unknown = context;
  for (const part of path.split('.')) {
    value =
      value !== null && typeof value === 'object' && Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}

/** Fills a template from the flow's context; every value goes through {@link safeValue}. */
export function renderText(template: string, context: unknown): string {
  return template.replace(PLACEHOLDER, (_, path: string) => safeValue(readPath(context, path)));
}

/** Fills a URL template: every value URL-encoded (a missing one empty), so a value cannot change the URL's shape. */
export function renderUrl(template: string, context: unknown): string {
  return template.replace(PLACEHOLDER, (_, path: string) => {
    const value = readPath(context, path);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? encodeURIComponent(String(value)) : '';
  });
}
