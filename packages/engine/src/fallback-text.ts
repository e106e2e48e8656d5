// What the model reads when a tool asks through it: each question with its fields in words, that the
// user must answer (not the model), and exactly how to call the tool again. Short, with no JSON Schema.
import type { ActiveQuestion } from './active-questions.ts';
import { ANSWERS_ARGUMENT, CANCEL, CONTINUATION_ARGUMENT, DECLINE } from './fallback-arguments.ts';
import { quoteJson, showHidden } from './safe-text.ts';
import type { EnvelopeRejection } from './state-envelope.ts';
import type { ElicitationProperty, ElicitationSchema } from './wire-shapes.ts';

const FORMATS: Record<string, string> = {
  email: 'an email address',
  uri: 'a URL',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (ISO 8601)',
};

// everything quoted or repeated here may hold a client's text: hidden characters are shown as escapes (\u202e)
const quoted = (value: string) => quoteJson(value);
const titled = (options: readonly { const: string; title: string }[]) =>
  options.map((o) => (o.title && o.title !== o.const ? `${quoted(o.const)} (${o.title})` : quoted(o.const))).join(', ');

/** `, from 1 to 30`, `, at least 1 character`: the bounds of a value, or nothing. */
function range(min: number | undefined, max: number | undefined, unit?: string): string {
  const of = (n: number) => (unit ? ` ${unit}${n === 1 ? '' : 's'}` : '');
  if (min !== undefined && max !== undefined) return `, from ${min} to ${max}${of(max)}`;
  if (min !== undefined) return `, at least ${min}${of(min)}`;
  if (max !== undefined) return `, at most ${max}${of(max)}`;
  return '';
}

/** One field's type and allowed values, in words. */
function kindOf(p: ElicitationProperty): string {
  if (p.type === 'boolean') return 'true or false';
  if (p.type === 'number' || p.type === 'integer')
    return `${p.type === 'integer' ? 'a whole number' : 'a number'}${range(p.minimum, p.maximum)}`;
  if (p.type === 'array') {
    const options = 'anyOf' in p.items ? titled(p.items.anyOf) : p.items.enum.map(quoted).join(', ');
    return `a list of any of ${options}${range(p.minItems, p.maxItems, 'item')}`;
  }
  if ('enum' in p) return `one of ${p.enum.map(quoted).join(', ')}`;
  if ('oneOf' in p) return `one of ${titled(p.oneOf)}`;
  const text = p as Extract<ElicitationProperty, { format?: string }>;
  const format = text.format ? FORMATS[text.format] : undefined;
  return `${format ?? 'text'}${range(text.minLength, text.maxLength, 'character')}`;
}

/** The fields of a form, one line each: name, required, type and values, title, default. */
function fieldLines(schema: ElicitationSchema): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, p]) => {
    const about = [p.title, p.description].filter((t): t is string => typeof t === 'string' && t !== '' && t !== name).join(': ');
    const fallback = p.default === undefined ? '' : `; default ${quoteJson(p.default)}`;
    return `- ${name} (${required.has(name) ? 'required' : 'optional'}${fallback}): ${kindOf(p)}${about ? `. ${about}` : ''}`;
  });
}

/** What the answers argument looks like, with the field names to fill in. */
function answersSkeleton(asks: readonly ActiveQuestion[]): string {
  const entries = asks.map((a) => {
    const fields = Object.keys(a.requestedSchema.properties).map((f) => `${quoted(f)}: …`);
    return `${quoted(a.question.key)}: {${fields.join(', ')}}`;
  });
  return `{${entries.join(', ')}}`;
}

export interface FallbackView {
  readonly tool: string;
  /** The tool's own arguments, to be sent again unchanged. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly asks: readonly ActiveQuestion[];
  /** Why a question is asked again, by key (the same words the form would show). */
  readonly notes: ReadonlyMap<string, string>;
  readonly continuation: string;
}

/** The longest arguments (as JSON) the instructions repeat; longer ones the model has in its own call. */
const MAX_REPEATED_ARGUMENTS = 500;

/** ` ({"city":"Oslo"})`: the tool's own arguments, repeated only when short (never echo a large input back). */
function argumentsAgain(args: Readonly<Record<string, unknown>>): string {
  const text = quoteJson(args);
  return text.length > MAX_REPEATED_ARGUMENTS ? ', unchanged,' : ` (${text})`;
}

/** The instructions a fallback result gives the model. */
export function fallbackText(view: FallbackView): string {
  const { tool, asks } = view;
  const one = asks.length === 1;
  const lines = [
    `${tool} needs the user's answer${one ? '' : 's'} before it can go on, and this client cannot ask the user itself. Ask the user ${one ? 'the question' : 'the questions'} below in your own reply and wait for them to answer. Do not answer for the user or guess.`,
  ];
  for (const a of asks) {
    const note = view.notes.get(a.question.key);
    lines.push('', `Question '${a.question.key}': ${showHidden(a.message)}${note ? `\n${showHidden(note)}` : ''}`);
    if (a.url !== undefined) {
      lines.push(
        `Give the user this page to open themselves: ${showHidden(a.url)}`,
        `Its answer is {} once the user says they have been there (or "${DECLINE}" if they will not go).`,
      );
    } else {
      lines.push('Fields:', ...fieldLines(a.requestedSchema));
    }
  }
  lines.push(
    '',
    `Once the user has answered, call ${tool} again with the same arguments as before${argumentsAgain(view.args)} plus:`,
    `- "${ANSWERS_ARGUMENT}": ${answersSkeleton(asks)} (the user's answer${one ? '' : ' to each question, by its key'})`,
    `- "${CONTINUATION_ARGUMENT}": ${quoted(view.continuation)}`,
    `If the user declines to answer a question, give "${DECLINE}" as its answer instead of an object; if they want to stop, give "${CANCEL}".`,
  );
  return lines.join('\n');
}

const REFUSALS: Record<EnvelopeRejection['code'], string> = {
  expired: 'it has expired',
  mismatch: 'it belongs to another call (other arguments, another tool or another user)',
  outdated: 'the tool changed since it was given',
  invalid: 'it is not one this server gave, or it was changed',
};

/** What the model reads when a continuation token is refused. */
export function continuationRefusedText(tool: string, code: EnvelopeRejection['code']): string {
  return `The '${CONTINUATION_ARGUMENT}' token was not accepted: ${REFUSALS[code]}. Call ${tool} again with only its own arguments, without '${ANSWERS_ARGUMENT}' and '${CONTINUATION_ARGUMENT}', to start over; the questions will be asked again.`;
}
