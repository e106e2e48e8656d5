// The text of a Mermaid state diagram: transition labels (`event [guard]`), guards with their params in
// short, and the escaping that keeps any text inside a label, a note or a quoted state name.
import { isRecord, nameOf, type TransitionJson, type Trigger } from './machine-code-walk.ts';

const MAX_GUARD = 80;
const MAX_MESSAGE = 100;

// characters Mermaid reads as syntax in labels (`:` and `;` end a label, `#` starts a comment, `%%` too,
// `"` ends a quoted name), or as HTML when it draws: written as entity codes, which Mermaid decodes
const ENTITIES: Readonly<Record<string, string>> = {
  '#': '#35;',
  '%': '#37;',
  ':': '#58;',
  ';': '#59;',
  '"': '#quot;',
  '&': '#amp;',
  '<': '#lt;',
  '>': '#gt;',
};

/**
 * Text made safe for a Mermaid label, note or quoted state name: one line, syntax characters as entity
 * codes, and the words Mermaid's lexer reads anywhere in a line (`direction LR`, `end note`, even inside
 * a word) broken up.
 */
export function escapeLabel(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[#%:;"&<>]/g, (c) => ENTITIES[c]!)
    .replace(/(d)(irection\s+(?:TB|BT|RL|LR))/gi, (_, d: string, rest: string) => `#${d.charCodeAt(0)};${rest}`)
    .replace(/(e)(nd\s+note)/gi, (_, e: string, rest: string) => `#${e.charCodeAt(0)};${rest}`);
}

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A param value in short: a word bare, other text quoted, lists in brackets, objects as compact JSON. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return /^[\w.@/-]+$/.test(value) ? value : `"${value}"`;
  if (Array.isArray(value)) return `[${value.map(valueText).join(', ')}]`;
  return JSON.stringify(value) ?? String(value);
}

/**
 * A guard as one short line: `isValid`, `answerFails(form=when)`, `when(when.attendees > 5)` (a
 * `condition` param in the words `conditions` gives for its JSON text).
 */
export function guardText(guard: unknown, conditions: Readonly<Record<string, string>> = {}): string | undefined {
  const name = nameOf(guard);
  if (name === undefined) return undefined;
  const params = isRecord(guard) && isRecord(guard.params) ? Object.entries(guard.params) : [];
  if (params.length === 0) return name;
  const shown = params.map(([key, value]) => {
    const described = key === 'condition' && value !== undefined ? conditions[JSON.stringify(value)] : undefined;
    return described ?? `${key}=${valueText(value)}`;
  });
  return shorten(`${name}(${shown.join(', ')})`, MAX_GUARD);
}

const triggerText = (trigger: Trigger): string => {
  switch (trigger.kind) {
    case 'event':
      return trigger.event;
    case 'always':
      return 'always';
    case 'after':
      return /^\d+$/.test(trigger.delay) ? `after ${trigger.delay}ms` : `after ${trigger.delay}`;
    case 'done':
      return 'done';
    case 'invokeDone':
      return `done: ${trigger.invoke}`;
    case 'invokeError':
      return `error: ${trigger.invoke}`;
  }
};

/** A transition's label, escaped: `event [guard]`; a target-less one also names its actions (`… / store`). */
export function transitionLabel(transition: TransitionJson, conditions: Readonly<Record<string, string>> = {}): string {
  const guard = guardText(transition.guard, conditions);
  let text = guard === undefined ? triggerText(transition.trigger) : `${triggerText(transition.trigger)} [${guard}]`;
  if (transition.targets.length === 0) {
    const actions = transition.actions.map(nameOf).filter((name): name is string => name !== undefined);
    if (actions.length > 0) text += ` / ${actions.join(', ')}`;
  }
  return escapeLabel(text);
}

/**
 * The lines of an asking state's note: `asks confirm`, or one line per question with its message; then
 * the fields of each question's form that `fields` names (`fields: Date, Attendees`).
 */
export function noteLines(
  keys: readonly string[],
  questions: Readonly<Record<string, string>>,
  fields: Readonly<Record<string, readonly string[]>> = {},
): string[] {
  const messages = keys.map((key) => questions[key]);
  const fieldLine = (key: string) => (fields[key]?.length ? [escapeLabel(`fields: ${shorten(fields[key].join(', '), MAX_MESSAGE)}`)] : []);
  if (messages.every((message) => message === undefined)) return [escapeLabel(`asks ${keys.join(', ')}`), ...keys.flatMap(fieldLine)];
  return keys.flatMap((key, i) => {
    const message = messages[i];
    const asks = escapeLabel(
      message === undefined ? `asks ${key}` : `asks ${key}: "${shorten(message.replace(/\s+/g, ' '), MAX_MESSAGE)}"`,
    );
    return [asks, ...fieldLine(key)];
  });
}
