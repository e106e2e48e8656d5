// Representative answers for one form field: each option of a choice, both booleans, numbers and texts
// on both sides of every comparison the flow's conditions make with the field, else one valid value.
import type { ElicitationProperty } from '@roundtrip/engine';
import type { z } from 'zod';
import { type AtomicTest, testSignature } from './condition-tests.ts';

/** A field's samples, `undefined` standing for "left out". */
export interface FieldSamples {
  /** One value for each way the conditions can read the field (one value when none reads it). */
  readonly values: readonly unknown[];
  /** The other options (of a choice, a multi select, a boolean, an optional field) worth sending once. */
  readonly others: readonly unknown[];
  /** Some condition reads the field. */
  readonly decisive: boolean;
}

const DAY_MS = 86_400_000;
const ORDERED = new Set(['gt', 'gte', 'lt', 'lte']);

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isoDateTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The options of a choice or a multi select, in the form's order. */
function optionsOf(property: ElicitationProperty): string[] | undefined {
  const node = (property.type === 'array' ? property.items : property) as { enum?: unknown; oneOf?: unknown; anyOf?: unknown };
  if (Array.isArray(node.enum)) return node.enum as string[];
  const titled = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined;
  return titled?.map((option) => (option as { const: string }).const);
}

/** Operands the conditions compare the field with (each member of an `in` list too). */
function operands(tests: readonly AtomicTest[]): unknown[] {
  return tests.flatMap((test) => (test.op === 'in' && Array.isArray(test.operand) ? test.operand : [test.operand]));
}

function numberSamples(property: { minimum?: number; maximum?: number }, integer: boolean, tests: readonly AtomicTest[]): number[] {
  const { minimum: min, maximum: max } = property;
  let base = 1;
  if (min !== undefined && base < min) base = integer ? Math.ceil(min) : min;
  if (max !== undefined && base > max) base = integer ? Math.floor(max) : max;
  const thresholds = [...new Set(operands(tests).filter((value): value is number => typeof value === 'number'))].sort((a, b) => a - b);
  const around = thresholds.flatMap((t, i) => {
    const next = thresholds[i + 1];
    const middle = next === undefined ? [] : [(t + next) / 2];
    return [t, t - 1, t + 1, Math.floor(t), Math.ceil(t), ...middle, ...middle.map(Math.floor), ...middle.map(Math.ceil)];
  });
  return [base, ...around, ...(min === undefined ? [] : [min]), ...(max === undefined ? [] : [max])];
}

function textSamples(
  property: { minLength?: number; maxLength?: number; format?: string },
  tests: readonly AtomicTest[],
  now: Date,
): string[] {
  const inAMonth = now.getTime() + 30 * DAY_MS;
  const byFormat: Record<string, string> = {
    date: isoDate(inAMonth),
    'date-time': isoDateTime(inAMonth),
    email: 'ada@example.com',
    uri: 'https://example.com/',
  };
  let base = byFormat[property.format ?? ''] ?? 'Example';
  if (property.minLength !== undefined && base.length < property.minLength) base = base.padEnd(property.minLength, 'x');
  if (property.maxLength !== undefined && base.length > property.maxLength) base = base.slice(0, property.maxLength);
  const compared = tests.flatMap((test) => {
    const values = (test.op === 'in' && Array.isArray(test.operand) ? test.operand : [test.operand]).filter(
      (value): value is string => typeof value === 'string',
    );
    if (!ORDERED.has(test.op)) return values;
    return values.flatMap((t) => {
      const day = /^\d{4}-\d\d-\d\d/.test(t) ? Date.parse(t) : Number.NaN;
      if (!Number.isNaN(day)) {
        const shift = (ms: number) => (t.length === 10 ? isoDate(ms) : isoDateTime(ms));
        return [t, shift(day - DAY_MS), shift(day + DAY_MS)];
      }
      return [t, `${t}a`, t.slice(0, -1)];
    });
  });
  return [base, ...compared];
}

/** Every value worth trying for the field, before validation. */
function candidates(property: ElicitationProperty, tests: readonly AtomicTest[], now: Date): unknown[] {
  const options = optionsOf(property);
  const byType = (): unknown[] => {
    switch (property.type) {
      case 'boolean':
        return [true, false];
      case 'number':
      case 'integer':
        return numberSamples(property, property.type === 'integer', tests);
      case 'array': {
        const all = options ?? [];
        const size = Math.max(1, property.minItems ?? 0);
        if (property.maxItems === 0) return [[]];
        return all.map((_, i) => Array.from({ length: Math.min(size, all.length) }, (_, k) => all[(i + k) % all.length]!));
      }
      default:
        return options ?? textSamples(property as { minLength?: number; maxLength?: number; format?: string }, tests, now);
    }
  };
  const fallback = (property as { default?: unknown }).default;
  return fallback === undefined ? byType() : [fallback, ...byType()];
}

/**
 * The samples of field `field` of form `form`: valid values only (checked with the field's own
 * schema), "left out" among them when the field is optional without a default. A field some condition
 * reads gets one value for each combination of those comparisons; any other one value. Each other
 * option of a choice, the other boolean and leaving an optional field out are kept to send once.
 */
export function fieldSamples(
  form: string,
  field: string,
  property: ElicitationProperty,
  schema: z.ZodType,
  allTests: readonly AtomicTest[],
  now: Date,
): FieldSamples {
  const tests = allTests.filter((test) => test.path === `${form}.${field}`);
  const optional = (property as { default?: unknown }).default === undefined && schema.safeParse(undefined).success;
  const seen = new Set<string>();
  const valid = [...candidates(property, tests, now), ...(optional ? [undefined] : [])].filter((value) => {
    const id = value === undefined ? 'undefined' : JSON.stringify(value);
    if (seen.has(id)) return false;
    seen.add(id);
    return value === undefined || schema.safeParse(value).success;
  });
  const spread = property.type === 'boolean' || optionsOf(property) !== undefined;
  const worthSending = (value: unknown) => spread || value === undefined;
  if (tests.length === 0) return { values: valid.slice(0, 1), others: valid.slice(1).filter(worthSending), decisive: false };
  const signatures = new Set<string>();
  const values = valid.filter((value) => {
    const signature = testSignature(tests, { [form]: value === undefined ? {} : { [field]: value } });
    if (signatures.has(signature)) return false;
    signatures.add(signature);
    return true;
  });
  return { values, others: valid.filter((value) => !values.includes(value) && worthSending(value)), decisive: true };
}
