// The named guards and actions of a declared flow's config, typed by one params map (flow-params.ts): a
// reference to a name the map lacks, or with other params, does not compile, nor does an implementation
// object with a name missing, one too many or other params. Checked by `npx tsc -p tsconfig.json --noEmit`
// at the repository root (every `@ts-expect-error` sits on the line that must fail); vitest runs the rest.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  ActionImplementations,
  ActionName,
  FlowGuards,
  FormParams,
  GuardImplementations,
  GuardName,
  StepParams,
} from '../src/flow-params.ts';
import { act, guard } from '../src/flow-transitions.ts';

/** Never called: what an implementation object may be, checked by the compiler only. */
function implementations(guards: GuardImplementations, actions: ActionImplementations): unknown[] {
  const { clientKnown: _left, ...withoutOne } = guards;
  const { keepShown: _work, ...withoutWork } = actions;
  return [
    { ...guards, cameFrom: (_args: unknown, { step }: StepParams) => step === 'a' } satisfies GuardImplementations,
    // @ts-expect-error: clientKnown is in the map, so it must be implemented
    withoutOne satisfies GuardImplementations,
    // @ts-expect-error: answred is not in the map
    { ...guards, answred: () => true } satisfies GuardImplementations,
    // @ts-expect-error: cameFrom is given a step, not a form
    { ...guards, cameFrom: (_args: unknown, { form }: FormParams) => form === 'a' } satisfies GuardImplementations,
    // @ts-expect-error: keepShown (the invoked work's) is in the map too
    withoutWork satisfies ActionImplementations,
    // @ts-expect-error: remember is not in the map
    { ...actions, remember: () => undefined } satisfies ActionImplementations,
    // @ts-expect-error: store is given a form, not a step
    { ...actions, store: (_args: unknown, { step }: StepParams) => void step } satisfies ActionImplementations,
    // @ts-expect-error: takeInput is given no params
    { ...actions, takeInput: (_args: unknown, { step }: StepParams) => void step } satisfies ActionImplementations,
  ];
}

describe('references to named guards and actions', () => {
  it('name only what the map names, with its params', () => {
    expectTypeOf(implementations).toBeFunction();
    expectTypeOf<Parameters<typeof guard>[0]>().toEqualTypeOf<GuardName>();
    expectTypeOf<Parameters<typeof act>[0]>().toEqualTypeOf<ActionName>();
    expectTypeOf<FlowGuards['answerFails']>().toEqualTypeOf<FormParams>();
    guard('answerFails', { form: 'when' });
    act('runFinal');
    act('runFinal', { actor: 'refund' });
    // @ts-expect-error: a misspelt guard
    guard('answerFail', { form: 'when' });
    // @ts-expect-error: a misspelt action
    act('stor', { form: 'when' });
    // @ts-expect-error: answerFails is about a form, not a step
    guard('answerFails', { step: 'when' });
    // @ts-expect-error: answerFails needs its form
    guard('answerFails');
    // @ts-expect-error: clientKnown takes no params
    guard('clientKnown', { step: 'when' });
    // @ts-expect-error: takeInput takes no params
    act('takeInput', {});
    // @ts-expect-error: an end is declined, cancelled, abandoned, stopped or failed
    act('endFlow', { step: 'when', how: 'gone' });
    // @ts-expect-error: a review's choice names its option
    guard('reviewChoice', { condition: { 'when.ok': { eq: true } } });
  });

  it('are written as the config has always had them', () => {
    // a guard without params has empty ones, an action without params none; params are kept as given
    expect(guard('clientKnown')).toEqual({ type: 'clientKnown', params: {} });
    expect(Object.keys(act('takeInput'))).toEqual(['type']);
    expect(JSON.stringify(act('endFlow', { step: 'when', how: 'stopped', message: 'No.' }))).toBe(
      '{"type":"endFlow","params":{"step":"when","how":"stopped","message":"No."}}',
    );
    expect(JSON.stringify(guard('answeredBefore', { step: 'when', condition: { 'when.n': { gt: 1 } } }))).toBe(
      '{"type":"answeredBefore","params":{"step":"when","condition":{"when.n":{"gt":1}}}}',
    );
  });
});
