// The answers worth trying for one question: accepts built from its fields' samples (every combination
// of the values of the fields some condition reads, then each other sample one at a time), then decline
// and cancel.
import type { FlowEvent } from '../flow-context.ts';
import type { AtomicTest } from './condition-tests.ts';
import type { InputResponse } from './conversation-types.ts';
import { fieldSamples } from './field-samples.ts';
import type { QuestionForm } from './question-forms.ts';

/** An answer as the machine receives it (content parsed by the engine's schema) and as the client sends it. */
export interface AnswerCandidate {
  readonly event: FlowEvent;
  readonly response: InputResponse;
}

const MAX_ACCEPTS = 1000;

function product(lists: ReadonlyArray<readonly [string, readonly unknown[]]>): Array<Record<string, unknown>> {
  let combos: Array<Record<string, unknown>> = [{}];
  for (const [field, values] of lists) combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [field]: value })));
  return combos;
}

/** The content a client sends: the form's fields in order, those left out missing. */
const contentOf = (fields: readonly string[], values: Record<string, unknown>) =>
  Object.fromEntries(fields.filter((field) => values[field] !== undefined).map((field) => [field, values[field]]));

/** The answers to try for `question`, the first accept being the plainest. Throws when no valid accept can be made. */
export function answerCandidates(question: QuestionForm, tests: readonly AtomicTest[], now: Date): AnswerCandidate[] {
  const { key, requestedSchema, schema } = question;
  const fields = Object.keys(requestedSchema.properties);
  const decisive: Array<[string, readonly unknown[]]> = [];
  const base: Record<string, unknown> = {};
  // one field changed to one of its other samples
  const overrides: Array<Record<string, unknown>> = [{}];
  for (const [field, property] of Object.entries(requestedSchema.properties)) {
    const samples = fieldSamples(key, field, property, schema.shape[field]!, tests, now);
    if (samples.values.length === 0) {
      throw new Error(`conversationsOf: no sample answer fits field '${field}' of question '${key}' (${JSON.stringify(property)}).`);
    }
    if (samples.decisive) decisive.push([field, samples.values]);
    else base[field] = samples.values[0];
    overrides.push(...samples.others.map((value) => ({ [field]: value })));
  }
  const combos = product(decisive);
  if (combos.length * overrides.length > MAX_ACCEPTS) {
    throw new Error(
      `conversationsOf: question '${key}' would need ${combos.length * overrides.length} sample answers (more than ${MAX_ACCEPTS}); split its form.`,
    );
  }
  const accepts: AnswerCandidate[] = [];
  const refusals: string[] = [];
  const made = new Set<string>();
  for (const combo of combos) {
    for (const override of overrides) {
      const content = contentOf(fields, { ...base, ...combo, ...override });
      const id = JSON.stringify(content);
      if (made.has(id)) continue;
      made.add(id);
      const parsed = schema.safeParse(content);
      if (!parsed.success) {
        refusals.push(parsed.error.issues.map((issue) => issue.message).join('; '));
        continue;
      }
      accepts.push({
        event: { type: `${key}.accept`, key, content: parsed.data as Record<string, unknown> },
        response: { action: 'accept', content },
      });
    }
  }
  if (accepts.length === 0)
    throw new Error(`conversationsOf: no sample answer to question '${key}' is valid (${refusals[0] ?? 'no fields'}).`);
  return [
    ...accepts,
    { event: { type: `${key}.decline`, key }, response: { action: 'decline' } },
    { event: { type: `${key}.cancel`, key }, response: { action: 'cancel' } },
  ];
}
