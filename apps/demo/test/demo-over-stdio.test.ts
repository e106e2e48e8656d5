// The demo server as a real child process over stdio, one client (and one process) of each protocol era. Everything
// else is tested in this process (refund-order, prompt-and-resource, state-refusals); `pnpm demo`
// runs the launcher hosts run (bin/roundtrip-demo.mjs, through tsx).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDemoClient } from '../src/connect-demo-client.ts';
import { bundledScript } from './support/bundle.ts';
import {
  accept,
  callRound,
  connectDemo,
  type DemoConnection,
  type DemoSettings,
  freshDemoSettings,
  promptRound,
  readRound,
  refusal,
} from './support/demo-client.ts';
import { refundsIn } from './support/demo-files.ts';

// the cases run concurrently (each its own server process, database and key; most of their time is spent waiting on
// the process): the connections are closed once they all have run
const open: DemoConnection[] = [];
afterAll(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

// the server's sources bundled once: each process then starts without tsx, in about half the time
const bundleDir = mkdtempSync(join(tmpdir(), 'rt-demo-server-'));
let launcher: string;
beforeAll(async () => {
  launcher = await bundledScript(new URL('../src/server.ts', import.meta.url), bundleDir);
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));
const settingsFor = (): DemoSettings => ({ ...freshDemoSettings(), launcher });

describe('the demo server over stdio', { concurrent: true }, () => {
  it('serves a 2026-07-28 client: lists, a refund, the prompt and the resource in MRTR rounds; refuses a tampered state', async () => {
    const settings = settingsFor();
    const demo = await connectDemo(settings);
    open.push(demo);
    const { client } = demo;
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getInstructions()).toMatch(/refunded at most once/);
    const ask = await callRound(client, 'refund_order', { order_id: 'ord_51' });
    expect(ask.inputRequests?.confirm?.params.message).toBe('Refund $49.00 for order ord_51?');
    const logFrom = demo.stderr().length;
    const state = ask.requestState!;
    const at = state.length - 7;
    const forged = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
    expect(
      await refusal(
        callRound(
          client,
          'refund_order',
          { order_id: 'ord_51' },
          { requestState: forged, inputResponses: { confirm: accept({ confirm: true }) } },
        ),
      ),
    ).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
    expect(await demo.waitForLog(/requestState refused \(invalid\)/, { from: logFrom })).toMatch(/failed authentication/);
    // the demo declares its own variables (ROUNDTRIP_DB) to the server, whose check of the names at start leaves them alone
    expect(demo.stderr()).not.toContain('no setting has that name');
    const refunded = await callRound(
      client,
      'refund_order',
      { order_id: 'ord_51' },
      { requestState: ask.requestState, inputResponses: { confirm: accept({ confirm: true }) } },
    );
    expect(refunded.content?.[0]?.text).toBe('Refunded $49.00 for order ord_51.');
    expect(refunded.structuredContent).toMatchObject({ status: 'refunded', amount_cents: 4900 });
    expect(await refundsIn(settings.db, 'ord_51')).toBe(1);

    const style = await promptRound(client, 'refund_email', { order_id: 'ord_51' });
    expect(style.resultType).toBe('input_required');
    expect(style.inputRequests?.style?.params.message).toBe('How should the refund email to ada about order ord_51 read?');
    const email = await promptRound(
      client,
      'refund_email',
      { order_id: 'ord_51' },
      { requestState: style.requestState, inputResponses: { style: accept({ tone: 'friendly', mention_amount: true }) } },
    );
    expect(email.messages).toEqual([
      { role: 'user', content: { type: 'text', text: expect.stringContaining('Mention the refunded amount, $49.00.') } },
    ]);

    const uri = 'statement://customers/ada';
    const month = await readRound(client, uri);
    expect(month.inputRequests?.month?.params.message).toMatch(
      /^Which month of ada's statement\? Months with orders or refunds: 2026-05, \d{4}-\d\d\.$/,
    );
    const statement = await readRound(client, uri, {
      requestState: month.requestState,
      inputResponses: { month: accept({ month: '2026-05' }) },
    });
    expect(statement.contents).toEqual([
      { uri, mimeType: 'text/plain', text: expect.stringMatching(/^Statement for ada, May 2026 \(2026-05\)\n[\s\S]*Net: +\$169\.00\n$/) },
    ]);

    // listed last: once the client has cached tools/list, SDK 2.4.0 checks every tools/call result against the
    // tool's output schema, input_required ones included, so a manual-mode round of refund_order would be refused
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.annotations])).toEqual([
      ['refund_order', { destructiveHint: true, idempotentHint: false, readOnlyHint: false, openWorldHint: false }],
      ['order_status', { readOnlyHint: true, openWorldHint: false }],
      ['book_meeting', { destructiveHint: false, idempotentHint: false, readOnlyHint: false, openWorldHint: false }],
      ['report_incident', { destructiveHint: false, idempotentHint: false, readOnlyHint: false, openWorldHint: false }],
      ['refund_customer', { destructiveHint: true, idempotentHint: false, readOnlyHint: false, openWorldHint: false }],
    ]);
    expect(tools.slice(0, 2).every((t) => t.outputSchema?.type === 'object')).toBe(true);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['refund_email', 'meeting_agenda']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'statement://customers/{customer}', name: 'customer_statement' }),
      expect.objectContaining({ uriTemplate: 'bookings://rooms/{room}', name: 'room_bookings' }),
    ]);
  });

  // one 2025-11-25 host for both: each elicitation/create is answered by its message
  it("serves a 2025-11-25 host through real elicitation/create requests: a refund, the prompt and the resource; a declared flow, report_incident's round of two forms as two requests", async () => {
    const settings = settingsFor();
    const asked: string[] = [];
    const byMessage: Array<[RegExp, Record<string, unknown>]> = [
      [/^Refund \$120\.00 for order ord_52\?$/, accept({ confirm: true })],
      [/^How should the refund email/, accept({ tone: 'brief', mention_amount: false })],
      [/^Which month of ada's statement\?/, accept({ month: '2026-05' })],
      [/^How severe/, accept({ level: 'high' })],
      [/^Which services/, accept({ services: ['search'], description: 'Search answers in 9 s instead of 200 ms.' })],
      [/^A high-severity incident/, accept({ page: false })],
    ];
    const demo = await connectDemo(settings, {
      era: 'legacy',
      answer: (message) => {
        asked.push(message);
        return byMessage.find(([pattern]) => pattern.test(message))?.[1] ?? { action: 'cancel' };
      },
    });
    open.push(demo);
    const { client } = demo;
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const refund = (await client.callTool({ name: 'refund_order', arguments: { order_id: 'ord_52' } })) as {
      content: Array<{ text: string }>;
    };
    expect(refund.content[0]?.text).toBe('Refunded $120.00 for order ord_52.');
    const email = await client.getPrompt({ name: 'refund_email', arguments: { order_id: 'ord_52' } });
    expect(email.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringContaining('Do not mention the amount.') });
    const statement = await client.readResource({ uri: 'statement://customers/ada' });
    expect(statement.contents[0]).toMatchObject({ mimeType: 'text/plain', text: expect.stringContaining('Statement for ada, May 2026') });
    expect(asked).toEqual([
      'Refund $120.00 for order ord_52?',
      'How should the refund email to ada about order ord_52 read?',
      expect.stringMatching(/^Which month of ada's statement\?/),
    ]);
    expect(await refundsIn(settings.db, 'ord_52')).toBe(1);

    asked.length = 0;
    const report = (await client.callTool({ name: 'report_incident', arguments: { summary: 'Search is slow' } })) as {
      content: Array<{ text: string }>;
    };
    expect(report.content[0]?.text).toBe('Recorded incident 1 (high): "Search is slow" affecting Search; nobody was paged.');
    expect(asked).toHaveLength(3);
    expect(asked[0]).toBe('How severe is "Search is slow"?');
    expect(asked.slice(1).sort()).toEqual([
      'A high-severity incident: page the on-call engineer now?',
      'Which services does "Search is slow" affect, and what happened?',
    ]);
  });

  it('says why when the server cannot start: the connection error carries the log the server wrote', async () => {
    const env = { ROUNDTRIP_DB: '/dev/null/orders.db', ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada' };
    const failed = await connectDemoClient({ era: 'modern', env, launcher }).then(
      () => new Error('the server should not have started'),
      (error: Error) => error,
    );
    expect(failed.message).toMatch(/^The demo server did not answer: .+\nIts log \(stderr\): \n/);
    expect(failed.message).toContain(
      "[roundtrip-demo] cannot start: Could not open the orders database at /dev/null/orders.db: EEXIST: file already exists, mkdir '/dev/null'\n" +
        '    Set ROUNDTRIP_DB to a file path in a folder this user can write to.',
    );
  });
});
