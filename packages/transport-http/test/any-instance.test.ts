// Stateless: any instance, any round. Two servers share one key (as instances of one deployment share
// a keyring) and the client's fetch sends its requests to them in turn, as a round-robin balancer
// would: each round of one conversation is answered by the other instance.
import { afterEach, describe, expect, it } from 'vitest';
import { bookTable } from '../../mcp/test/fixtures/booking-definitions.ts';
import { accept, closeAll, connectModern, type Round, sharedKey, startServer } from './support/http-host.ts';

afterEach(closeAll);

describe('a conversation over two instances', () => {
  it('completes with consecutive rounds answered by different instances, each naming itself', async () => {
    const key = sharedKey();
    const a = await startServer({ tools: [bookTable] }, { ROUNDTRIP_KEY: key, ROUNDTRIP_INSTANCE: 'instance-a' });
    const b = await startServer({ tools: [bookTable] }, { ROUNDTRIP_KEY: key, ROUNDTRIP_INSTANCE: 'instance-b' });
    const { client, exchanges } = await connectModern({ urls: [a.url, b.url] });
    const call = (extra: object = {}) =>
      client.callTool({ name: 'book_table', arguments: { day: 'Friday' }, ...extra }, { allowInputRequired: true }) as Promise<Round>;

    const party = await call();
    expect(party.inputRequests?.party?.params.message).toBe('Who is the table for on Friday?');
    // a name the machine refuses: asked again, by the other instance
    const again = await call({ requestState: party.requestState, inputResponses: { party: accept({ name: 'ada', size: 4 }) } });
    expect(again.inputRequests?.party?.params.message).toMatch(/capital letter/);
    const seating = await call({ requestState: again.requestState, inputResponses: { party: accept({ name: 'Ada', size: 4 }) } });
    expect(seating.inputRequests?.seating?.params.message).toBe('Where should Ada sit?');
    const done = await call({ requestState: seating.requestState, inputResponses: { seating: accept({ seating: 'terrace' }) } });
    expect(done.content?.[0]?.text).toBe('Booked 4 for Ada on Friday, terrace.');

    const rounds = exchanges.filter((exchange) => exchange.method === 'tools/call');
    expect(rounds.map((round) => round.status)).toEqual([200, 200, 200, 200]);
    const instances = rounds.map((round) => round.instance);
    expect(new Set(instances)).toEqual(new Set(['instance-a', 'instance-b']));
    for (let i = 1; i < instances.length; i++) expect(instances[i]).not.toBe(instances[i - 1]);
  });

  it('lets the v2 client answer every round by itself, whichever instance asks', async () => {
    const key = sharedKey();
    const a = await startServer({ tools: [bookTable] }, { ROUNDTRIP_KEY: key, ROUNDTRIP_INSTANCE: 'a' });
    const b = await startServer({ tools: [bookTable] }, { ROUNDTRIP_KEY: key, ROUNDTRIP_INSTANCE: 'b' });
    const { client } = await connectModern({
      urls: [a.url, b.url],
      answer: (message) => (message.startsWith('Who') ? { name: 'Grace', size: 2 } : { seating: 'window' }),
    });
    const result = (await client.callTool({ name: 'book_table', arguments: { day: 'Monday' } })) as Round;
    expect(result.content?.[0]?.text).toBe('Booked 2 for Grace on Monday, window.');
  });

  it('refuses a round sealed by an instance with another key: -32602, the reason in the log of the instance that refused it', async () => {
    const a = await startServer({ tools: [bookTable] });
    const b = await startServer({ tools: [bookTable] });
    const { client } = await connectModern({ urls: [a.url, b.url] });
    const party = (await client.callTool({ name: 'book_table', arguments: { day: 'Friday' } }, { allowInputRequired: true })) as Round;
    const retry = { requestState: party.requestState, inputResponses: { party: accept({ name: 'Ada', size: 2 }) } };
    const refused = client.callTool({ name: 'book_table', arguments: { day: 'Friday' }, ...retry }, { allowInputRequired: true });
    await expect(refused).rejects.toMatchObject({ code: -32602 });
    // the discovery went to a, the first round to b, the retry to a
    expect(a.logs).toContainEqual(expect.objectContaining({ event: 'state_rejected', level: 'warn' }));
    expect(b.logs.filter((entry) => entry.event === 'state_rejected')).toEqual([]);
  });
});
