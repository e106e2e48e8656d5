// 2025-era clients over HTTP across three instances of the demo on one PostgreSQL database (issue 29): the
// official v2 client in its 2025 era (2025-11-25) sends each POST to the next instance in turn, so the answer to
// each question reaches another instance than the one holding the call; the answer is relayed to the holder
// through PostgreSQL (LISTEN/NOTIFY) and the call goes on. 20 concurrent 2025 conversations refunding one order:
// every one gets its answer, one refund. An answer whose holder is gone is refused, and nothing acts.
// The instances run in this process (the demo's HTTP server code, each on its own port). Needs ROUNDTRIP_TEST_PG.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipPostgres } from '../../../packages/engine/test/postgres-test-database.ts';
import { openDemoStores } from '../src/demo-stores.ts';
import { type InProcessInstance, startInProcessInstance } from './support/in-process-demo-instance.ts';
import { type SharedSetting, sharedSetting, startEach } from './support/instances-on-postgres.ts';

describe.skipIf(skipPostgres)('2025-era clients over HTTP, three instances on PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rt-legacy-instances-'));
  let setting: SharedSetting | undefined;
  const instances: InProcessInstance[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    setting = await sharedSetting(dir);
    const settings = { keyFile: setting.keyFile, db: setting.stores, ledger: setting.ledger };
    await startEach(['i1', 'i2', 'i3'], (name) => startInProcessInstance(settings, name), instances);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await Promise.all(instances.map((instance) => instance.stop()));
    await setting?.db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What each POST was (a call, an answer, …) and the instance that answered it. */
  type Post = { kind: string; instance: string | null };

  /**
   * The v2 client in its 2025 era, each request to the next instance in turn and each answer to the instance after
   * the one holding its call (as a balancer may), answering every question with `answer`.
   */
  async function legacyClient(
    answer: (message: string) => Record<string, unknown> | Promise<Record<string, unknown>>,
    start = 0,
    revision: '2025-11-25' | '2025-06-18' = '2025-11-25',
  ) {
    const posts: Post[] = [];
    let next = start;
    let holding = 0;
    const roundRobin: typeof fetch = async (_input, init) => {
      const body = init?.method === 'POST' ? (JSON.parse(String(init.body)) as { method?: string }) : undefined;
      const isAnswer = body !== undefined && body.method === undefined;
      const at = isAnswer ? holding + 1 : next++;
      if (body?.method === 'tools/call') holding = at;
      const instance = instances[at % instances.length]!;
      // the v2 client offers its latest 2025 revision at initialize; an older host asks for 2025-06-18
      const sent =
        typeof init?.body === 'string'
          ? { ...init, body: init.body.replace('"protocolVersion":"2025-11-25"', `"protocolVersion":"${revision}"`) }
          : init;
      const response = await fetch(new URL('/mcp', `http://127.0.0.1:${instance.port}`), sent);
      if (body) posts.push({ kind: body.method ?? 'answer', instance: response.headers.get('roundtrip-instance') });
      return response;
    };
    const client = new Client({ name: 'legacy-host', version: '0.0.1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async (request) => ({
      action: 'accept',
      content: (await answer((request.params as { message: string }).message)) as Record<string, string | number | boolean>,
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${instances[0]!.port}/mcp`), { fetch: roundRobin }));
    clients.push(client);
    return { client, posts };
  }

  const textOf = (result: unknown) => ((result as { content: { text: string }[] }).content[0] as { text: string }).text;

  it.each([
    ['2025-11-25', 'ord_51', '$49.00'],
    ['2025-06-18', 'ord_54', '$30.00'],
  ] as const)(
    'on %s: asks on the instance holding the call; the answer lands on another instance and is relayed to it',
    async (revision, order, amount) => {
      const { client, posts } = await legacyClient(() => ({ confirm: true }), 0, revision);
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      const result = await client.callTool({ name: 'refund_order', arguments: { order_id: order } });
      expect(textOf(result)).toBe(`Refunded ${amount} for order ${order}.`);
      const call = posts.findIndex((post) => post.kind === 'tools/call');
      const answer = posts.findIndex((post) => post.kind === 'answer');
      expect(answer).toBeGreaterThan(call);
      expect(posts[answer]!.instance).not.toBe(posts[call]!.instance);
    },
  );

  it('answers 20 concurrent conversations refunding one order, each asked on one instance and answered on another, with one refund', async () => {
    // every conversation is asked before any answers: then all 20 answers race to refund the order
    let asked = 0;
    let allAsked: () => void = () => {};
    const everyoneAsked = new Promise<void>((resolve) => (allAsked = resolve));
    const answer = async () => {
      if (++asked === 20) allAsked();
      await everyoneAsked;
      return { confirm: true };
    };
    const conversations = await Promise.all(Array.from({ length: 20 }, (_, i) => legacyClient(answer, i)));
    const results = await Promise.all(
      conversations.map(({ client }) => client.callTool({ name: 'refund_order', arguments: { order_id: 'ord_52' } })),
    );
    const texts = results.map(textOf);
    expect(texts.filter((text) => text === 'Refunded $120.00 for order ord_52.')).toHaveLength(1);
    for (const text of texts) expect(text).toMatch(/ord_52/);
    for (const { posts } of conversations) {
      const call = posts.find((post) => post.kind === 'tools/call');
      const answered = posts.find((post) => post.kind === 'answer');
      expect(answered?.instance).toBeDefined();
      expect(answered?.instance).not.toBe(call?.instance);
    }
    const stores = await openDemoStores(setting!.stores);
    try {
      expect(await stores.orders.countRefunds('ord_52')).toBe(1);
    } finally {
      await stores.close();
    }
  });

  it('refuses an answer whose instance is gone, saying nothing was done with it', async () => {
    const response = await fetch(new URL('/mcp', `http://127.0.0.1:${instances[1]!.port}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'GoneGoneGone.nonceNonce12.0', result: { action: 'accept', content: { confirm: true } } }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining('Nothing was done with the answer; call the tool again.') },
    });
  });
});
