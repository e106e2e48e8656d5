// docs/deploying.md's recipe for N instances, run from its own files: scripts/test-token.mjs makes the test
// JWKS and a token, docs/deploy/run-three.sh starts three demo instances (one key file, one PostgreSQL
// database for the demo's data and the effect ledger, ROUNDTRIP_LEDGER unset) and nginx from
// docs/deploy/nginx.conf, and the official v2 client drives a refund through nginx with the token. The test
// sets only what the recipe's own variables are for: free ports, a folder of its own, a fresh schema, and
// SERVER, the suite's bundle of the same entry (src/http-server.ts) instead of its tsx launcher, for speed
// (demo-over-http.test.ts runs that launcher). The page shows nginx.conf and the script as they are.
// Needs nginx and ROUNDTRIP_TEST_PG; skipped without them (one line says why), required under CI=true.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../packages/cli/src/index.ts';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../../../packages/engine/test/postgres-test-database.ts';
import { openDemoStores } from '../src/demo-stores.ts';
import { bundledScript } from './support/bundle.ts';
import { accept, callRound } from './support/demo-client.ts';
import { freePort, hasNginx } from './support/nginx-proxy.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const RUN_THREE = join(root, 'docs', 'deploy', 'run-three.sh');
const TEST_TOKEN = join(root, 'scripts', 'test-token.mjs');
const ISSUER = 'http://127.0.0.1/test-issuer';

const required = process.env.CI === 'true';
const skipNginx = !hasNginx && !required && !skipPostgres;
if (skipNginx)
  process.stderr.write(
    'skipping the test of docs/deploying.md\'s recipe (3 instances behind nginx): /usr/sbin/nginx is not installed (run `eval "$(bash scripts/services.sh)"`, then the tests again)\n',
  );

/** run-three.sh, running: its processes' stderr so far, and its stop. */
interface Recipe {
  log(): string;
  /** SIGTERM to the script, which stops the instances and nginx; resolves with its exit code once all are gone. */
  stop(): Promise<number | null>;
}

const ready = (log: string) => (log.match(/info demo: database at /g) ?? []).length === 3 && log.includes(' start worker processes');

/** Starts run-three.sh with `env`; resolves once the three instances serve and nginx listens, or 'taken' when a port was. */
async function runThree(env: Record<string, string>): Promise<Recipe | 'taken'> {
  const child: ChildProcess = spawn('bash', [RUN_THREE], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const outcome = await new Promise<'ready' | 'exited'>((resolve) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      if (ready(log)) resolve('ready');
    });
    void exited.then(() => resolve('exited'));
  });
  const recipe: Recipe = {
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  if (outcome === 'ready') return recipe;
  await exited;
  // a port picked free was taken by another process meanwhile: the caller picks others
  if (/EADDRINUSE|Address already in use/.test(log)) return 'taken';
  throw new Error(`docs/deploy/run-three.sh exited (${child.exitCode}) before the instances and nginx served:\n${log}`);
}

/** A client of the proxy sending `token`, recording which instance answered each tools/call. */
async function proxyClient(url: URL, token: string): Promise<{ client: Client; answeredBy: string[] }> {
  const answeredBy: string[] = [];
  const client = new Client(
    { name: 'deploy-recipe-test', version: '0.0.1' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (typeof init?.body === 'string' && init.body.includes('"method":"tools/call"')) {
        answeredBy.push(response.headers.get('Roundtrip-Instance') ?? '(none)');
      }
      return response;
    },
  });
  await client.connect(transport);
  return { client, answeredBy };
}

describe.skipIf(skipPostgres || skipNginx)("docs/deploying.md's recipe: three instances behind nginx, from its own files", () => {
  const dir = mkdtempSync(join(tmpdir(), 'rt-deploy-recipe-'));
  let db: TestDatabase;
  let schema: string;
  /** ROUNDTRIP_DB: the fresh schema's URL. */
  let dbUrl: string;
  let recipe: Recipe | undefined;
  let proxy: URL;
  let token: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    if (!hasNginx)
      throw new Error(
        'CI=true requires the deploy recipe test: /usr/sbin/nginx is missing; run `bash scripts/services.sh` first (.ci/run does).',
      );
    db = await createTestDatabase();
    const made = await db.freshSchema();
    schema = made.schema;
    dbUrl = made.url;
    const keyFile = join(dir, 'keys');
    const [code, launcher] = await Promise.all([
      // the recipe's `roundtrip keys new`, in this process
      main(['keys', 'new', keyFile], { out: { write: () => true }, err: process.stderr, cwd: dir }),
      bundledScript(new URL('../src/http-server.ts', import.meta.url), join(dir, 'bundle')),
    ]);
    expect(code).toBe(0);
    for (let attempt = 1; recipe === undefined; attempt++) {
      if (attempt > 3) throw new Error('three times, a port picked free was taken by another process before the recipe bound it');
      const [proxyPort, ...ports] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
      if (new Set([proxyPort, ...ports]).size < 4) continue; // the OS gave one twice: ask again
      proxy = new URL(`http://127.0.0.1:${proxyPort}/mcp`);
      // nothing else of this process's environment (a ROUNDTRIP_LEDGER of the shell running the tests)
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        ROUNDTRIP_DB: made.url,
        ROUNDTRIP_KEY_FILE: keyFile,
        ROUNDTRIP_JWKS: join(dir, 'jwks.json'),
        ROUNDTRIP_ISSUER: ISSUER,
        ROUNDTRIP_AUDIENCE: proxy.href,
        PROXY_PORT: String(proxyPort),
        PORT_1: String(ports[0]),
        PORT_2: String(ports[1]),
        PORT_3: String(ports[2]),
        DEPLOY_DIR: dir,
        SERVER: `${process.execPath} ${launcher}`,
      };
      // the recipe's token: the script reads the same variables the instances do
      token = (await promisify(execFile)(process.execPath, [TEST_TOKEN, '--sub', 'ada'], { env })).stdout.trim();
      const started = await runThree(env);
      if (started !== 'taken') recipe = started;
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    const code = await recipe?.stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
    // SIGTERM: the script stops the instances (each drains and exits) and nginx, then exits 143
    if (recipe) expect(code, recipe.log()).toBe(143);
  });

  it('refunds through nginx with the test token, the two rounds on different instances, the ledger in the shared database', async () => {
    const { client, answeredBy } = await proxyClient(proxy, token);
    clients.push(client);
    const ask = await callRound(client, 'refund_order', { order_id: 'ord_52' });
    expect(ask.inputRequests?.confirm?.params.message).toBe('Refund $120.00 for order ord_52?');
    const done = await callRound(
      client,
      'refund_order',
      { order_id: 'ord_52' },
      { requestState: ask.requestState, inputResponses: { confirm: accept({ confirm: true }) } },
    );
    expect(done.content?.[0]?.text).toBe('Refunded $120.00 for order ord_52.');
    expect(answeredBy).toHaveLength(2);
    expect(answeredBy[0]).not.toBe(answeredBy[1]);
    for (const name of answeredBy) expect(['i1', 'i2', 'i3']).toContain(name);
    const stores = await openDemoStores(dbUrl);
    try {
      expect(await stores.orders.countRefunds('ord_52')).toBe(1);
    } finally {
      await stores.close();
    }
    // ROUNDTRIP_LEDGER unset: the ledger's table is in ROUNDTRIP_DB's schema, beside the orders
    const effects = await db.sql.query(`SELECT effect, state FROM ${schema}.roundtrip_effects`);
    expect(effects.rows).toEqual([{ effect: 'refund', state: 'done' }]);
  });

  it('answers a request without a token 401, naming the metadata that nginx serves from the instances', async () => {
    const response = await fetch(proxy, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    const metadataUrl = `http://${proxy.host}/.well-known/oauth-protected-resource/mcp`;
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const metadata = await fetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: proxy.href, authorization_servers: [ISSUER] });
  });

  it('is the nginx.conf and run-three.sh docs/deploying.md shows', () => {
    const page = readFileSync(join(root, 'docs', 'deploying.md'), 'utf8');
    for (const file of ['docs/deploy/nginx.conf', 'docs/deploy/run-three.sh']) {
      const shown = new RegExp(`<!-- file: ${file} -->\\n+\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\n`).exec(page)?.[1];
      expect(shown, `docs/deploying.md shows ${file} under <!-- file: ${file} -->`).toBe(readFileSync(join(root, file), 'utf8'));
    }
  });
});
