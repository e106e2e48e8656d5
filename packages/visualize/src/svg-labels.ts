// The words on the SVG's arrows: the event (or `always`), then the guard in brackets, a declared flow's
// `when` guard written as its condition (`when.attendees > 5`, the words the definition's presentation
// gives for it).
import { oneLine, truncate } from './svg-text.ts';

const MAX_LABEL_CHARS = 64;

type Json = Readonly<Record<string, unknown>>;

export const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const isScalar = (value: unknown): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value);

/** A guard's plain params, by value: `{ step: 'when' }` as `when`, lists joined; objects left out. */
function paramsText(params: Json): string {
  const values: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (key === 'condition') continue;
    if (isScalar(value)) values.push(String(value));
    else if (Array.isArray(value) && value.every(isScalar)) values.push(value.join(', '));
  }
  return values.join(', ');
}

/**
 * A guard by name, with its plain params (`changeStep(room)`); the `when` guard as its condition, other
 * guards with a condition followed by it (`answeredBefore(when): when.attendees > 5`): a condition in
 * the words `conditions` gives for its JSON text, left out when it gives none.
 */
function guardText(guard: unknown, conditions: Readonly<Record<string, string>>): string | undefined {
  if (typeof guard === 'string') return guard;
  if (!isRecord(guard) || typeof guard.type !== 'string') return undefined;
  const params = isRecord(guard.params) ? guard.params : {};
  const condition = params.condition === undefined ? undefined : conditions[JSON.stringify(params.condition)];
  if (guard.type === 'when' && condition !== undefined) return condition;
  const values = paramsText(params);
  const named = values === '' ? guard.type : `${guard.type}(${values})`;
  return condition === undefined ? named : `${named}: ${condition}`;
}

/** An event as drawn: actor completion events by the actor's id (`done: finish`), others as they are. */
export function eventText(event: string): string {
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
  return actor ? `${actor[1]}: ${actor[2]}` : event;
}

/** The label of one transition: `event [guard]`, one line, cut to a readable length. */
export function transitionLabel(event: string, guard: unknown, conditions: Readonly<Record<string, string>> = {}): string {
  const condition = guard === undefined ? undefined : guardText(guard, conditions);
  return truncate(oneLine(condition ? `${event} [${condition}]` : event), MAX_LABEL_CHARS);
}
