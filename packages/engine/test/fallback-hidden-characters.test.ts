// The model-mediated fallback repeats the tool's arguments and its question to the model: a client's
// hidden characters (bidi overrides, line separators, ESC, CR) are shown as escapes, never raw. (NUL is
// refused with the arguments: nul-characters.test.ts.)
import { describe, expect, it } from 'vitest';
import { continuationIn, textOf, tripTool } from './fallback-tools.ts';
import { complete, makeEngine } from './support.ts';

const HOSTILE = 'Ada\u202eevil\u2028line\u2029para\u001b[2Jesc\r\nnew\u200bzw\u0085c1';
/** Every hidden character but the line feeds the instructions are written with. */
const RAW_HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** The arguments the instructions repeat, as the model reads them back. */
function repeatedArguments(text: string): unknown {
  const json = /the same arguments as before \((.*)\) plus:$/m.exec(text)?.[1];
  expect(json, text).toBeDefined();
  return JSON.parse(json!);
}

describe('model-fallback text with hidden characters in the arguments', () => {
  it('shows each of them as a JSON escape, in the repeated arguments and in the question', async () => {
    const { call } = makeEngine([tripTool()]);
    const text = textOf(await call({ name: 'plan_trip', arguments: { traveller: HOSTILE }, capabilities: undefined }));
    expect(text.replaceAll('\n', '')).not.toMatch(RAW_HIDDEN);
    expect(text).toContain('({"traveller":"Ada\\u202eevil\\u2028line\\u2029para\\u001b[2Jesc\\r\\nnew\\u200bzw\\u0085c1"})');
    expect(text).toContain("Question 'city': Where does Ada\\u202eevil\\u2028line\\u2029para\\u001b[2Jesc\\u000d");
  });

  it('repeats them so that they parse back to the very arguments, and the call goes on', async () => {
    const { call } = makeEngine([tripTool()]);
    const first = textOf(await call({ name: 'plan_trip', arguments: { traveller: HOSTILE }, capabilities: undefined }));
    const again = repeatedArguments(first);
    expect(again).toEqual({ traveller: HOSTILE });
    const second = textOf(
      await call({
        name: 'plan_trip',
        arguments: { ...(again as object), answers: { city: { city: 'osl' } }, continuation: continuationIn(first) },
        capabilities: undefined,
      }),
    );
    expect(second).toContain("Question 'dates'");
  });

  it('does not repeat arguments whose escaped form is long: the model sends its own again', async () => {
    const { call } = makeEngine([tripTool()]);
    const text = textOf(await call({ name: 'plan_trip', arguments: { traveller: '\u202e'.repeat(100) }, capabilities: undefined }));
    expect(text).toContain('call plan_trip again with the same arguments as before, unchanged, plus:');
    expect(text.length).toBeLessThan(2000);
  });

  it('keeps ordinary arguments as JSON.stringify writes them', async () => {
    const { call } = makeEngine([tripTool()]);
    const outcome = await call({ name: 'plan_trip', arguments: { traveller: 'Zoë 東京 🎉' }, capabilities: undefined });
    expect(complete(outcome).result.isError).toBeUndefined();
    expect(textOf(outcome)).toContain('({"traveller":"Zoë 東京 🎉"})');
  });
});
