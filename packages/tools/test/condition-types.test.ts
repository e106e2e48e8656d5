// Type tests: checked by `npx tsc -p tsconfig.json --noEmit` at the repository root. Every
// `@ts-expect-error` sits on the line that must fail; tsc reports any that no longer fails.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { type Condition, type ConditionPath, type ConditionValue, evaluateCondition, type PathTest } from '../src/conditions.ts';

// forms are optional, as a flow's answers are (a form not asked is absent)
interface Values {
  input: { topic: string; priority: 'low' | 'high'; note?: string | undefined };
  when?: { date: string; attendees: number; budget: number | null };
  severity?: { level: 'high' | 'critical' };
  incident?: { services: ('api' | 'web')[]; tags: string[] };
  room?: { projector: boolean };
}
type C = Condition<Values>;

describe('typed paths', () => {
  it('are form.field for every form and input', () => {
    expectTypeOf<ConditionPath<Values>>().toEqualTypeOf<
      | 'input.topic'
      | 'input.priority'
      | 'input.note'
      | 'when.date'
      | 'when.attendees'
      | 'when.budget'
      | 'severity.level'
      | 'incident.services'
      | 'incident.tags'
      | 'room.projector'
    >();
    expectTypeOf<ConditionPath>().toEqualTypeOf<`${string}.${string}`>();
  });

  it('take known paths only, one per condition', () => {
    const fine: C[] = [{ 'when.attendees': { gt: 5 } }, { 'input.note': { answered: false } }];
    // @ts-expect-error: not a field of any form
    const typo: C = { 'when.atendees': { gt: 5 } };
    // @ts-expect-error: a bare field is not a path
    const bare: C = { attendees: { gt: 5 } };
    // @ts-expect-error: two paths in one condition
    const two: C = { 'when.attendees': { gt: 5 }, 'input.topic': { eq: 'Plan' } };
    // @ts-expect-error: a path beside a combination
    const mixed: C = { all: [{ 'room.projector': { eq: true } }], 'input.topic': { eq: 'Plan' } };
    expect([fine, typo, bare, two, mixed]).toHaveLength(5);
  });
});

describe('typed tests', () => {
  it('offer the operators that fit each field, with operands of its type', () => {
    expectTypeOf<{ gt: 5 }>().toExtend<PathTest<number>>();
    expectTypeOf<{ gt: 5 }>().not.toExtend<PathTest<boolean>>();
    expectTypeOf<{ eq: 'high' }>().toExtend<PathTest<'low' | 'high'>>();
    expectTypeOf<{ eq: 'hihg' }>().not.toExtend<PathTest<'low' | 'high'>>();
    expectTypeOf<{ includes: 'api' }>().toExtend<PathTest<('api' | 'web')[]>>();
    expectTypeOf<{ eq: 'api' }>().not.toExtend<PathTest<('api' | 'web')[]>>();
    expectTypeOf<{ answered: true }>().toExtend<PathTest<{ nested: true }>>();
    expectTypeOf<{ in: readonly ConditionValue[] }>().toExtend<PathTest>();
  });

  it('accept what fits', () => {
    const fine: C[] = [
      { 'when.attendees': { gte: 5 } },
      { 'when.budget': { lt: 1000 } },
      { 'when.budget': { eq: null } },
      { 'when.date': { gte: '2026-12-01' } },
      { 'input.priority': { eq: 'high' } },
      { 'severity.level': { in: ['high', 'critical'] } },
      { 'incident.services': { includes: 'api' } },
      { 'incident.tags': { includes: 'anything' } },
      { 'room.projector': { ne: false } },
      { all: [{ 'input.topic': { eq: 'Plan' } }, { any: [{ not: { 'when.date': { answered: true } } }] }] },
    ];
    expect(fine).toHaveLength(10);
  });

  it('refuse what does not', () => {
    const wrong: C[] = [
      // @ts-expect-error: gt on a yes/no field
      { 'room.projector': { gt: 5 } },
      // @ts-expect-error: gt on a choice, whose order means nothing
      { 'severity.level': { gt: 'high' } },
      // @ts-expect-error: gt on a number field with text
      { 'when.attendees': { gt: '5' } },
      // @ts-expect-error: not one of the options
      { 'severity.level': { eq: 'hihg' } },
      // @ts-expect-error: not one of the options, in a list
      { 'severity.level': { in: ['high', 'urgent'] } },
      // @ts-expect-error: eq on a list field
      { 'incident.services': { eq: 'api' } },
      // @ts-expect-error: includes on a text field
      { 'input.topic': { includes: 'P' } },
      // @ts-expect-error: includes an item that is not an option
      { 'incident.services': { includes: 'db' } },
      // @ts-expect-error: two operators in one test
      { 'when.attendees': { gt: 5, lt: 50 } },
      // @ts-expect-error: not an operator
      { 'when.attendees': { above: 5 } },
      // @ts-expect-error: answered takes true or false
      { 'input.note': { answered: 'yes' } },
      // @ts-expect-error: all takes a list
      { all: { 'input.topic': { eq: 'Plan' } } },
      // @ts-expect-error: a wrong path deep inside
      { any: [{ not: { 'room.beamer': { eq: true } } }] },
    ];
    expect(wrong).toHaveLength(13);
  });
});

describe('the wide Condition', () => {
  it('takes any form.field path and any test', () => {
    const wide: Condition[] = [{ 'a.b': { gt: 'x' } }, { any: [{ 'c.d': { includes: null } }] }, { not: { 'e.f': { in: [1, 'two'] } } }];
    // @ts-expect-error: a path has a form and a field
    const bare: Condition = { attendees: { gt: 5 } };
    // @ts-expect-error: two operators in one test
    const two: Condition = { 'a.b': { gt: 1, lt: 2 } };
    expect([wide, bare, two]).toHaveLength(3);
  });

  it('takes every typed condition, as evaluateCondition does', () => {
    expectTypeOf<C>().toExtend<Condition>();
    const typed: C = { all: [{ 'when.attendees': { gt: 5 } }, { not: { 'room.projector': { eq: true } } }] };
    expect(evaluateCondition(typed, { input: {}, when: { attendees: 8 } })).toBe(true);
  });
});
