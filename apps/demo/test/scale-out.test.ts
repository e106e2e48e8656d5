// Scale-out, proven (issue 14): three instances of the demo over HTTP sharing one key file, with the demo's
// data and the effect ledger in one PostgreSQL database, behind a real nginx round-robin proxy on loopback.
// i1 and i2 run in this process (the demo's HTTP server code, each on a port of its own: they start and
// restart in milliseconds); i3 is a real child process (the bundled HTTP entry), the one a crash needs.
// The official v2 client, pinned to 2026-07-28, talks to the proxy only; the Roundtrip-Instance header of
// each response says which instance answered. Consecutive rounds of a conversation land on different
// instances; 100 concurrent confirmations of one refund refund once; a conversation survives SIGKILL of the
// process that sealed its state and is serving its next round (its session seen waiting on a locked table):
// nginx passes that round on, and the round after, refused by the dead process, too; a rolling key rotation
// (add everywhere, promote, retire, one instance restarted at a time) breaks no conversation in flight. A 2025-era
// client through the proxy is asked on its call's SSE stream, its answer taken by whichever instance nginx picks.
// Needs nginx and ROUNDTRIP_TEST_PG: `eval "$(bash scripts/services.sh)"`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../packages/cli/src/index.ts';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../../packages/engine/test/postgres-test-database.ts';
import { openDemoStores } from '../src/demo-stores.ts';
import { bundledScript } from './support/bundle.ts';
import { accept, callRound, refusal } from './support/demo-client.ts';
import { type DemoInstance, startInstance } from './support/demo-instances.ts';
import { type InProcessInstance, startInProcessInstance } from './support/in-process-demo-instance.ts';
import { hasNginx, type NginxProxy, startNginx } from './support/nginx-proxy.ts';
import { pidHoldingPort } from './support/socket-owner.ts';

const required = process.env.CI === 'true';
const skipNginx = !hasNginx && !required && !skipPostgres;
if (skipNginx)
  process.stderr.write(
    'skipping the scale-out tests (3 HTTP instances behind nginx): /usr/sbin/nginx is not installed (run `eval "$(bash scripts/services.sh)"`, then the tests again)\n',
  );

const DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
/** `roundtrip keys …`, run in-process; resolves with what it printed on stdout. */
async function keys(...args: string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await main(['keys', ...args], {
    out: { write: (text: string) => (out += text) },
    err: { write: (text: string) => (err += text) },
    cwd: process.cwd(),
  });
  if (code !== 0) throw new Error(`roundtrip keys ${args.join(' ')} exited ${code}: ${err}`);
  return out;
}
/** The key id a state was sealed with: rt1.<kid>.… */
const kidOf = (state: string | undefined) => state?.split('.')[1];

/** A client of the proxy that records, for each tools/call, the instance that answered it. */
async function proxyClient(url: URL): Promise<{ client: Client; answeredBy: string[] }> {
  const answeredBy: string[] = [];
  const client = new Client(
    { name: 'scale-out-test', version: '0.0.1' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const isCall = typeof init?.body === 'string' && init.body.includes('"method":"tools/call"');
      if (isCall) answeredBy.push(response.headers.get('Roundtrip-Instance') ?? '(none)');
      return response;
    },
  });
  await client.connect(transport);
  return { client, answeredBy };
}

const differentNeighbours = (names: string[]) => names.slice(1).every((name, i) => name !== names[i]);

describe.skipIf(skipPostgres || skipNginx)('three HTTP instances behind nginx, on PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rt-scale-out-'));
  const keyFile = join(dir, 'keys');
  let db: TestDatabase;
  let dbUrl: string;
  let ledgerSchema: string;
  let storesSchema: string;
  /** i1 and i2, in this process. */
  let served: InProcessInstance[] = [];
  /** i3, a child process. */
  let child: DemoInstance;
  let proxy: NginxProxy;
  const clients: Client[] = [];
  const connect = async () => {
    const made = await proxyClient(proxy.url);
    clients.push(made.client);
    return made;
  };

  beforeAll(async () => {
    if (!hasNginx)
      throw new Error(
        'CI=true requires the scale-out tests: /usr/sbin/nginx is missing; run `bash scripts/services.sh` first (.ci/run does).',
      );
    db = await createTestDatabase();
    const [stores, ledger] = await Promise.all([db.freshSchema(), db.freshSchema(), keys('new', keyFile)]);
    dbUrl = stores.url;
    ledgerSchema = ledger.schema;
    storesSchema = stores.schema;
    const settings = { keyFile, db: stores.url, ledger: ledger.url };
    const [one, two, three] = await Promise.allSettled([
      startInProcessInstance(settings, 'i1'),
      startInProcessInstance(settings, 'i2'),
      bundledScript(new URL('../src/http-server.ts', import.meta.url), join(dir, 'bundle')).then((launcher) =>
        startInstance({ launcher, ...settings, home: dir }, 'i3'),
      ),
    ]);
    // each one that started is kept for afterAll to stop before a failed start is thrown
    served = [one, two].flatMap((each) => (each.status === 'fulfilled' ? [each.value] : []));
    if (three.status === 'fulfilled') child = three.value;
    for (const each of [one, two, three]) if (each.status === 'rejected') throw each.reason;
    proxy = await startNginx([...served, child].map((instance) => instance.port));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await proxy?.stop();
    await Promise.all([...served.map((instance) => instance.stop()), child?.kill()]);
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const refundsOf = async (orderId: string) => {
    const stores = await openDemoStores(dbUrl);
    try {
      return await stores.orders.countRefunds(orderId);
    } finally {
      await stores.close();
    }
  };

  it('serves one booking conversation with each round on a different instance than the round before', async () => {
    const { client, answeredBy } = await connect();
    const args = { topic: 'Scale-out review' };
    const when = await callRound(client, 'book_meeting', args);
    const room = await callRound(client, 'book_meeting', args, {
      requestState: when.requestState,
      inputResponses: { when: accept({ date: DATE, time: '11:00', attendees: 8 }) },
    });
    const review = await callRound(client, 'book_meeting', args, {
      requestState: room.requestState,
      inputResponses: { room: accept({ room: 'orion' }) },
    });
    const booked = await callRound(client, 'book_meeting', args, {
      requestState: review.requestState,
      inputResponses: { confirm: accept({ choice: 'confirm' }) },
    });
    expect(booked.content?.[0]?.text).toMatch(new RegExp(`^Booked "Scale-out review" in Orion on ${DATE} at 11:00 for 8 people`));
    expect(answeredBy).toHaveLength(4);
    expect(differentNeighbours(answeredBy)).toBe(true);
    expect(new Set(answeredBy)).toEqual(new Set(['i1', 'i2', 'i3']));
  });

  it('refunds once when 100 confirmations of one refund arrive at once through the proxy, all answered alike', async () => {
    const { client, answeredBy } = await connect();
    const ask = await callRound(client, 'refund_order', { order_id: 'ord_52' });
    expect(ask.inputRequests?.confirm?.params.message).toBe('Refund $120.00 for order ord_52?');
    const confirm = { requestState: ask.requestState, inputResponses: { confirm: accept({ confirm: true }) } };
    const results = await Promise.all(
      Array.from({ length: 100 }, () => callRound(client, 'refund_order', { order_id: 'ord_52' }, confirm)),
    );
    for (const result of results) expect(result).toEqual(results[0]);
    expect(results[0]!.content?.[0]?.text).toBe('Refunded $120.00 for order ord_52.');
    expect(new Set(answeredBy.slice(1))).toEqual(new Set(['i1', 'i2', 'i3']));
    expect(await refundsOf('ord_52')).toBe(1);
    const effects = await db.sql.query(`SELECT effect, state FROM ${ledgerSchema}.roundtrip_effects WHERE effect = 'refund'`);
    expect(effects.rows).toEqual([{ effect: 'refund', state: 'done' }]);
  });

  it('serves a 2025-era client through the proxy: asked on its call’s stream, its answer taken by the instance nginx picks', async () => {
    const instancesSeen: string[] = [];
    const client = new Client({ name: 'scale-out-2025', version: '0.0.1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    const transport = new StreamableHTTPClientTransport(proxy.url, {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'POST') instancesSeen.push(response.headers.get('Roundtrip-Instance') ?? '(none)');
        return response;
      },
    });
    await client.connect(transport);
    clients.push(client);
    const result = await client.callTool({ name: 'refund_order', arguments: { order_id: 'ord_54' } });
    expect((result.content as { text: string }[])[0]?.text).toBe('Refunded $30.00 for order ord_54.');
    expect(await refundsOf('ord_54')).toBe(1);
    // initialize, initialized, the call, the answer: round-robin spreads them over the instances
    expect(new Set(instancesSeen).size).toBeGreaterThan(1);
  });

  it('finishes a conversation on i1 and i2 when the process of i3, serving its round, is SIGKILLed (nginx passes that round and the next on)', async () => {
    // nginx sends each request to i3 first and to i1 or i2 (its backups) only when i3 failed it: the
    // process killed is the one that sealed the state of the round before and took this round, by
    // configuration rather than by the turn of the round-robin
    await proxy.route(
      [child.port],
      served.map((instance) => instance.port),
    );
    const { client, answeredBy } = await connect();
    const args = { topic: 'Killed mid-round' };
    const when = await callRound(client, 'book_meeting', args);
    expect(answeredBy).toEqual(['i3']);
    // the meetings table locked: the round's check (is the small room free?) waits in the database
    const session = await db.sql.connect();
    try {
      await session.query('BEGIN');
      await session.query(`LOCK TABLE ${storesSchema}.meetings IN ACCESS EXCLUSIVE MODE`);
      const round = callRound(client, 'book_meeting', args, {
        requestState: when.requestState,
        inputResponses: { when: accept({ date: DATE, time: '09:00', attendees: 3 }) },
      });
      // i3's PostgreSQL session waiting for the lock (polled, at most 400 times)
      const i3Waits = async () => {
        const { rows } = await db.sql.query<{ client_port: number }>(
          `SELECT a.client_port FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE l.relation = '${storesSchema}.meetings'::regclass AND NOT l.granted`,
        );
        return rows.some((row) => pidHoldingPort([child.pid() ?? -1], row.client_port) !== undefined);
      };
      let waits = false;
      for (let poll = 0; !waits && poll < 400; poll++) {
        waits = await i3Waits();
        if (!waits) await pause(10);
      }
      expect(waits, 'i3 was not seen waiting on the locked table').toBe(true);
      await child.kill();
      await session.query('COMMIT');
      const review = await round;
      expect(review.inputRequests?.confirm?.params.message).toMatch(
        /^Book "Killed mid-round"\?\n\n- Date: .*\n- Time: 9:00\n- Attendees: 3/,
      );
      // the next round goes to the dead i3 first too: refused, and passed on
      const booked = await callRound(client, 'book_meeting', args, {
        requestState: review.requestState,
        inputResponses: { confirm: accept({ choice: 'confirm' }) },
      });
      expect(booked.content?.[0]?.text).toMatch(/^Booked "Killed mid-round" in Huddle corner on /);
      expect(answeredBy).toHaveLength(3);
      expect(answeredBy.slice(1)).not.toContain('i3');
      const errors = readFileSync(join(proxy.dir, 'error.log'), 'utf8');
      expect(errors).toMatch(/upstream prematurely closed connection/);
      expect(errors).toMatch(/connect\(\) failed \(111: Connection refused\) while connecting to upstream/);
    } finally {
      // its connection closed: a transaction the test left open (it failed before COMMIT) ends with it
      session.release(true);
    }
    // i3 stays down: the rotation below runs over i1 and i2
  });

  it('rotates the key across the instances one restart at a time (add, promote, retire) without breaking a conversation in flight', async () => {
    // The rotation runs over i1 and i2, nginx routed to them alone: each step's rolling restart shows every
    // pair three instances would (one started with the changed key file beside one still running with the
    // file before it, and one serving alone while the other is down) in 6 restarts instead of 9. i3, the
    // child process, sits it out (the test above killed it).
    await proxy.route(served.map((instance) => instance.port));
    const rotating = served;
    const { client, answeredBy } = await connect();
    const [oldKid] = (await keys('list', keyFile)).split(' ');
    const args = { order_id: 'ord_51' };
    let states = await Promise.all([0, 1, 2].map(async () => (await callRound(client, 'refund_order', args)).requestState));
    expect(states.map(kidOf)).toEqual([oldKid, oldKid, oldKid]);
    // one round of each conversation, the three at once: an answer the question does not take, so it is asked again (a new state)
    const advance = async () => {
      const next = await Promise.all(
        states.map((requestState) =>
          callRound(client, 'refund_order', args, { requestState, inputResponses: { confirm: accept({ confirm: 'yes' }) } }),
        ),
      );
      for (const round of next) expect(round.inputRequests?.confirm?.params.message).toContain('Refund $49.00 for order ord_51?');
      states = next.map((round) => round.requestState);
    };
    // each step: the key file changes, then each instance in turn stops (rounds go on through the others) and starts with it
    const rollingRestart = async () => {
      for (const instance of rotating) {
        expect(await instance.stop()).toBe(0);
        await advance();
        const port = instance.port;
        await instance.restart();
        // on its port again, unless another process took it meanwhile
        if (instance.port !== port) await proxy.route(rotating.map((each) => each.port));
        await advance();
      }
    };

    const newKid = (await keys('add', keyFile)).split(' ')[0]!;
    await rollingRestart();
    expect(states.map(kidOf)).toEqual([oldKid, oldKid, oldKid]);
    const sealedWithOld = states[0]!;
    await keys('promote', keyFile, newKid);
    await rollingRestart();
    // every instance seals with the new key now: one more round re-seals each conversation under it
    await advance();
    expect(states.map(kidOf)).toEqual([newKid, newKid, newKid]);
    // retire once no state of the old key is still in flight (in production: after the state lifetime)
    await keys('retire', keyFile, oldKid!);
    await rollingRestart();

    const finals = [];
    // two conversations end with the user declining, the third with the refund
    for (const [i, requestState] of states.entries()) {
      const answer = i < 2 ? { action: 'decline' } : accept({ confirm: true });
      finals.push(await callRound(client, 'refund_order', args, { requestState, inputResponses: { confirm: answer } }));
    }
    expect(finals.map((round) => round.structuredContent?.status)).toEqual(['kept', 'kept', 'refunded']);
    expect(finals[2]!.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
    expect(await refundsOf('ord_51')).toBe(1);
    // what retiring earlier would have broken: a state sealed with the retired key no longer opens
    const refused = await refusal(
      callRound(client, 'refund_order', args, { requestState: sealedWithOld, inputResponses: { confirm: { action: 'decline' } } }),
    );
    expect(refused).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid or expired requestState') });
    // both rotating instances took rounds, and only they
    expect(new Set(answeredBy)).toEqual(new Set(rotating.map((instance) => instance.name)));
  });
});
