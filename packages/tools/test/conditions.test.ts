import { describe, expect, it } from 'vitest';
import {
  type Condition,
  checkCondition,
  describeCondition,
  evaluateCondition,
  type KnownPath,
  type KnownPaths,
} from '../src/conditions.ts';

const context = {
  input: { topic: 'Plan', priority: 'high', count: 3, urgent: false, note: null },
  when: { date: '2026-12-10', attendees: 8 },
  severity: { level: 'critical' },
  incident: { services: ['api', 'web'] },
  room: { projector: true },
};

const holds = (condition: Condition) => evaluateCondition(condition, context);

describe('evaluating a path test', () => {
  // [path, test, expected]; `extra.note` and `when.time` are missing (a form not asked, a field not given)
  const table: [string, Record<string, unknown>, boolean][] = [
    ['input.priority', { eq: 'high' }, true],
    ['input.priority', { eq: 'low' }, false],
    ['input.urgent', { eq: false }, true],
    ['input.note', { eq: null }, true],
    ['input.count', { eq: '3' }, false],
    ['incident.services', { eq: 'api' }, false],
    ['when.time', { eq: null }, false],
    ['extra.note', { eq: 'x' }, false],
    ['input.priority', { ne: 'low' }, true],
    ['input.priority', { ne: 'high' }, false],
    ['extra.note', { ne: 'x' }, true],
    ['when.time', { ne: null }, true],
    ['when.attendees', { gt: 5 }, true],
    ['when.attendees', { gt: 8 }, false],
    ['when.attendees', { gte: 8 }, true],
    ['when.attendees', { lt: 8 }, false],
    ['when.attendees', { lte: 8 }, true],
    ['when.attendees', { gt: '5' }, false],
    ['when.date', { gte: '2026-12-01' }, true],
    ['when.date', { lt: '2026-12-01' }, false],
    ['input.note', { lt: 1 }, false],
    ['extra.count', { gt: 0 }, false],
    ['extra.count', { lte: 0 }, false],
    ['severity.level', { in: ['high', 'critical'] }, true],
    ['severity.level', { in: ['low'] }, false],
    ['input.note', { in: [null] }, true],
    ['extra.level', { in: ['high'] }, false],
    ['incident.services', { in: ['api'] }, false],
    ['incident.services', { includes: 'api' }, true],
    ['incident.services', { includes: 'db' }, false],
    ['input.topic', { includes: 'P' }, false],
    ['extra.services', { includes: 'api' }, false],
    ['room.projector', { eq: true }, true],
    ['room.projector', { answered: true }, true],
    ['input.note', { answered: true }, true],
    ['when.time', { answered: true }, false],
    ['when.time', { answered: false }, true],
    ['extra.note', { answered: false }, true],
    ['room.projector', { answered: false }, false],
  ];

  it.each(table)('%s %j → %s', (path, test, expected) => {
    expect(holds({ [path]: test } as unknown as Condition)).toBe(expected);
  });

  it('reads own data only: no prototype member, no array member, nothing under a value', () => {
    expect(holds({ 'input.constructor': { answered: true } })).toBe(false);
    expect(holds({ 'incident.length': { answered: true } })).toBe(false);
    expect(evaluateCondition({ 'incident.services': { answered: true } }, { incident: [] })).toBe(false);
    expect(evaluateCondition({ 'input.topic': { answered: true } }, { input: 'Plan' })).toBe(false);
    expect(evaluateCondition({ 'input.topic': { answered: false } }, null)).toBe(true);
    expect(evaluateCondition({ 'input.topic': { ne: 'x' } }, undefined)).toBe(true);
  });
});

describe('evaluating combinations', () => {
  const yes: Condition = { 'when.attendees': { gt: 5 } };
  const no: Condition = { 'severity.level': { eq: 'low' } };

  it.each([
    [{ all: [yes] }, true],
    [{ all: [yes, no] }, false],
    [{ all: [yes, yes] }, true],
    [{ any: [no] }, false],
    [{ any: [no, yes] }, true],
    [{ not: yes }, false],
    [{ not: no }, true],
    [{ not: { not: yes } }, true],
    [{ any: [{ all: [yes, no] }, { not: { any: [no] } }] }, true],
    [{ all: [yes, { any: [no, { not: { 'extra.note': { answered: true } } }] }] }, true],
  ] satisfies [Condition, boolean][])('%j → %s', (condition, expected) => {
    expect(holds(condition)).toBe(expected);
  });

  it('is the same after a JSON round trip, as it lives in a machine config', () => {
    const condition: Condition = {
      all: [
        { 'input.note': { eq: null } },
        { 'severity.level': { in: ['high', 'critical'] } },
        { not: { 'extra.note': { answered: true } } },
      ],
    };
    const copy = JSON.parse(JSON.stringify(condition)) as Condition;
    expect(copy).toEqual(condition);
    expect(evaluateCondition(copy, context)).toBe(true);
  });
});

describe('evaluating a malformed condition', () => {
  it('throws with the first shape problem, whatever the data', () => {
    const condition = { any: [{ 'when.attendees': { gt: 5 } }, { 'when.attendees': { gt: 5, lt: 9 } }] } as unknown as Condition;
    // the first member holds, so `any` would never reach the second: it is refused all the same
    expect(() => holds(condition)).toThrow(
      "Invalid condition: at any[1], the test on 'when.attendees' has 2 operators (gt, lt); a test holds exactly one. Fix: Give each its own condition and combine them: { all: [{ 'when.attendees': { gt: … } }, { 'when.attendees': { lt: … } }] }. Check conditions with checkCondition when the flow is defined.",
    );
  });

  it.each([
    [5, 'a condition is an object, but this is the number 5.'],
    [{}, 'the condition is an empty object.'],
    [{ all: [] }, "'all' lists no conditions, so it always holds."],
    [{ any: {} }, "'any' takes a list of conditions, but it is an object."],
    [{ attendees: { gt: 5 } }, "'attendees' is neither a path (form.field) nor all, any or not."],
    [{ 'when.attendees': 5 }, "the test on 'when.attendees' must be an object with one operator, but it is the number 5."],
    [{ 'when.attendees': { above: 5 } }, "'above' is not an operator."],
    [{ 'when.attendees': { gt: true } }, "'gt' on 'when.attendees' needs a number or text, but it is true."],
    [{ 'severity.level': { in: 'high' } }, "'in' on 'severity.level' needs a list of values, but it is the text 'high'."],
    [{ 'severity.level': { in: [] } }, "'in' on 'severity.level' lists no values, so it never holds."],
    [{ 'extra.note': { answered: 'yes' } }, "'answered' on 'extra.note' needs true or false, but it is the text 'yes'."],
    [{ 'input.topic': { eq: ['Plan'] } }, "'eq' on 'input.topic' compares with a list; it takes text, a number, true, false or null."],
  ])('%j: %s', (condition, message) => {
    expect(() => holds(condition as unknown as Condition)).toThrow(`Invalid condition: ${message}`);
  });
});

const field = (kind: KnownPath['kind'], options?: readonly string[]): KnownPath => ({
  kind,
  optional: false,
  ...(options ? { options } : {}),
});

const known: KnownPaths = new Map([
  ['input.topic', field('string')],
  ['input.priority', field('enum', ['low', 'high'])],
  ['when.date', field('string')],
  ['when.time', field('string')],
  ['when.attendees', field('number')],
  ['severity.level', field('enum', ['low', 'high', 'critical'])],
  ['incident.services', field('array', ['api', 'web', 'db'])],
  ['incident.tags', field('array')],
  ['room.projector', field('boolean')],
]);
const all = [...known.keys()].join(', ');
const where = "step 'when' › next[0]";
const problem = (at: string, message: string, fix: string) => ({
  path: at === '' ? where : `${where} › ${at}`,
  code: 'invalid_condition',
  message,
  fix,
});

describe('checking a condition', () => {
  it('finds nothing wrong in a sound condition', () => {
    const sound: Condition = {
      all: [
        { 'when.attendees': { gte: 5 } },
        { 'when.date': { gt: '2026-01-01' } },
        { any: [{ 'severity.level': { in: ['high', 'critical'] } }, { 'input.priority': { eq: 'high' } }] },
        { not: { 'incident.services': { includes: 'api' } } },
        { 'incident.tags': { includes: 'anything' } },
        { 'room.projector': { ne: false } },
        { 'input.topic': { eq: null } },
        { 'when.time': { answered: false } },
      ],
    };
    expect(checkCondition(sound, where, known)).toEqual([]);
  });

  it('collects every problem at once, each with where it is and the fix', () => {
    const condition = {
      all: [
        { 'when.atendees': { gt: 5 } },
        { 'when.attendees': { gt: '5' } },
        { 'severity.level': { eq: 'hihg' } },
        { 'room.projector': { gt: 5 } },
        { 'input.topic': { includes: 'Plan' } },
        { any: [] },
        { not: { 'input.priority': { equals: 'high', in: ['high', 'urgent'] } } },
        { attendees: { gt: 5 }, 'when.attendees': { lt: 50 } },
        'when.attendees > 5',
      ],
    };
    expect(checkCondition(condition, where, known)).toEqual([
      problem('all[0]', "the path 'when.atendees' is not a field of any form.", `Use one of: ${all} (did you mean 'when.attendees'?).`),
      problem('all[1]', "'gt' on 'when.attendees' needs a number, but it is the text '5'.", 'Write { gt: 5 }.'),
      problem(
        'all[2]',
        "the value 'hihg' is not an option of 'severity.level'.",
        "Use one of: low, high, critical (did you mean 'high'?).",
      ),
      problem('all[3]', "'gt' does not apply to 'room.projector', a yes/no field.", 'Use one of: eq, ne, answered.'),
      problem('all[4]', "'includes' does not apply to 'input.topic', a text field.", 'Use one of: eq, ne, gt, gte, lt, lte, in, answered.'),
      problem('all[5]', "'any' lists no conditions, so it never holds.", "List at least one condition, or remove the 'any'."),
      problem(
        'all[6] › not',
        "the test on 'input.priority' has 2 operators (equals, in); a test holds exactly one.",
        "Give each its own condition and combine them: { all: [{ 'input.priority': { equals: … } }, { 'input.priority': { in: … } }] }.",
      ),
      problem(
        'all[6] › not',
        "'equals' is not an operator.",
        "Use one of: eq, ne, gt, gte, lt, lte, in, includes, answered (did you mean 'eq'?).",
      ),
      problem('all[6] › not', "the value 'urgent' is not an option of 'input.priority'.", 'Use one of: low, high.'),
      problem(
        'all[7]',
        "the condition has 2 keys ('attendees', 'when.attendees'); a condition holds exactly one.",
        'Give each its own condition and combine them: { all: [{ … }, { … }] } or { any: [{ … }, { … }] }.',
      ),
      problem(
        'all[7]',
        "'attendees' is neither a path (form.field) nor all, any or not.",
        `Test a path (${all}), or combine conditions with all, any or not (did you mean 'when.attendees'?).`,
      ),
      problem(
        'all[8]',
        "a condition is an object, but this is the text 'when.attendees > 5'.",
        "Write one test, { 'form.field': { eq: value } }, or combine conditions with { all: [...] }, { any: [...] } or { not: condition }.",
      ),
    ]);
  });

  it('checks each value against the field: its type, or its options', () => {
    const condition = {
      any: [
        { 'input.topic': { eq: 5 } },
        { 'when.attendees': { in: [5, 'six', null] } },
        { 'room.projector': { eq: 'yes' } },
        { 'when.date': { gte: 20260101 } },
        { 'incident.services': { includes: 'cache' } },
        { 'severity.level': { ne: 3 } },
        { 'when.time': { answered: 'yes' } },
      ],
    };
    expect(checkCondition(condition, where, known)).toEqual([
      problem('any[0]', "'eq' on 'input.topic' needs text, but it is the number 5.", "Write { eq: '5' }."),
      problem('any[1]', "'in' on 'when.attendees' needs a number for each value, but it lists the text 'six'.", 'Write { in: [5, …] }.'),
      problem('any[2]', "'eq' on 'room.projector' needs true or false, but it is the text 'yes'.", 'Write { eq: true }.'),
      problem(
        'any[3]',
        "'gte' on 'when.date' needs text (compared in alphabetical order, as ISO dates are), but it is the number 20260101.",
        "Write { gte: '20260101' }.",
      ),
      problem('any[4]', "the value 'cache' is not an option of 'incident.services'.", 'Use one of: api, web, db.'),
      problem('any[5]', "the value 3 is not an option of 'severity.level'.", 'Use one of: low, high, critical.'),
      problem('any[6]', "'answered' on 'when.time' needs true or false, but it is the text 'yes'.", 'Write { answered: true }.'),
    ]);
  });

  it('names an unknown input argument as such, and the test on it is still checked', () => {
    expect(checkCondition({ 'input.topc': { gt: true } }, '', known)).toEqual([
      {
        path: '',
        code: 'invalid_condition',
        message: "the path 'input.topc' is not an argument of the tool.",
        fix: `Use one of: ${all} (did you mean 'input.topic'?).`,
      },
      {
        path: '',
        code: 'invalid_condition',
        message: "'gt' on 'input.topc' needs a number or text, but it is true.",
        fix: 'Write { gt: 5 }.',
      },
    ]);
  });

  it('lists at most ten paths, the closest first, and suggests nothing far off', () => {
    const many: KnownPaths = new Map(Array.from({ length: 14 }, (_, i) => [`form${i}.field`, field('number')]));
    const [found] = checkCondition({ 'form1.feld': { gt: 1 } }, where, many);
    expect(found?.fix).toBe(
      "Use one of: form1.field, form0.field, form2.field, form3.field, form4.field, form5.field, form6.field, form7.field, form8.field, form9.field, and 4 more (did you mean 'form1.field'?).",
    );
    expect(checkCondition({ 'other.thing': { gt: 1 } }, where, many)[0]?.fix).not.toContain('did you mean');
  });

  it('says when there is nothing to test', () => {
    expect(checkCondition({ 'when.date': { answered: true } }, where, new Map())).toEqual([
      problem('', "the path 'when.date' is not a field of any form.", 'The tool has no arguments or fields to test: remove the condition.'),
    ]);
  });
});

describe('describing a condition', () => {
  it.each([
    [{ 'when.attendees': { gt: 5 } }, 'when.attendees > 5'],
    [{ 'when.attendees': { lte: 5 } }, 'when.attendees <= 5'],
    [{ 'input.priority': { eq: 'high' } }, 'input.priority = high'],
    [{ 'input.priority': { ne: 'high' } }, 'input.priority != high'],
    [{ 'severity.level': { in: ['high', 'critical'] } }, 'severity.level in [high, critical]'],
    [{ 'incident.services': { includes: 'api' } }, 'incident.services includes api'],
    [{ 'room.projector': { eq: true } }, 'room.projector = true'],
    [{ 'extra.note': { answered: true } }, 'extra.note answered'],
    [{ 'extra.note': { answered: false } }, 'extra.note not answered'],
    [{ 'when.date': { gte: '2026-12-01' } }, 'when.date >= "2026-12-01"'],
    [{ 'input.topic': { eq: 'true' } }, 'input.topic = "true"'],
    [{ 'input.topic': { in: ['Q4 plan', null] } }, 'input.topic in ["Q4 plan", null]'],
    [
      { all: [{ 'a.b': { eq: 1 } }, { any: [{ 'c.d': { lt: 2 } }, { not: { 'e.f': { answered: true } } }] }] },
      'all(a.b = 1, any(c.d < 2, not(e.f answered)))',
    ],
  ] satisfies [Condition, string][])('%j → %s', (condition, text) => {
    expect(describeCondition(condition)).toBe(text);
  });
});
