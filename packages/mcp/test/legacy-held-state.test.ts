// On a 2025-era connection the server holds the request open while the user answers: the state
// handed from one round to the next never leaves the server, so a user slower than the state
// lifetime still finishes. A state a client sends of its own is still checked in full.
import { createEngine, createKeyring, generateKey, INVALID_STATE_HINT } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHost, type Host, type HostKind, type HostOptions } from './fixtures/connect-host.ts';
import { connectInMemory, type InMemoryConnection } from './fixtures/connect-in-memory.ts';
import { greetingDefinitions } from './fixtures/greeting-definitions.ts';

const open: Array<Host | InMemoryConnection> = [];
const connect = async (options: HostOptions) => {
  const host = await connectHost(options);
  open.push(host);
  return host;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((host) => host.close()));
});

/** A clock the test moves, and an engine whose states live one second on it. */
function shortLivedEngine() {
  const clock = { now: Date.UTC(2026, 11, 1, 9, 0, 0) };
  const engine = createEngine({
    ...greetingDefinitions,
    keyring: createKeyring([generateKey()]),
    audience: 'greeting-test',
    stateTtlSeconds: 1,
    now: () => clock.now,
  });
  return { clock, engine };
}
const TEN_MINUTES = 10 * 60_000;

describe.each<HostKind>(['v2 legacy', 'v1 2025-11-25', 'v1 2025-06-18'])(
  'a %s host whose user answers after the state lifetime',
  (kind) => {
    it('still finishes: the state never left the server', async () => {
      const { clock, engine } = shortLivedEngine();
      const host = await connect({
        kind,
        sharedEngine: engine,
        engine: {},
        answer: () => {
          clock.now += TEN_MINUTES;
          return { action: 'accept', content: { name: 'Ada' } };
        },
      });
      const result = await host.callTool('greet', { greeting: 'Hello' });
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
      expect(result.isError).toBeUndefined();
    });
  },
);

describe('the state lifetime elsewhere', () => {
  it('ends a 2026-07-28 conversation whose answer comes after it (the state went to the client)', async () => {
    const { clock, engine } = shortLivedEngine();
    const host = await connect({
      kind: 'v2 pinned 2026-07-28',
      sharedEngine: engine,
      engine: {},
      answer: () => {
        clock.now += TEN_MINUTES;
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    await expect(host.callTool('greet', { greeting: 'Hello' })).rejects.toMatchObject({ code: -32602, data: { reason: 'expired' } });
  });

  it('checks a requestState a 2025-era client sends of its own: accepted while alive, refused once expired', async () => {
    const { clock, engine } = shortLivedEngine();
    // a state handed out to a 2026-07-28 client of the same server
    const modern = await connectInMemory({ era: 'modern', sharedEngine: engine });
    open.push(modern);
    const first = (await modern.client.callTool(
      { name: 'greet', arguments: { greeting: 'Hello' } },
      { allowInputRequired: true },
    )) as unknown as {
      requestState: string;
    };
    const legacy = await connect({ kind: 'v1 2025-11-25', sharedEngine: engine, engine: {}, answer: () => ({ action: 'decline' }) });
    const retry = {
      name: 'greet',
      arguments: { greeting: 'Hello' },
      requestState: first.requestState,
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
    };
    expect(await legacy.request('tools/call', retry)).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    clock.now += TEN_MINUTES;
    await expect(legacy.request('tools/call', retry)).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'expired', hint: INVALID_STATE_HINT },
    });
    expect(legacy.elicitations).toEqual([]);
  });
});
