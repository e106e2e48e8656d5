// A choose step's types: its answer is `{ choice }`, the union of its options' values, for later steps,
// conditions and the final action; an option going to a step the flow does not declare, or a `skip`, does
// not compile. Checked by `npx tsc -p tsconfig.json --noEmit` at the repository root (every
// `@ts-expect-error` sits on the line that must fail); vitest runs the rest.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type AnswersOf, ask, choose, defineFlowTool, field } from '../src/index.ts';

const input = z.object({ team: z.string() });
const options = { basic: { label: 'Basic', next: 'seats' }, pro: { label: 'Pro', next: 'finish' } } as const;

describe('a choose step, typed', () => {
  it('gives later steps and the final action its answer as the union of its options', () => {
    defineFlowTool({
      name: 'sign_up',
      description: 'Signs up',
      input,
      steps: (flow) =>
        flow.choose('plan', { message: 'Plan for {{input.team}}?', options }).ask('seats', {
          message: 'Seats for {{plan.choice}}?',
          fields: { seats: field.integer() },
          check: ({ answers }) => {
            expectTypeOf(answers).toEqualTypeOf<{ plan: { readonly choice: 'basic' | 'pro' } }>();
            return undefined;
          },
          next: [{ if: { 'plan.choice': { eq: 'pro' } }, end: 'Sales will call.' }, { goto: 'finish' }],
        }),
      final: ({ answers }) => {
        // the choice is on every way; the step after it is not (a choice branches)
        expectTypeOf(answers).toEqualTypeOf<{ plan: { readonly choice: 'basic' | 'pro' }; seats?: { seats: number } }>();
        return { text: answers.plan.choice };
      },
    });
  });

  it('refuses an option going to a step the flow does not declare, a skip, and a test its values cannot pass', () => {
    // refused when the flow is defined too (a record of steps is checked only then)
    const missing = () =>
      defineFlowTool({
        name: 'sign_up',
        description: 'Signs up',
        input,
        // @ts-expect-error: a choice goes to 'billing', which is not a step
        steps: (flow) =>
          flow.choose('plan', {
            message: 'Plan?',
            options: { basic: { label: 'Basic', next: 'billing' }, pro: { label: 'Pro', next: 'finish' } },
          }),
        final: () => ({ text: 'ok' }),
      });
    expect(missing).toThrow("option 'basic' › next: it goes to 'billing', which is not a step.");
    const refused = () =>
      defineFlowTool({
        name: 'sign_up',
        description: 'Signs up',
        input,
        steps: (flow) =>
          flow
            // @ts-expect-error: a choice cannot be skipped (nothing would pick the next step)
            .choose('plan', { message: 'Plan?', options, onDecline: 'skip' })
            .ask('seats', {
              message: 'Seats?',
              fields: { seats: field.integer() },
              // @ts-expect-error: 'gold' is not one of the options
              next: [{ if: { 'plan.choice': { eq: 'gold' } }, goto: 'finish' }, { goto: 'finish' }],
            }),
        final: () => ({ text: 'ok' }),
      });
    expect(refused).toThrow(/onDecline: 'skip' would go on without a choice[\s\S]*'gold'/);
  });

  it('types a record of steps made with choose() too', () => {
    const steps = {
      plan: choose({ message: 'Plan?', options: { basic: { label: 'Basic', next: 'seats' }, pro: { label: 'Pro', next: 'finish' } } }),
      seats: ask({ message: 'Seats?', fields: { seats: field.integer() } }),
    };
    expectTypeOf<AnswersOf<typeof steps>>().toEqualTypeOf<{
      plan?: { readonly choice: 'basic' | 'pro' };
      seats?: { seats: number };
    }>();
  });
});
