// Load steps and end rules that cannot work are refused when the flow is defined, every problem at once,
// each with where it is and the fix.
import { type DefinitionProblem, RoundtripDefinitionError } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, field, load, type StepSpec } from '../src/index.ts';

/** The problems a declaration is refused with (it must be refused). */
function problemsOf(steps: Record<string, StepSpec>, loaders: unknown): Array<[string, string, string]> {
  try {
    defineFlowTool({
      name: 'flow',
      description: 'A flow',
      input: z.object({ orderId: z.string() }),
      steps,
      loaders: loaders as never,
      final: () => ({ text: 'done' }),
    });
  } catch (error) {
    expect(error).toBeInstanceOf(RoundtripDefinitionError);
    return (error as RoundtripDefinitionError).problems.map((p: DefinitionProblem<string>) => [p.path.join(' › '), p.message, p.fix]);
  }
  throw new Error('the declaration was accepted');
}

const findOrder = async () => ({ amount: 1 });

describe('a flow that loads is refused when', () => {
  it('a step runs a loader the flow does not have, a loader is run by no step, or is not a function', () => {
    expect(
      problemsOf({ order: load({ run: 'fndOrder' }) }, { findOrder, check: findOrder, spare: 'not a function', 'bad name': findOrder }),
    ).toEqual([
      ["tool 'flow' › loaders › 'findOrder'", 'no load step runs it.', "Run it from a step, load({ run: 'findOrder' }), or remove it."],
      [
        "tool 'flow' › loaders › 'check'",
        "'check' is the name of one of the flow's own actors.",
        'Name the loader with a letter, then letters, digits or _ (not finish, check or show): diagrams show it.',
      ],
      ["tool 'flow' › loaders › 'check'", 'no load step runs it.', "Run it from a step, load({ run: 'check' }), or remove it."],
      ["tool 'flow' › loaders › 'spare'", 'it is not a function.', 'Write it as async ({ input, answers, loaded }) => value.'],
      ["tool 'flow' › loaders › 'spare'", 'no load step runs it.', "Run it from a step, load({ run: 'spare' }), or remove it."],
      [
        "tool 'flow' › loaders › 'bad name'",
        "'bad name' is not a plain name.",
        'Name the loader with a letter, then letters, digits or _ (not finish, check or show): diagrams show it.',
      ],
      ["tool 'flow' › loaders › 'bad name'", 'no load step runs it.', "Run it from a step, load({ run: 'bad name' }), or remove it."],
      [
        "tool 'flow' › step 'order' › run",
        `it runs "fndOrder", which is not one of the flow's loaders (findOrder, check, bad name).`,
        "Run one of them (did you mean 'findOrder'?), or add it to loaders.",
      ],
    ]);
    expect(problemsOf({ order: load({ run: 'findOrder' }) }, undefined)).toEqual([
      [
        "tool 'flow' › step 'order' › run",
        'it runs "findOrder", but the flow has no loaders.',
        'Give the flow its loaders by name: loaders: { findOrder: async ({ input }) => … }.',
      ],
    ]);
  });

  it('its retries, error message or end rules are not right, or read what the flow does not know', () => {
    expect(
      problemsOf(
        {
          order: load({
            run: 'findOrder',
            retries: 1.5,
            onError: 'Could not read {{input.orderID}}: {{error}} {{reason}}',
            next: [
              { if: { 'ordr.amount': { gt: 5 } }, end: 'Too much for {{order.customer.name}} and {{input.nope}}.' },
              { goto: 'finish' },
            ],
          }),
        },
        { findOrder },
      ),
    ).toEqual([
      [
        "tool 'flow' › step 'order' › next[0] › end",
        'the placeholder {{input.nope}} reads nothing the flow knows.',
        'Use one of: input.orderId, order.….',
      ],
      [
        "tool 'flow' › step 'order' › next[0]",
        "the path 'ordr.amount' is not a field of any form or loaded by a step.",
        "Use one of: input.orderId, order.… (did you mean 'order.amount'?).",
      ],
      [
        "tool 'flow' › step 'order' › retries",
        'retries is 1.5; it is how many times to try again, a whole number from 0 to 5.',
        'Write e.g. retries: 2.',
      ],
      [
        "tool 'flow' › step 'order' › onError",
        'the placeholder {{reason}} is not a path.',
        'Write {{input.<argument>}}, {{<form>.<field>}} or {{<load step>.<key>}} (or {{error}}); templates hold no code.',
      ],
      [
        "tool 'flow' › step 'order' › onError",
        'the placeholder {{input.orderID}} reads nothing the flow knows.',
        "Use one of: input.orderId (did you mean 'input.orderId'?).",
      ],
    ]);
  });

  it('a step asking after a load goes back, with no asking step before it', () => {
    expect(
      problemsOf(
        { order: load({ run: 'findOrder' }), sure: ask({ message: 'Sure?', fields: { ok: field.boolean() }, onDecline: 'back' }) },
        { findOrder },
      ),
    ).toEqual([
      [
        "tool 'flow' › step 'sure' › onDecline",
        'no step that asks comes before it, so there is nothing to go back to.',
        "Use 'end' or 'skip' here.",
      ],
    ]);
  });
});
