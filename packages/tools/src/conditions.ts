// Conditions of declared flows: JSON tests over the tool's input and earlier answers. Evaluated by the
// `when` guard, checked when a flow is defined (every problem, with its fix), described for diagrams.
import type { Condition } from './condition-paths.ts';
import { type FieldKind, type KnownPath, type KnownPaths, knownPath, listedPaths } from './known-paths.ts';

export type { Condition, ConditionPath, ConditionValue, PathTest } from './condition-paths.ts';
export type { KnownPath, KnownPaths } from './known-paths.ts';

/** One mistake in a condition: where it is, what is wrong, and how to fix it. */
export interface ConditionProblem {
  /** `where` given to checkCondition, then the place inside the condition: `step 'when' › next[0] › all[1]`. */
  readonly path: string;
  readonly code: 'invalid_condition';
  readonly message: string;
  readonly fix: string;
}

const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'includes', 'answered'] as const;
type Operator = (typeof OPERATORS)[number];
const FITTING: Record<FieldKind, readonly Operator[]> = {
  string: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'answered'],
  number: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'answered'],
  boolean: ['eq', 'ne', 'answered'],
  enum: ['eq', 'ne', 'in', 'answered'],
  array: ['includes', 'answered'],
  any: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'includes', 'answered'],
};
const KIND_NAMES: Record<FieldKind, string> = {
  string: 'a text field',
  number: 'a number field',
  boolean: 'a yes/no field',
  enum: 'a choice field',
  array: 'a list field',
  any: 'a loaded value',
};
// the same paths as message templates: `name.field`, deeper into a loaded value (`order.customer.name`)
const PATH = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/;
// words people write for the ones we have
const ALIASES: Record<string, string> = {
  and: 'all',
  or: 'any',
  equals: 'eq',
  not: 'ne',
  contains: 'includes',
  oneOf: 'in',
  exists: 'answered',
};
const MAX_LISTED = 10;

type Json = Readonly<Record<string, unknown>>;
type Add = (at: string, message: string, fix: string) => void;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isOperator = (key: string): key is Operator => (OPERATORS as readonly string[]).includes(key);
const within = (at: string, step: string) => (at === '' ? step : `${at} › ${step}`);
const soleEntry = (value: unknown): [string, unknown] | undefined => {
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 ? [keys[0]!, value[keys[0]!]] : undefined;
};

// ---- evaluation ----

// conditions found well formed: each is checked once, on its first evaluation
const wellFormed = new WeakSet<object>();

/**
 * Whether `condition` holds for `context` (`{ input: {…}, <form>: {…} }`). A missing path is undefined:
 * it equals nothing (`eq` false, `ne` true), compares as nothing (`gt`… false), is in no list and
 * includes nothing; `answered: false` holds. Throws only for a condition whose shape checkCondition
 * reports (empty `all`, `any` and `in` included), whatever the data, on its first evaluation.
 *
 * @example evaluateCondition({ 'when.attendees': { gt: 5 } }, { input: {}, when: { attendees: 8 } }) // true
 */
export function evaluateCondition(condition: Condition, context: unknown): boolean {
  if (!wellFormed.has(condition)) {
    const found: string[] = [];
    checkNode(condition, '', undefined, (at, message, fix) => found.push(`${at === '' ? '' : `at ${at}, `}${message} Fix: ${fix}`));
    if (found.length > 0) throw new Error(`Invalid condition: ${found[0]} Check conditions with checkCondition when the flow is defined.`);
    wellFormed.add(condition);
  }
  return holds(condition, context);
}

// the shape is checked: one key, and a path's test has one operator with a fitting operand
function holds(node: Json, context: unknown): boolean {
  const key = Object.keys(node)[0]!;
  const value = node[key];
  if (key === 'all') return (value as readonly Json[]).every((item) => holds(item, context));
  if (key === 'any') return (value as readonly Json[]).some((item) => holds(item, context));
  if (key === 'not') return !holds(value as Json, context);
  const op = Object.keys(value as Json)[0] as Operator;
  return test(op, (value as Json)[op], valueAt(context, key));
}

/** The value at `form.field`, own properties of plain objects only; undefined when any part is missing. */
function valueAt(context: unknown, path: string): unknown {
  let value = context;
  for (const segment of path.split('.')) {
    if (!isRecord(value) || !Object.hasOwn(value, segment)) return undefined;
    value = value[segment];
  }
  return value;
}

/** Numbers with numbers, strings with strings (by UTF-16 code units, so ISO dates and times sort right). */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return Number.NaN;
}

function test(op: Operator, operand: unknown, value: unknown): boolean {
  switch (op) {
    case 'eq':
      return value !== undefined && value === operand;
    case 'ne':
      return value === undefined || value !== operand;
    case 'gt':
      return compare(value, operand) > 0;
    case 'gte':
      return compare(value, operand) >= 0;
    case 'lt':
      return compare(value, operand) < 0;
    case 'lte':
      return compare(value, operand) <= 0;
    case 'in':
      return value !== undefined && (operand as readonly unknown[]).includes(value);
    case 'includes':
      return Array.isArray(value) && value.includes(operand);
    case 'answered':
      return (value !== undefined) === operand;
  }
}

// ---- checks ----

/**
 * Every problem in `condition` (not only the first): its shape, its paths against `known`, each
 * operator against the field's kind and each value against the field's type or options.
 *
 * @param where - where the condition sits, the start of each problem's path (`step 'when' › next[0]`)
 * @returns the problems, empty when the condition is sound
 */
export function checkCondition(condition: unknown, where: string, known: KnownPaths): ConditionProblem[] {
  const problems: ConditionProblem[] = [];
  checkNode(condition, where, known, (path, message, fix) => problems.push({ path, code: 'invalid_condition', message, fix }));
  return problems;
}

const SHAPE_FIX =
  "Write one test, { 'form.field': { eq: value } }, or combine conditions with { all: [...] }, { any: [...] } or { not: condition }.";

// `known` undefined: the shape only, paths and kinds aside (what evaluateCondition refuses)
function checkNode(node: unknown, at: string, known: KnownPaths | undefined, add: Add): void {
  if (!isRecord(node)) {
    add(at, `a condition is an object, but this is ${show(node)}.`, SHAPE_FIX);
    return;
  }
  const keys = Object.keys(node);
  if (keys.length === 0) add(at, 'the condition is an empty object.', SHAPE_FIX);
  if (keys.length > 1)
    add(
      at,
      `the condition has ${keys.length} keys (${keys.map(quote).join(', ')}); a condition holds exactly one.`,
      'Give each its own condition and combine them: { all: [{ … }, { … }] } or { any: [{ … }, { … }] }.',
    );
  for (const key of keys) {
    const value = node[key];
    if (key === 'all' || key === 'any') {
      if (!Array.isArray(value))
        add(at, `'${key}' takes a list of conditions, but it is ${show(value)}.`, `Write { ${key}: [condition, …] }.`);
      else if (value.length === 0)
        add(
          at,
          `'${key}' lists no conditions, so it ${key === 'all' ? 'always' : 'never'} holds.`,
          `List at least one condition, or remove the '${key}'.`,
        );
      else for (const [i, item] of value.entries()) checkNode(item, within(at, `${key}[${i}]`), known, add);
    } else if (key === 'not') checkNode(value, within(at, 'not'), known, add);
    else if (!PATH.test(key)) {
      const paths = known ? listedPaths(known) : [];
      add(
        at,
        `'${key}' is neither a path (form.field) nor all, any or not.`,
        `Test a path${paths.length > 0 ? ` (${listed(key, paths)})` : ''}, or combine conditions with all, any or not${didYouMean(key, [...paths, 'all', 'any', 'not'])}.`,
      );
    } else checkTest(key, value, at, known, add);
  }
}

function checkTest(path: string, test: unknown, at: string, known: KnownPaths | undefined, add: Add): void {
  const field = known ? knownPath(known, path) : undefined;
  if (known && !field) {
    const loads = [...known.keys()].some((known) => known.endsWith('.*'));
    const where = path.startsWith('input.') ? 'an argument of the tool' : `a field of any form${loads ? ' or loaded by a step' : ''}`;
    const paths = listedPaths(known);
    add(
      at,
      `the path '${path}' is not ${where}.`,
      paths.length === 0
        ? 'The tool has no arguments or fields to test: remove the condition.'
        : `Use one of: ${listed(path, paths)}${didYouMean(
            path,
            [...known.keys()].map((k) => k.replace(/\*$/, path.slice(path.indexOf('.') + 1))),
          )}.`,
    );
  }
  if (!isRecord(test)) {
    const example = isScalar(test) ? show(test, true) : '…';
    add(
      at,
      `the test on '${path}' must be an object with one operator, but it is ${show(test)}.`,
      `Write { '${path}': { eq: ${example} } }.`,
    );
    return;
  }
  const ops = Object.keys(test);
  if (ops.length !== 1) {
    const message = ops.length === 0 ? 'has no operator' : `has ${ops.length} operators (${ops.join(', ')}); a test holds exactly one`;
    const fix =
      ops.length === 0
        ? `Give it one of: ${(field ? FITTING[field.kind] : OPERATORS).join(', ')}.`
        : `Give each its own condition and combine them: { all: [{ '${path}': { ${ops[0]}: … } }, { '${path}': { ${ops[1]}: … } }] }.`;
    add(at, `the test on '${path}' ${message}.`, fix);
  }
  for (const op of ops) checkOperator(path, op, test[op], field, at, add);
}

function checkOperator(path: string, op: string, operand: unknown, field: KnownPath | undefined, at: string, add: Add): void {
  if (!isOperator(op)) {
    add(at, `'${op}' is not an operator.`, `Use one of: ${OPERATORS.join(', ')}${didYouMean(op, OPERATORS)}.`);
    return;
  }
  if (field && !FITTING[field.kind].includes(op)) {
    add(at, `'${op}' does not apply to '${path}', ${KIND_NAMES[field.kind]}.`, `Use one of: ${FITTING[field.kind].join(', ')}.`);
    return;
  }
  const needs = (what: string, example: string) =>
    add(at, `'${op}' on '${path}' needs ${what}, but it is ${show(operand)}.`, `Write { ${op}: ${example} }.`);
  switch (op) {
    case 'answered':
      if (typeof operand !== 'boolean') needs('true or false', 'true');
      return;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (field?.kind === 'number' && typeof operand !== 'number') needs('a number', numberLike(operand));
      else if (field?.kind === 'string' && typeof operand !== 'string')
        needs('text (compared in alphabetical order, as ISO dates are)', `'${operand}'`);
      else if (typeof operand !== 'number' && typeof operand !== 'string') needs('a number or text', '5');
      return;
    case 'in':
      if (!Array.isArray(operand)) needs('a list of values', `[${isScalar(operand) ? show(operand, true) : '…'}]`);
      else if (operand.length === 0)
        add(at, `'in' on '${path}' lists no values, so it never holds.`, 'List the values to accept: { in: [a, b] }.');
      else for (const item of operand) checkValue(path, op, item, field, at, add);
      return;
    default:
      checkValue(path, op, operand, field, at, add);
  }
}

/** A value compared with the field: a JSON primitive of the field's type, or one of its options (null always fits). */
function checkValue(path: string, op: Operator, value: unknown, field: KnownPath | undefined, at: string, add: Add): void {
  if (!isScalar(value)) {
    add(at, `'${op}' on '${path}' compares with ${show(value)}; it takes text, a number, true, false or null.`, 'Compare with one value.');
    return;
  }
  if (!field || value === null) return;
  const options = field.kind === 'enum' || field.kind === 'array' ? field.options : undefined;
  if (options) {
    if (typeof value !== 'string' || !options.includes(value))
      add(
        at,
        `the value ${show(value, true)} is not an option of '${path}'.`,
        `Use one of: ${listed(String(value), options)}${didYouMean(String(value), options)}.`,
      );
    return;
  }
  const [what, example] =
    field.kind === 'number' && typeof value !== 'number'
      ? ['a number', numberLike(value)]
      : field.kind === 'string' && typeof value !== 'string'
        ? ['text', `'${value}'`]
        : field.kind === 'boolean' && typeof value !== 'boolean'
          ? ['true or false', 'true']
          : [];
  if (what === undefined) return;
  if (op === 'in')
    add(at, `'in' on '${path}' needs ${what} for each value, but it lists ${show(value)}.`, `Write { in: [${example}, …] }.`);
  else add(at, `'${op}' on '${path}' needs ${what}, but it is ${show(value)}.`, `Write { ${op}: ${example} }.`);
}

// ---- wording ----

/** A value for a message: `the text '5'`, `the number 5`; bare (`'5'`, `5`) for an example. */
function show(value: unknown, bare = false): string {
  if (typeof value === 'string') return bare ? `'${value}'` : `the text '${value}'`;
  if (typeof value === 'number') return bare ? String(value) : `the number ${value}`;
  if (typeof value === 'boolean' || value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const quote = (text: string) => `'${text}'`;
// the number meant by '5', for the fix
const numberLike = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? String(Number(value)) : '5';

/** At most ten choices; with more, the closest ten to what was written. */
function listed(written: string, choices: readonly string[]): string {
  if (choices.length <= MAX_LISTED) return choices.join(', ');
  const closest = [...choices].sort((a, b) => distance(written, a) - distance(written, b)).slice(0, MAX_LISTED);
  return `${closest.join(', ')}, and ${choices.length - MAX_LISTED} more`;
}

/** ` (did you mean 'x'?)` for a choice close to what was written, else nothing. */
export function didYouMean(written: string, choices: readonly string[]): string {
  const alias = ALIASES[written];
  const bySuffix = choices.find((choice) => choice.endsWith(`.${written}`));
  let best = alias !== undefined && choices.includes(alias) ? alias : bySuffix;
  if (best === undefined) {
    let bestDistance = Math.max(1, Math.floor(written.length / 3)) + 1;
    for (const choice of choices) {
      const d = distance(written.toLowerCase(), choice.toLowerCase());
      if (d < bestDistance) [best, bestDistance] = [choice, d];
    }
  }
  return best === undefined ? '' : ` (did you mean '${best}'?)`;
}

/** Edit distance, a swap of two neighbours counting as one edit (`hihg` → `high`). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  return rows[a.length]![b.length]!;
}

// ---- description ----

const SYMBOLS: Record<string, string> = { eq: '=', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=', in: 'in', includes: 'includes' };

/**
 * A condition as one short line for diagrams and logs: `when.attendees > 5`, `severity.level in [high, critical]`,
 * `all(input.priority = high, not(extra.note answered))`. Text is bare unless it could be read otherwise.
 */
export function describeCondition(condition: Condition): string {
  const [key, value] = soleEntry(condition) ?? [];
  if (key === undefined) return JSON.stringify(condition);
  if ((key === 'all' || key === 'any') && Array.isArray(value))
    return `${key}(${value.map((item: Condition) => describeCondition(item)).join(', ')})`;
  if (key === 'not') return `not(${describeCondition(value as Condition)})`;
  const [op, operand] = soleEntry(value) ?? [];
  if (op === undefined || !isOperator(op)) return `${key} ${JSON.stringify(value)}`;
  if (op === 'answered') return operand === false ? `${key} not answered` : `${key} answered`;
  const shown = Array.isArray(operand) ? `[${operand.map(plain).join(', ')}]` : plain(operand);
  return `${key} ${SYMBOLS[op]!} ${shown}`;
}

// a word stays bare; anything that could read as a number, a keyword or several values is quoted
const plain = (value: unknown): string =>
  typeof value === 'string' && (!/^[A-Za-z][\w.:/@-]*$/.test(value) || ['true', 'false', 'null'].includes(value))
    ? JSON.stringify(value)
    : String(value);
