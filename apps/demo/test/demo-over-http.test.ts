// `pnpm serve:http`: the demo over Streamable HTTP, started as the root script starts it (the launcher,
// through tsx) in a real child process at a free port (PORT=0), with the environment `pnpm serve` takes.
// The official v2 client, pinned to 2026-07-28, refunds an order in two rounds; SIGTERM stops it (exit 0).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { accept, callRound, freshDemoSettings } from './support/demo-client.ts';
import { refundsIn } from './support/demo-files.ts';

const LAUNCHER = fileURLToPath(new URL('../bin/roundtrip-demo-http.mjs', import.meta.url));
const children: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('pnpm serve:http', () => {
  it('is the root script that runs the HTTP launcher', () => {
    const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(root.scripts['serve:http']).toBe('node apps/demo/bin/roundtrip-demo-http.mjs');
  });

  it('serves the demo at http://127.0.0.1:$PORT/mcp: a refund in two rounds, then SIGTERM ends it with exit 0', async () => {
    const settings = freshDemoSettings();
    const child = spawn(process.execPath, [LAUNCHER], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: settings.db.replace(/\/orders\.db$/, ''),
        ROUNDTRIP_DB: settings.db,
        ROUNDTRIP_KEY: settings.key,
        ROUNDTRIP_PRINCIPAL: 'ada',
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const url = await new Promise<URL>((resolve, reject) => {
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const match = / over HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(stderr);
        if (match && stderr.includes('info demo: database at')) resolve(new URL(match[1]!));
      });
      void exited.then(() => reject(new Error(`the demo exited before it served:\n${stderr}`)));
    });
    expect(stderr).toContain(`[roundtrip-demo] info demo: database at ${settings.db}`);

    const client = new Client(
      { name: 'demo-http-test', version: '0.0.1' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(url));
    clients.push(client);
    const ask = await callRound(client, 'refund_order', { order_id: 'ord_51' });
    expect(ask.inputRequests?.confirm?.params.message).toBe('Refund $49.00 for order ord_51?');
    const refunded = await callRound(
      client,
      'refund_order',
      { order_id: 'ord_51' },
      { requestState: ask.requestState, inputResponses: { confirm: accept({ confirm: true }) } },
    );
    expect(refunded.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
    expect(await refundsIn(settings.db, 'ord_51')).toBe(1);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('[roundtrip-demo] info stopped: stopped;');
  });
});
