// Message templates of declared flows: `{{input.topic}}` and `{{form.field}}`, filled with values made safe
// for where they go. No code runs in a template; a value cannot add lines, controls or markup of its own.
import { safeText } from '@roundtrip/engine';

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
// `name.field`, or deeper into a loaded value (`order.customer.name`)
const PATH = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/;

/** Shown for a placeholder whose answer was not given (a skipped step, an optional field left empty). */
const MISSING_VALUE = '—';

/** The placeholders of a template, and those that are neither paths (`name.field`) nor one of the `bare` names. */
export function templatePaths(template: string, bare: readonly string[] = []): { paths: string[]; bad: string[] } {
  const paths: string[] = [];
  const bad: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) (PATH.test(match[1]!) || bare.includes(match[1]!) ? paths : bad).push(match[1]!);
  return { paths, bad };
}

/**
 * A value as one line of plain text, through the engine's {@link safeText} (controls and invisible
 * characters become spaces, at most 200 characters); a list as its items joined by commas, and a value
 * that is missing, empty or not text-like as a dash.
 */
export function safeValue(value: unknown): string {
  if (value === undefined || value === null) return MISSING_VALUE;
  if (Array.isArray(value)) return value.length === 0 ? MISSING_VALUE : value.map(safeValue).join(', ');
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return MISSING_VALUE;
  return safeText(value) || MISSING_VALUE;
}

/** A template cut at its placeholders: literal text, then each placeholder's path as its parts. */
type TemplatePart = string | readonly string[];

/**
 * Templates already cut, by their text: a flow renders the same few templates every round (they come from
 * its declaration), so each is parsed once. Bounded, in case templates are ever made at run time.
 */
const cutTemplates = new Map<string, readonly TemplatePart[]>();
const MAX_CUT_TEMPLATES = 1000;

function cutTemplate(template: string): readonly TemplatePart[] {
  const known = cutTemplates.get(template);
  if (known) return known;
  const parts: TemplatePart[] = [];
  let from = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(from, match.index), match[1]!.split('.'));
    from = match.index + match[0].length;
  }
  parts.push(template.slice(from));
  if (cutTemplates.size >= MAX_CUT_TEMPLATES) cutTemplates.clear();
  cutTemplates.set(template, parts);
  return parts;
}

/** Reads `a.b` (given as its parts) from a context object; undefined when any part is missing. */
function readPath(context: unknown, path: readonly string[]): unknown {
  let value: unknown = context;
  for (const part of path) {
    value =
      value !== null && typeof value === 'object' && Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}

/** A template with each placeholder replaced by `fill` of the value at its path. */
function fillTemplate(template: string, context: unknown, fill: (value: unknown) => string): string {
  let out = '';
  for (const part of cutTemplate(template)) out += typeof part === 'string' ? part : fill(readPath(context, part));
  return out;
}

/** Fills a template from the flow's context; every value goes through {@link safeValue}. */
export function renderText(template: string, context: unknown): string {
  return fillTemplate(template, context, safeValue);
}

/** Fills a URL template: every value URL-encoded (a missing one empty), so a value cannot change the URL's shape. */
export function renderUrl(template: string, context: unknown): string {
  return fillTemplate(template, context, (value) =>
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? encodeURIComponent(String(value)) : '',
  );
}
