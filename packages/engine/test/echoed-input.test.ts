// The engine's own errors repeat what a client sent (an unknown name, a URI, an argument's key) only as
// safe text: bounded, with no controls, bidi overrides or line separators.
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { defineResource, defineTool } from '../src/index.ts';
import { complete, failed, makeServer, textIn } from './support.ts';

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const NASTY = '\u202eevil\u0000\u001b[2J\r\n\u2028';

const finishing = setup({ types: { output: {} as { text: string } } }).createMachine({
  id: 'finishing',
  initial: 'done',
  states: { done: { type: 'final' } },
  output: () => ({ text: 'done' }),
});

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks something up',
  input: z.strictObject({ id: z.string().max(10) }),
  machine: finishing,
  result: (o) => ({ text: o.text }),
  annotations: { readOnlyHint: true },
});

const page = defineResource({
  uri: 'pages://{name}',
  name: 'page',
  description: 'A page',
  variables: z.object({ name: z.string().max(10) }),
  machine: finishing,
  contents: (o) => o.text,
});

const { call, getPrompt, readResource } = makeServer({ tools: [lookup], resources: [page] });

describe('errors that repeat what the client sent', () => {
  it('name an unknown tool or prompt as safe text', async () => {
    const tool = failed(await call({ name: `nope${NASTY}` })).error;
    expect(tool.message).toBe('Unknown tool: nope evil [2J');
    const prompt = failed(await getPrompt({ name: `nope${NASTY}` })).error;
    expect(prompt.message).toBe('Unknown prompt: nope evil [2J');
  });

  it('repeat a resource URI as safe text, at most 120 characters, the rest counted', async () => {
    const error = failed(await readResource({ uri: `pages://${NASTY.repeat(50)}` })).error;
    expect(error.message).toMatch(
      /^Resource not found: pages:\/\/ evil \[2J evil \[2J.*… \(\d+ more characters\) \(name: NUL characters \(U\+0000\) are not accepted/,
    );
    expect(error.message).not.toMatch(HIDDEN);
    expect(JSON.stringify(error.data)).not.toMatch(/\\u0000|\\u001b|\\r|\\n|\u202e|\u2028/);
    expect(error.message.length).toBeLessThan(400);
  });

  it("name an argument's unknown key as safe text", async () => {
    const result = complete(await call({ name: 'lookup', arguments: { id: 'a', [`key${NASTY}`]: 1 } })).result;
    expect(result.isError).toBe(true);
    expect(textIn(result.content[0])).toMatch(/^Invalid arguments for tool 'lookup': /);
    expect(textIn(result.content[0])).not.toMatch(HIDDEN);
  });
});
