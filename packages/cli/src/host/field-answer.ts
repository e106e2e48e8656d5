// One typed line read as a field's value, checked the way the schema says (format, length, bounds,
// options), with the reason when it does not fit; and the hint that tells the person what fits.
import type { Field, Option } from './form-fields.ts';

/** A string, number, boolean or list of option values; anything JSON for a `json` field. */
export type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

const YES = new Set(['y', 'yes', 'true', '1']);
const NO = new Set(['n', 'no', 'false', '0']);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function checkFormat(format: string, value: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(value) ? undefined : 'that is not an email address (name@example.com)';
    case 'uri':
      try {
        new URL(value);
        return undefined;
      } catch {
        return 'that is not a URI (https://example.com/…)';
      }
    case 'date':
      return isDate(value) ? undefined : 'that is not a date (YYYY-MM-DD)';
    case 'date-time': {
      const match = DATE_TIME.exec(value);
      return match && isDate(match[1]!) && !Number.isNaN(Date.parse(value))
        ? undefined
        : 'that is not a date and time (YYYY-MM-DDTHH:MM, then Z or an offset like +02:00)';
    }
    default:
      return undefined;
  }
}

/** The option a word names: its number in the list, its value, or its title (any case). */
function pickOption(options: readonly Option[], word: string): Option | undefined {
  const index = /^\d+$/.test(word) ? Number(word) - 1 : -1;
  if (index >= 0 && index < options.length) return options[index];
  const lower = word.toLowerCase();
  return options.find((o) => o.value === word) ?? options.find((o) => o.value.toLowerCase() === lower || o.title.toLowerCase() === lower);
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Reads a non-empty line as the field's value. */
export function parseAnswer(field: Field, line: string): Parsed {
  const fail = (reason: string): Parsed => ({ ok: false, reason });
  switch (field.kind) {
    case 'text': {
      if (field.minLength !== undefined && line.length < field.minLength)
        return fail(`give at least ${plural(field.minLength, 'character')}`);
      if (field.maxLength !== undefined && line.length > field.maxLength)
        return fail(`give at most ${plural(field.maxLength, 'character')}`);
      const problem = field.format && checkFormat(field.format, line);
      return problem ? fail(problem) : { ok: true, value: line };
    }
    case 'number': {
      const value = Number(line.trim());
      if (line.trim() === '' || !Number.isFinite(value)) return fail('that is not a number');
      if (field.integer && !Number.isInteger(value)) return fail('give a whole number');
      if (field.minimum !== undefined && value < field.minimum) return fail(`give at least ${field.minimum}`);
      if (field.maximum !== undefined && value > field.maximum) return fail(`give at most ${field.maximum}`);
      return { ok: true, value };
    }
    case 'boolean': {
      const word = line.trim().toLowerCase();
      if (YES.has(word)) return { ok: true, value: true };
      if (NO.has(word)) return { ok: true, value: false };
      return fail('answer yes or no (y/n)');
    }
    case 'choice': {
      const option = pickOption(field.options, line.trim());
      return option ? { ok: true, value: option.value } : fail(`pick one of 1–${field.options.length}, by number or value`);
    }
    case 'choices': {
      const words =
        line.trim() === '-'
          ? []
          : line
              .split(',')
              .map((word) => word.trim())
              .filter((word) => word !== '');
      const picked: string[] = [];
      for (const word of words) {
        const option = pickOption(field.options, word);
        if (!option)
          return fail(`'${word}' is not one of the options: give numbers 1–${field.options.length} or values, separated by commas`);
        if (!picked.includes(option.value)) picked.push(option.value);
      }
      if (field.minItems !== undefined && picked.length < field.minItems) return fail(`pick at least ${field.minItems}`);
      if (field.maxItems !== undefined && picked.length > field.maxItems) return fail(`pick at most ${field.maxItems}`);
      return { ok: true, value: picked };
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(line) as unknown };
      } catch {
        return fail('that is not JSON (a string goes in double quotes: "text")');
      }
  }
}

/** What fits the field, shown beside its title: `(whole number, 1–14)`. */
export function fieldHint(field: Field): string {
  const range = (low?: number, high?: number, unit = '') =>
    low !== undefined && high !== undefined
      ? `${low}–${high}${unit}`
      : low !== undefined
        ? `at least ${low}${unit}`
        : high !== undefined
          ? `at most ${high}${unit}`
          : '';
  const parts: string[] = [];
  switch (field.kind) {
    case 'text':
      parts.push(
        field.format
          ? { email: 'email', uri: 'URI', date: 'date YYYY-MM-DD', 'date-time': 'date-time YYYY-MM-DDTHH:MM+00:00' }[field.format]
          : 'text',
      );
      parts.push(range(field.minLength, field.maxLength, ` character${(field.maxLength ?? field.minLength) === 1 ? '' : 's'}`));
      break;
    case 'number':
      parts.push(field.integer ? 'whole number' : 'number', range(field.minimum, field.maximum));
      break;
    case 'boolean':
      parts.push('y/n');
      break;
    case 'choice':
      parts.push('pick one: number or value');
      break;
    case 'choices':
      parts.push('pick any: numbers or values, comma-separated, - for none');
      if (field.minItems !== undefined || field.maxItems !== undefined) parts.push(`${range(field.minItems, field.maxItems)} of them`);
      break;
    case 'json':
      parts.push('JSON');
      break;
  }
  if (!field.required && field.default === undefined) parts.push('optional');
  return parts.filter((part) => part !== '').join(', ');
}

/** A default as the person reads it: the option's title for a select, yes/no for a boolean. */
export function showValue(field: Field, value: unknown): string {
  const title = (v: unknown) => ('options' in field ? (field.options.find((o) => o.value === v)?.title ?? String(v)) : String(v));
  if (field.kind === 'boolean') return value === true ? 'yes' : value === false ? 'no' : JSON.stringify(value);
  if (field.kind === 'choice') return title(value);
  if (field.kind === 'choices' && Array.isArray(value)) return value.length === 0 ? 'none' : value.map(title).join(', ');
  if (field.kind === 'json') return JSON.stringify(value);
  return String(value);
}
