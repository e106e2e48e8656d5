// A resource definition is a fixed resource or a template, told apart by which of `uri` and `uriTemplate` is set:
// a discriminated union, so code that reads one after checking the other needs no assertion. Type tests (tsc at
// the repository root) and what defineResource makes of a URI with and without variables.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { setup } from 'xstate';
import { defineResource, type ResourceDefinition } from '../src/index.ts';

const machine = setup({ types: { output: {} as { text: string } } }).createMachine({
  id: 'fixed',
  initial: 'done',
  states: { done: { type: 'final' } },
  output: () => ({ text: 'hello' }),
});
const define = (uri: string) => defineResource({ uri, name: 'r', description: 'd', machine, contents: (o) => o.text });

describe('resource definition kinds', () => {
  it('is a fixed resource for a URI without variables and a template for one with', () => {
    expect(define('notes://today')).toMatchObject({ uri: 'notes://today', uriTemplate: undefined });
    expect(define('notes://{day}')).toMatchObject({ uri: undefined, uriTemplate: 'notes://{day}' });
  });

  it('narrows on either field', () => {
    const label = (resource: ResourceDefinition): string => (resource.uri === undefined ? resource.uriTemplate : resource.uri);
    expectTypeOf<Extract<ResourceDefinition, { uri: string }>['uriTemplate']>().toEqualTypeOf<undefined>();
    expectTypeOf<Extract<ResourceDefinition, { uriTemplate: string }>['uri']>().toEqualTypeOf<undefined>();
    expect([define('notes://today'), define('notes://{day}')].map(label)).toEqual(['notes://today', 'notes://{day}']);
  });
});
