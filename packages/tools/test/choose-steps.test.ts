import { type DefinitionProblem, type ElicitationSchema, RoundtripDefinitionError } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, choose, defineFlowTool, field, type StepSpec } from '../src/index.ts';
import { flowMachineConfig } from '../src/internal.ts';
import { conversationsOf } from '../src/testing/index.ts';
import { accept, cancel, converse, decline } from './conversation.ts';

const signUp = defineFlowTool({
  name: 'sign_up',
  description: 'Signs a team up for a plan',
  input: z.object({ team: z.string() }),
  steps: (flow) =>
    flow
      .choose('plan', {
        message: 'Which plan for {{input.team}}?',
        title: 'Plan',
        options: { basic: { label: 'Basic', next: 'seats' }, pro: { label: 'Pro, billed monthly', next: 'phone' } },
      })
      .ask('seats', { message: 'How many seats?', fields: { seats: field.integer({ min: 1, title: 'Seats' }) }, next: 'confirm' })
      .ask('phone', { message: 'A number sales can call?', fields: { phone: field.text({ title: 'Phone' }) }, onDecline: 'back' })
      .review('confirm', { message: 'Sign {{input.team}} up for {{plan.choice}}?' }),
  final: ({ input, answers }) => ({
    text: `${input.team}: ${answers.plan.choice}, ${answers.seats ? `${answers.seats.seats} seats` : `call ${answers.phone?.phone}`}`,
  }),
});

const start = () => converse(signUp, { team: 'Ops' });

describe('a choose step', () => {
  it('asks one select, titled, its options labelled', async () => {
    const c = await start();
    expect(Object.keys(c.asked)).toEqual(['plan']);
    expect(c.asked.plan!.message).toBe('Which plan for Ops?');
    const schema = (c.asked.plan as { requestedSchema: ElicitationSchema }).requestedSchema;
    expect(Object.keys(schema.properties)).toEqual(['choice']);
    expect(schema.properties.choice).toMatchObject({
      title: 'Plan',
      oneOf: [
        { const: 'basic', title: 'Basic' },
        { const: 'pro', title: 'Pro, billed monthly' },
      ],
    });
  });

  it("goes where the chosen option's next says, and keeps the answer under the step's name", async () => {
    const basic = await (await start()).answer({ plan: accept({ choice: 'basic' }) });
    expect(Object.keys(basic.asked)).toEqual(['seats']);
    const basicDone = await (await basic.answer({ seats: accept({ seats: 3 }) })).answer({ confirm: accept({ choice: 'confirm' }) });
    expect(basicDone.text()).toBe('Ops: basic, 3 seats');

    const pro = await (await start()).answer({ plan: accept({ choice: 'pro' }) });
    expect(Object.keys(pro.asked)).toEqual(['phone']);
    const review = await pro.answer({ phone: accept({ phone: '555 0100' }) });
    expect(review.asked.confirm!.message).toContain('Sign Ops up for pro?');
    expect((await review.answer({ confirm: accept({ choice: 'confirm' }) })).text()).toBe('Ops: pro, call 555 0100');
  });

  it('refuses an answer outside its options and asks again', async () => {
    const again = await (await start()).answer({ plan: accept({ choice: 'gold' }) });
    expect(Object.keys(again.asked)).toEqual(['plan']);
    expect(again.asked.plan!.message).toBe(
      'Which plan for Ops?\n\nYour last answer was not accepted: choice: Invalid option: expected one of "basic"|"pro". Please answer again.',
    );
    expect(Object.keys((await again.answer({ plan: accept({ choice: 'pro' }) })).asked)).toEqual(['phone']);
  });

  it('ends the flow when declined or cancelled (the default), and is gone back to from the step after it', async () => {
    for (const reply of [decline, cancel]) {
      const ended = await (await start()).answer({ plan: reply });
      expect(ended.text()).toMatch(/nothing was done, because the question of step 'plan' was (declined|cancelled)/);
    }
    const phone = await (await start()).answer({ plan: accept({ choice: 'pro' }) });
    const back = await phone.answer({ phone: decline });
    expect(Object.keys(back.asked)).toEqual(['plan']);
  });

  it("is shown by the review with the option's label, and can be changed there", async () => {
    const seats = await (await start()).answer({ plan: accept({ choice: 'basic' }) });
    const review = await seats.answer({ seats: accept({ seats: 2 }) });
    const message = review.asked.confirm!.message;
    expect(message).toContain('- Plan: Basic\n- Seats: 2');
    const schema = (review.asked.confirm as { requestedSchema: ElicitationSchema }).requestedSchema;
    expect(JSON.stringify(schema.properties.choice)).toContain('Change: Plan');
    // changed to pro: the other way is taken, and the seats are not part of it
    const changed = await review.answer({ confirm: accept({ choice: 'change_plan' }) });
    const phone = await changed.answer({ plan: accept({ choice: 'pro' }) });
    expect(Object.keys(phone.asked)).toEqual(['phone']);
  });

  it('is written as one JSON rule per option, and walked by conversationsOf both ways', () => {
    const plan = (flowMachineConfig(signUp).states as Record<string, { on: Record<string, unknown> }>).plan!;
    expect(plan.on['plan.accept']).toEqual([
      {
        target: 'seats',
        guard: { type: 'when', params: { condition: { 'plan.choice': { eq: 'basic' } } } },
        actions: [{ type: 'store', params: { form: 'plan' } }],
      },
      { target: 'phone', actions: [{ type: 'store', params: { form: 'plan' } }] },
    ]);
    const finals = conversationsOf(signUp, { input: { team: 'Ops' } }).flatMap((c) => (c.end.status === 'done' ? [c.end.answers] : []));
    expect(finals).toContainEqual(expect.objectContaining({ plan: { choice: 'basic' }, seats: expect.anything() }));
    expect(finals).toContainEqual(expect.objectContaining({ plan: { choice: 'pro' }, phone: expect.anything() }));
  });
});

/** The problems a declaration is refused with (it must be refused), as `where: what / fix`. */
function problemsOf(steps: Record<string, StepSpec>): string[] {
  try {
    defineFlowTool({ name: 'flow', description: 'A flow', input: z.object({}), steps, final: () => ({ text: 'done' }) });
  } catch (error) {
    expect(error).toBeInstanceOf(RoundtripDefinitionError);
    return (error as RoundtripDefinitionError).problems.map(
      (p: DefinitionProblem<string>) => `${p.path.slice(1).join(' › ')}: ${p.message} / ${p.fix}`,
    );
  }
  throw new Error('the declaration was accepted');
}

const wrap = ask({ message: 'Anything else?', fields: { ok: field.boolean() } });

describe('a choose step that cannot work is refused, with the fix', () => {
  it('offers fewer than two options', () => {
    expect(problemsOf({ plan: choose({ message: 'Plan?', options: {} }), wrap })).toEqual([
      "step 'plan' › options: it offers no options. / Give it at least two options, each with its label and the step it goes to: options: { basic: { label: 'Basic', next: 'billing' }, pro: { label: 'Pro', next: 'sales' } }.",
    ]);
    expect(problemsOf({ plan: choose({ message: 'Plan?', options: { solo: { label: 'Solo', next: 'wrap' } } }), wrap })[0]).toMatch(
      /^step 'plan' › options: it offers one option \('solo'\), so there is nothing to choose\. \/ Give it at least two options/,
    );
  });

  it('has an option without a label, two options with one label, or an option going to no step', () => {
    const options = {
      a: { label: 'Same', next: 'wrap' },
      b: { label: 'Same', next: 'finish' },
      c: { label: '', next: 'nowhere' },
    };
    expect(problemsOf({ plan: choose({ message: 'Plan?', options }), wrap })).toEqual([
      "step 'plan' › option 'b' › label: options 'a' and 'b' share the label 'Same'. / Give each option its own label, so users can tell them apart.",
      "step 'plan' › option 'c' › label: it has no label. / Give every option the text the user reads: { label: 'Pro', next: … }.",
      "step 'plan' › option 'c' › next: it goes to 'nowhere', which is not a step. / Go to one of: plan, wrap, finish.",
    ]);
  });

  it('would skip its question, or reads what the flow does not know in its message', () => {
    const options = { a: { label: 'A', next: 'wrap' }, b: { label: 'B', next: 'finish' } };
    const skipping = { onDecline: 'skip' } as unknown as { onDecline: 'end' };
    expect(problemsOf({ plan: choose({ message: 'Plan for {{input.tem}}?', options, ...skipping }), wrap })).toEqual([
      "step 'plan' › onDecline: 'skip' would go on without a choice, and the choice is what picks the next step. / Write onDecline: 'end' (the default) or 'back'.",
      "step 'plan' › message: the placeholder {{input.tem}} reads nothing the flow knows. / Use one of: (no paths).",
    ]);
  });
});
