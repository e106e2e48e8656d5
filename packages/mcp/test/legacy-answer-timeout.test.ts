// A 2025-era host that never answers: the server holds the request open only as long as the answer
// timeout (ROUNDTRIP_ANSWER_TIMEOUT_MS, 50 seconds by default: under the official clients' 60 s), then
// ends it with an error that says so, and withdraws the question from the host. What a slow user's late
// answer does then is in legacy-slow-user.test.ts.
import { generateKey } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { RoundtripConfigError, resolveServerSettings } from '../src/node/index.ts';
import { connectHost, type Host, type HostKind, type HostOptions } from './fixtures/connect-host.ts';
import { greetingDefinitions } from './fixtures/greeting-definitions.ts';

const open: Host[] = [];
const connect = async (options: HostOptions) => {
  const host = await connectHost(options);
  open.push(host);
  return host;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((host) => host.close()));
});

/** A user who never answers. */
const never = () => new Promise<never>(() => {});
const ENDED = 'The question was not answered within 50 ms, so this request ended. Try again to start over.';

describe.each<HostKind>(['v2 legacy', 'v1 2025-06-18'])('a %s host that never answers', (kind) => {
  it('gets a tool error when the answer timeout passes, and the question is withdrawn', async () => {
    const host = await connect({ kind, answer: never, engine: greetingDefinitions, legacyAnswerTimeoutMs: 50 });
    const result = await host.callTool('greet', { greeting: 'Hello' });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining(ENDED) }] });
    const asked = host.received.find((m) => 'method' in m && m.method === 'elicitation/create') as { id: number };
    expect(host.received).toContainEqual(
      expect.objectContaining({ method: 'notifications/cancelled', params: expect.objectContaining({ requestId: asked.id }) }),
    );
    expect(host.protocolErrors.map((e) => e.message)).toContainEqual(expect.stringMatching(/within 50 ms \(ROUNDTRIP_ANSWER_TIMEOUT_MS\)/));
  });

  it('gets a JSON-RPC error for a prompt or a resource', async () => {
    const host = await connect({ kind, answer: never, engine: greetingDefinitions, legacyAnswerTimeoutMs: 50 });
    await expect(host.getPrompt('greeting_email', { recipient: 'Ada' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining(ENDED),
    });
    await expect(host.readResource('greetings://people/Ada')).rejects.toMatchObject({ message: expect.stringContaining(ENDED) });
  });
});

describe('the answer timeout setting', () => {
  const key = generateKey();
  it('is 50 seconds unless the code or ROUNDTRIP_ANSWER_TIMEOUT_MS says otherwise, the variable winning', () => {
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key }).legacyAnswerTimeoutMs).toBe(50_000);
    expect(resolveServerSettings('srv', { ROUNDTRIP_KEY: key }, { legacyAnswerTimeoutMs: 120_000 }).legacyAnswerTimeoutMs).toBe(120_000);
    const both = resolveServerSettings(
      'srv',
      { ROUNDTRIP_KEY: key, ROUNDTRIP_ANSWER_TIMEOUT_MS: '1800000' },
      { legacyAnswerTimeoutMs: 120_000 },
    );
    expect(both.legacyAnswerTimeoutMs).toBe(1_800_000);
  });

  it('refuses a value that is not a whole number of milliseconds up to a day, naming the range and the default', () => {
    for (const bad of ['10m', '0', '-5', '86400001']) {
      expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: key, ROUNDTRIP_ANSWER_TIMEOUT_MS: bad })).toThrow(
        new RoundtripConfigError(
          'ROUNDTRIP_ANSWER_TIMEOUT_MS',
          `ROUNDTRIP_ANSWER_TIMEOUT_MS is ${JSON.stringify(bad)}; give how long a 2025-era host may take to answer one question, in whole milliseconds from 1 to 86400000 (default 50000).`,
        ),
      );
    }
    expect(() => resolveServerSettings('srv', { ROUNDTRIP_KEY: key }, { legacyAnswerTimeoutMs: 1.5 })).toThrow(
      /legacyAnswerTimeoutMs is 1.5; give/,
    );
  });
});
