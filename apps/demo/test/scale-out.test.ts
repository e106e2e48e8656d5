// Scale-out, proven (issue 14): three instances of the demo over HTTP (real child processes) sharing one
// key file, with the demo's data and the effect ledger in one PostgreSQL database, behind a real nginx
// round-robin proxy on loopback. The official v2 client, pinned to 2026-07-28, talks to the proxy only;
// the Roundtrip-Instance header of each response says which instance answered. Consecutive rounds of a
// conversation land on different instances; 100 concurrent confirmations of one refund refund once; a
// conversation survives SIGKILL of an instance between rounds, and of the instance serving a round (its
// session seen waiting on a locked table: nginx passes the request on); a rolling key rotation (add everywhere,
// promote, retire, one instance restarted at a time) breaks no conversation in flight.
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
import { accept, callRound, type RawRoundResult, refusal } from './support/demo-client.ts';
import { type DemoInstance, startInstances } from './support/demo-instances.ts';
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
  let instances: DemoInstance[] = [];
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
    const [stores, ledger, launcher] = await Promise.all([
      db.freshSchema(),
      db.freshSchema(),
      bundledScript(new URL('../src/http-server.ts', import.meta.url), join(dir, 'bundle')),
    ]);
    dbUrl = stores.url;
    ledgerSchema = ledger.schema;
    storesSchema = stores.schema;
    await keys('new', keyFile);
    instances = await startInstances({ launcher, keyFile, db: stores.url, ledger: ledger.url, home: dir }, 3);
    proxy = await startNginx(instances.map((instance) => instance.port));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await proxy?.stop();
    await Promise.all(instances.map((instance) => instance.kill()));
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts a stopped or killed instance again (on a new port) and routes nginx to it. */
  const restart = async (instance: DemoInstance) => {
    await instance.restart();
    await proxy.route(instances.map((each) => each.port));
  };

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

  it('finishes a conversation on the other instances when the one that answered its last round is SIGKILLed', async () => {
    const { client, answeredBy } = await connect();
    const args = { topic: 'Killed instance' };
    const when = await callRound(client, 'book_meeting', args);
    const victim = instances.find((instance) => instance.name === answeredBy[0])!;
    await victim.kill();
    const room = await callRound(client, 'book_meeting', args, {
      requestState: when.requestState,
      inputResponses: { when: accept({ date: DATE, time: '16:00', attendees: 8 }) },
    });
    const review = await callRound(client, 'book_meeting', args, {
      requestState: room.requestState,
      inputResponses: { room: accept({ room: 'orion' }) },
    });
    const booked = await callRound(client, 'book_meeting', args, {
      requestState: review.requestState,
      inputResponses: { confirm: accept({ choice: 'confirm' }) },
    });
    expect(booked.content?.[0]?.text).toMatch(/^Booked "Killed instance" in Orion/);
    expect(answeredBy.slice(1)).not.toContain(victim.name);
    // nginx met the dead instance on its turn and passed the round to the next one
    expect(readFileSync(join(proxy.dir, 'error.log'), 'utf8')).toMatch(
      /connect\(\) failed \(111: Connection refused\) while connecting to upstream/,
    );
    await restart(victim);
  });

  it('finishes a round on another instance when the one serving it is SIGKILLed mid-round (nginx passes the request on)', async () => {
    const { client, answeredBy } = await connect();
    const args = { topic: 'Killed mid-round' };
    const when = await callRound(client, 'book_meeting', args);
    // the meetings table locked: the round's check (is the small room free?) waits in the database
    const session = await db.sql.connect();
    let victim: DemoInstance | undefined;
    try {
      await session.query('BEGIN');
      await session.query(`LOCK TABLE ${storesSchema}.meetings IN ACCESS EXCLUSIVE MODE`);
      const round = callRound(client, 'book_meeting', args, {
        requestState: when.requestState,
        inputResponses: { when: accept({ date: DATE, time: '09:00', attendees: 3 }) },
      });
      // the instance whose PostgreSQL session waits for the lock (polled, at most 400 times)
      const waiting = async () => {
        const { rows } = await db.sql.query<{ client_port: number }>(
          "SELECT client_port FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        const pids = instances.map((instance) => instance.pid() ?? -1);
        const pid = rows.map((row) => pidHoldingPort(pids, row.client_port)).find((found) => found !== undefined);
        return instances.find((instance) => instance.pid() === pid);
      };
      for (let poll = 0; victim === undefined && poll < 400; poll++) {
        victim = await waiting();
        if (victim === undefined) await pause(10);
      }
      expect(victim, 'no instance was seen waiting on the locked table').toBeDefined();
      await victim!.kill();
      await session.query('COMMIT');
      const review = await round;
      expect(review.inputRequests?.confirm?.params.message).toMatch(
        /^Book "Killed mid-round"\?\n\n- Date: .*\n- Time: 9:00\n- Attendees: 3/,
      );
      expect(answeredBy.at(-1)).not.toBe(victim!.name);
      const booked = await callRound(client, 'book_meeting', args, {
        requestState: review.requestState,
        inputResponses: { confirm: accept({ choice: 'confirm' }) },
      });
      expect(booked.content?.[0]?.text).toMatch(/^Booked "Killed mid-round" in Huddle corner on /);
      expect(readFileSync(join(proxy.dir, 'error.log'), 'utf8')).toMatch(/upstream prematurely closed connection/);
    } finally {
      session.release();
      if (victim) await restart(victim);
    }
  });

  it('rotates the key across the instances one restart at a time (add, promote, retire) without breaking a conversation in flight', async () => {
    // The rotation runs over i1 and i2, nginx routed to them alone: each step's rolling restart then shows
    // every pair three instances would (one started with the changed key file beside one still running with
    // the file before it, and one serving alone while the other is down) in 6 restarts instead of 9. i3 sits
    // it out, running but sent nothing, and is stopped and started again with the rotated key file at the end.
    const rotating = instances.slice(0, 2);
    const resting = instances[2]!;
    await proxy.route(rotating.map((instance) => instance.port));
    try {
      await rotate(rotating);
    } finally {
      expect(await resting.stop()).toBe(0);
      await resting.restart();
      await proxy.route(instances.map((instance) => instance.port));
    }
  }, 60_000);

  /** The rotation of the test above, over `rotating` (the instances nginx sends to). */
  async function rotate(rotating: DemoInstance[]) {
    const { client, answeredBy } = await connect();
    const [oldKid] = (await keys('list', keyFile)).split(' ');
    const args = { order_id: 'ord_51' };
    let states = await Promise.all([0, 1, 2].map(async () => (await callRound(client, 'refund_order', args)).requestState));
    expect(states.map(kidOf)).toEqual([oldKid, oldKid, oldKid]);
    // one round of each conversation: an answer the question does not take, so it is asked again (a new state)
    const advance = async () => {
      const next: RawRoundResult[] = [];
      for (const requestState of states)
        next.push(await callRound(client, 'refund_order', args, { requestState, inputResponses: { confirm: accept({ confirm: 'yes' }) } }));
      for (const round of next) expect(round.inputRequests?.confirm?.params.message).toContain('Refund $49.00 for order ord_51?');
      states = next.map((round) => round.requestState);
    };
    // each step: the key file changes, then each instance in turn stops (rounds go on through the others) and starts with it
    const rollingRestart = async () => {
      for (const instance of rotating) {
        expect(await instance.stop()).toBe(0);
        await advance();
        await instance.restart();
        await proxy.route(rotating.map((each) => each.port));
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
  }
});
