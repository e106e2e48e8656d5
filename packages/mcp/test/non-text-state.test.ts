// A requestState that is not a string (a number, an object, null) is an invalid state, not an absent
// one. The SDK refuses it before any hook of ours runs, with `data.reason: 'invalid_request_state'` only;
// the client still gets what every other refused state gets (reason `invalid` and the start-over hint)
// and the operator a line saying what came. Official client, both eras, in process.
import { INVALID_STATE_HINT, INVALID_STATE_MESSAGE } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory, type Era, type InMemoryConnection } from './fixtures/connect-in-memory.ts';

const open: InMemoryConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

const RAW = { allowInputRequired: true } as const;

/** The three MRTR methods, each sent with `requestState` as given. */
const send = {
  tool: (c: InMemoryConnection, requestState: unknown) =>
    c.client.callTool({ name: 'greet', arguments: { greeting: 'Hello' }, requestState } as never, RAW),
  prompt: (c: InMemoryConnection, requestState: unknown) =>
    c.client.getPrompt({ name: 'greeting_email', arguments: { recipient: 'Ada' }, requestState } as never, RAW),
  resource: (c: InMemoryConnection, requestState: unknown) =>
    c.client.readResource({ uri: 'greetings://people/Ada', requestState } as never, { ...RAW, cacheMode: 'bypass' }),
};
const what = { tool: "the tool 'greet'", prompt: "the prompt 'greeting_email'", resource: "the resource 'greetings://people/Ada'" };

describe.each(['modern', 'legacy'] as Era[])('a requestState that is not a string (%s)', (era) => {
  it.each(Object.keys(send) as (keyof typeof send)[])(
    'is refused for a %s with -32602, reason invalid and the start-over hint, as any invalid state is; the log says what came',
    async (method) => {
      const connection = await connectInMemory({ era });
      open.push(connection);
      for (const [state, kind] of [
        [42, 'a number'],
        [{ token: 'rt1' }, 'an object'],
        [null, 'null'],
      ] as const) {
        await expect(send[method](connection, state)).rejects.toMatchObject({
          code: -32602,
          message: expect.stringContaining(INVALID_STATE_MESSAGE),
          data: { reason: 'invalid', hint: INVALID_STATE_HINT },
        });
        expect(connection.protocolErrors.map((e) => e.message)).toContain(
          `requestState refused for ${what[method]}: it is ${kind}, not a string; the client was told to start over`,
        );
      }
    },
  );
});
