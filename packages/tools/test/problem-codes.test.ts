// Type tests (checked by `npx tsc -p tsconfig.json --noEmit` at the repository root) and what they stand
// for at run time: the engine's problem codes are its own; the tools add the codes of declared flows
// (FlowProblemCode) without the engine naming them, and a flow's problems carry either.
import { type DefinitionProblem, type DefinitionProblemCode, RoundtripDefinitionError } from '@roundtrip/engine';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, type FlowProblem, type FlowProblemCode, field } from '../src/index.ts';

describe('problem codes', () => {
  it("keeps the flows' codes out of the engine's union, and adds them to a flow's problems", () => {
    expectTypeOf<FlowProblemCode>().toEqualTypeOf<'invalid_step' | 'invalid_condition' | 'invalid_template' | 'round_budget'>();
    expectTypeOf<FlowProblemCode>().not.toExtend<DefinitionProblemCode>();
    expectTypeOf<FlowProblem>().toEqualTypeOf<DefinitionProblem<DefinitionProblemCode | FlowProblemCode>>();
    expectTypeOf<FlowProblem['code']>().toEqualTypeOf<DefinitionProblemCode | FlowProblemCode>();
    // the engine's own problems take only its codes; the error it throws carries any package's
    expectTypeOf<DefinitionProblem['code']>().toEqualTypeOf<DefinitionProblemCode>();
    expectTypeOf<DefinitionProblemCode | FlowProblemCode>().toExtend<RoundtripDefinitionError['code']>();
    expectTypeOf<RoundtripDefinitionError['code']>().toExtend<string>();
    const caught: unknown = new RoundtripDefinitionError([{ path: ['x'], code: 'invalid_step', message: 'm.', fix: 'f.' }]);
    if (caught instanceof RoundtripDefinitionError) expectTypeOf(caught.code).not.toBeAny();
    // @ts-expect-error 'invalid_step' is a code of the tools, not of the engine
    const engineOnly: DefinitionProblem = { path: [], code: 'invalid_step', message: '', fix: '' };
    const flowProblem: FlowProblem = { ...engineOnly, code: 'invalid_step' };
    expect(flowProblem.code).toBe('invalid_step');
  });

  it("gives where a problem is as segments, printed joined with ' › '", () => {
    expectTypeOf<DefinitionProblem['path']>().toEqualTypeOf<readonly string[]>();
    let error: unknown;
    try {
      defineFlowTool({
        name: 'flow',
        description: 'A flow',
        input: z.object({}),
        steps: {
          first: ask({
            message: 'Go?',
            fields: { ok: field.boolean() },
            next: [{ if: { all: [{ 'first.okay': { eq: true } }] }, goto: 'finish' }, { goto: 'finish' }],
          }),
        },
        final: () => ({ text: 'done' }),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RoundtripDefinitionError);
    const refused = error as RoundtripDefinitionError;
    // the condition's own place inside it is a segment of its own
    expect(refused.problems).toMatchObject([{ path: ["tool 'flow'", "step 'first'", 'next[0]', 'all[0]'], code: 'invalid_condition' }]);
    expect(refused.code).toBe('invalid_condition');
    const [problem] = refused.problems;
    expect(refused.message).toBe(`tool 'flow' › step 'first' › next[0] › all[0]: ${problem?.message} Fix: ${problem?.fix}`);
  });
});
