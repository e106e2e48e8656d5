import { type DefinitionProblem, RoundtripDefinitionError } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, askAll, defineFlowTool, field, form, type Leave, review, type StepSpec } from '../src/index.ts';

/** The problems a declaration is refused with (it must be refused). */
function problemsOf(steps: Record<string, StepSpec>, input: z.ZodObject = z.object({ topic: z.string() })): DefinitionProblem<string>[] {
  try {
    defineFlowTool({ name: 'flow', description: 'A flow', input, steps, final: () => ({ text: 'done' }) });
  } catch (error) {
    expect(error).toBeInstanceOf(RoundtripDefinitionError);
    return [...(error as RoundtripDefinitionError).problems];
  }
  throw new Error('the declaration was accepted');
}

const yes = (message = 'Go on?') => ask({ message, fields: { ok: field.boolean() } });

describe('a declaration that cannot work is refused, with every problem at once', () => {
  it('names steps that go nowhere, steps nothing leads to, and rules that can all fail', () => {
    const problems = problemsOf({
      first: ask({ message: 'Go?', fields: { ok: field.boolean() }, next: [{ if: { 'first.ok': { eq: true } }, goto: 'nowhere' }] }),
      lonely: yes(),
    });
    expect(problems).toEqual([
      {
        path: ["tool 'flow'", "step 'first'", 'next[0]'],
        code: 'invalid_step',
        message: "it goes to 'nowhere', which is not a step.",
        fix: 'Go to one of: first, lonely, finish.',
      },
      {
        path: ["tool 'flow'", "step 'first'", 'next'],
        code: 'invalid_step',
        message: 'no rule applies when every condition fails, so the answer would go nowhere.',
        fix: "End the rules with one without 'if', e.g. { goto: 'review' }.",
      },
      {
        path: ["tool 'flow'", "step 'lonely'"],
        code: 'invalid_step',
        message: 'no step leads to it.',
        fix: "Point a step's next at it, or remove it.",
      },
      {
        path: ["tool 'flow'", "step 'first'"],
        code: 'invalid_step',
        message: 'no way leads from it to the final action.',
        fix: "Give it a next rule that reaches 'finish'.",
      },
    ]);
  });

  it('refuses names that are not plain, reserved names, and a name used twice', () => {
    const problems = problemsOf({
      'bad name': yes(),
      input: yes(),
      both: askAll({
        forms: {
          twice: form({ message: 'A?', fields: { a: field.boolean() } }),
          input: form({ message: 'B?', fields: { b: field.boolean() } }),
        },
      }),
      twice: yes(),
    });
    expect(problems.map((p) => `${p.path.join(' › ')}: ${p.message}`)).toEqual([
      "tool 'flow' › step 'bad name': the step name 'bad name' is not a plain name.",
      "tool 'flow' › step 'input': 'input' is a reserved name.",
      "tool 'flow' › step 'both' › form 'twice': the name 'twice' is used twice.",
      "tool 'flow' › step 'both' › form 'input': 'input' is a reserved name.",
    ]);
  });

  it('checks templates and conditions against the input and the forms', () => {
    const problems = problemsOf({
      when: ask({
        message: 'When is {{input.topik}}, {{ when.date }} or {{1 + 1}}?',
        fields: { date: field.text({ format: 'date' }), count: field.integer() },
        next: [{ if: { 'when.cont': { gt: 5 } }, goto: 'finish' }, { goto: 'finish' }],
      }),
    });
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      ['invalid_condition', expect.stringContaining("'when.cont'")],
      ['invalid_template', 'the placeholder {{1 + 1}} is not a path.'],
      ['invalid_template', 'the placeholder {{input.topik}} reads nothing the flow knows.'],
    ]);
    expect(problems[2]!.fix).toBe("Use one of: input.topic (did you mean 'input.topic'?).");
  });

  it("suggests for a placeholder only the paths answered before its step, with a 'did you mean'", () => {
    const problems = problemsOf({
      trip: ask({ message: 'Where to, {{input.topic}}?', fields: { destination: field.text(), nights: field.integer() } }),
      dates: ask({ message: 'When do you leave for {{trip.destinaton}}?', fields: { from: field.text({ format: 'date' }) } }),
      group: ask({ message: 'Who travels to {{trip.destination}} on {{dates.form}}?', fields: { size: field.integer() } }),
      confirm: review({ message: 'Book {{group.sise}}?' }),
    });
    expect(problems.map((p) => [p.path.join(' › '), p.fix])).toEqual([
      [
        "tool 'flow' › step 'dates' › message",
        "Use one of: input.topic, trip.destination, trip.nights (did you mean 'trip.destination'?).",
      ],
      [
        "tool 'flow' › step 'group' › message",
        "Use one of: input.topic, trip.destination, trip.nights, dates.from (did you mean 'dates.from'?).",
      ],
      [
        "tool 'flow' › step 'confirm' › message",
        "Use one of: input.topic, trip.destination, trip.nights, dates.from, group.size (did you mean 'group.size'?).",
      ],
    ]);
  });

  it("refuses ways to leave a step that cannot work: 'back' from the first step, skipping a review, unknown ones", () => {
    const problems = problemsOf({
      first: ask({ message: 'Go?', fields: { ok: field.boolean() }, onDecline: 'back' }),
      other: ask({ message: 'Go?', fields: { ok: field.boolean() }, onCancel: 'later' as Leave }),
      check: review({ message: 'Sure?', onCancel: 'skip' }),
    });
    expect(problems.map((p) => `${p.path.join(' › ')}: ${p.message}`)).toEqual([
      "tool 'flow' › step 'first' › onDecline: no step comes before it, so there is nothing to go back to.",
      "tool 'flow' › step 'other' › onCancel: 'later' is not a way to leave a step.",
      "tool 'flow' › step 'check' › onCancel: a review cannot be skipped.",
    ]);
  });

  it('refuses a flow whose shortest way takes more rounds than the official client allows (10)', () => {
    const steps = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`q${i + 1}`, yes(`Question ${i + 1}?`)]));
    expect(problemsOf(steps)).toEqual([
      {
        path: ["tool 'flow'", 'steps'],
        code: 'round_budget',
        message: 'the shortest way to the final action takes 11 rounds; the official TypeScript client stops after 10.',
        fix: 'Ask independent questions together with askAll, or merge forms, so the flow fits in 10 rounds.',
      },
    ]);
    // ten fit
    delete steps.q11;
    expect(() =>
      defineFlowTool({ name: 'flow', description: 'A flow', input: z.object({}), steps, final: () => ({ text: '' }) }),
    ).not.toThrow();
  });

  it('refuses forms without fields, fields that are not zod schemas, and no steps at all', () => {
    expect(
      problemsOf({
        empty: ask({ message: 'Nothing?', fields: {} }),
        odd: ask({ message: 'Odd?', fields: { n: 5 as unknown as z.ZodNumber } }),
      }).map((p) => `${p.path.join(' › ')}: ${p.message}`),
    ).toEqual(["tool 'flow' › step 'empty': it has no fields.", "tool 'flow' › step 'odd' › field 'n': it is not a zod schema."]);
    expect(problemsOf({}).map((p) => p.message)).toEqual(['the flow has no steps.']);
  });

  it('passes on what the engine refuses in a form, naming the flow', () => {
    const problems = problemsOf({
      deep: ask({ message: 'Deep?', fields: { nested: z.object({ a: z.string() }) as unknown as z.ZodString } }),
    });
    expect(problems).toEqual([expect.objectContaining({ code: 'unexpressible_schema', path: ["tool 'flow'", "question 'deep'"] })]);
  });
});
