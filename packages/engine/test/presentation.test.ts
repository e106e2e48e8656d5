// How a definition is presented (presentation.ts): a library that makes definitions attaches a view, anyone reads it
// back (fresh on every read), a hand-written definition has none, and an object no define function made is refused.
import { describe, expect, it } from 'vitest';
import { presentationOf, setPresentation } from '../src/index.ts';
import { makeSubmitTool } from './adversarial-tool.ts';

describe('definition presentation', () => {
  it('is undefined for a definition written by hand, and for anything else', () => {
    expect(presentationOf(makeSubmitTool({ runs: 0 }))).toBeUndefined();
    expect(presentationOf({})).toBeUndefined();
  });

  it('gives back the view a library attached, made again on every read', () => {
    const tool = makeSubmitTool({ runs: 0 });
    let made = 0;
    setPresentation(tool, () => {
      made++;
      return { config: { id: 'submit', initial: 'asking' }, conditions: { '{"a":1}': 'a is 1' } };
    });
    expect(made).toBe(0);
    expect(presentationOf(tool)).toEqual({ config: { id: 'submit', initial: 'asking' }, conditions: { '{"a":1}': 'a is 1' } });
    expect(presentationOf(tool)).not.toBe(presentationOf(tool));
    expect(made).toBe(3);
  });

  it('refuses to attach a view to an object no define function made', () => {
    expect(() => setPresentation({ name: 'forged' }, () => ({ config: {} }))).toThrow(TypeError);
  });
});
