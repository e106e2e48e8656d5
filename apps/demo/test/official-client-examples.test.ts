// The official-client examples of docs/hosts.md run as programs (the page runs them with `npx tsx <file>`; here the
// same sources bundled by the suite, which plain node starts without tsx's 1.5 s of CPU a process), each starting
// the demo over HTTP in its own process: official-client.ts books a meeting in three
// input_required rounds it answers itself (manual mode), official-client-auto.ts refunds an order with the client
// answering the question through its elicitation handler. And the 2.4.0 quirk official-client.ts works around: in
// manual mode, a listing kept in the client's cache makes it take an input_required result for a final one.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBundles } from '../../../packages/mcp/test/fixtures/suite-bundle.ts';
import { type DemoOverHttp, startDemoOverHttp } from '../src/examples/demo-over-http.ts';

const DEMO = fileURLToPath(new URL('..', import.meta.url));

const bundles = createBundles();
afterAll(() => bundles.remove());

/** Runs an example as a program; resolves with what it printed on stdout (its server logs on stderr). */
async function runExample(file: string): Promise<string> {
  const script = await bundles.of(fileURLToPath(new URL(`../src/examples/${file}`, import.meta.url)));
  const { stdout } = await promisify(execFile)(process.execPath, [script], {
    cwd: DEMO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    timeout: 30_000,
  });
  return stdout;
}

const TOOLS = 'Tools: refund_order, order_status, book_meeting, report_incident, refund_customer';

describe('the official-client examples (docs/hosts.md#official-sdk-clients)', () => {
  it('official-client.ts answers each input_required round of book_meeting itself, then prints the booking', async () => {
    const stdout = await runExample('official-client.ts');
    const date = /"date":"(\d{4}-\d{2}-\d{2})"/.exec(stdout)?.[1] ?? 'no date answered';
    expect(stdout.split('\n')).toEqual([
      'Connected to roundtrip-demo on 2026-07-28.',
      TOOLS,
      `Round 1, question 'when': When should "Quarterly planning" take place, and for how many people?`,
      `  answer: {"action":"accept","content":{"date":"${date}","time":"14:00","attendees":8}}`,
      `Round 2, question 'room': Which room for 8 people on ${date} at 14:00?`,
      '  answer: {"action":"accept","content":{"room":"orion"}}',
      `Round 3, question 'confirm': Book "Quarterly planning"?`,
      '',
      `    - Date: ${date}`,
      '    - Time: 14:00',
      '    - Attendees: 8',
      '    - Room: Orion (up to 20)',
      '  answer: {"action":"accept","content":{"choice":"confirm"}}',
      `Result: Booked "Quarterly planning" in Orion on ${date} at 14:00 for 8 people (booking 1).`,
      `Structured: {"status":"booked","booking_id":1,"topic":"Quarterly planning","date":"${date}","time":"14:00","attendees":8,"room":"orion"}`,
      '',
    ]);
    expect(date > new Date().toISOString().slice(0, 10)).toBe(true);
  });

  it('official-client-auto.ts lets the client answer the question through its handler, inside one callTool', async () => {
    const stdout = await runExample('official-client-auto.ts');
    const lines = stdout.split('\n');
    expect(lines.slice(0, -2)).toEqual([
      'Connected to roundtrip-demo on 2026-07-28.',
      TOOLS,
      'Asked: Refund $49.00 for order ord_51?',
      '  answer: {"action":"accept","content":{"confirm":true}}',
      'Result after 1 question: Refunded $49.00 for order ord_51.',
    ]);
    const structured = JSON.parse(lines.at(-2)?.replace(/^Structured: /, '') ?? 'null') as Record<string, unknown>;
    expect(structured).toMatchObject({ status: 'refunded', order_id: 'ord_51', amount: '$49.00', amount_cents: 4900 });
    expect(lines.at(-1)).toBe('');
  });
});

describe('@modelcontextprotocol/client 2.4.0 in manual mode, with a tool that has an output schema', () => {
  let demo: DemoOverHttp;
  const clients: Client[] = [];
  beforeAll(async () => {
    demo = await startDemoOverHttp({ log: () => {} });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await demo?.close();
  });

  const manualClient = async () => {
    const client = new Client(
      { name: 'manual-mode-quirk', version: '0.0.1' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(demo.url));
    clients.push(client);
    return client;
  };
  const firstRound = (client: Client) =>
    client.callTool({ name: 'book_meeting', arguments: { topic: 'Quirk' } }, { allowInputRequired: true });

  it('takes the first round for a final result once listTools() has cached the schema (what docs/hosts.md warns of)', async () => {
    const client = await manualClient();
    await client.listTools();
    await expect(firstRound(client)).rejects.toThrow('Tool book_meeting has an output schema but did not return structured content');
  });

  it("hands the round back when the listing was made with cacheMode 'bypass', as official-client.ts lists", async () => {
    const client = await manualClient();
    const { tools } = await client.listTools(undefined, { cacheMode: 'bypass' });
    expect(tools.find((tool) => tool.name === 'book_meeting')?.outputSchema).toBeDefined();
    expect(await firstRound(client)).toMatchObject({
      resultType: 'input_required',
      inputRequests: { when: { method: 'elicitation/create' } },
    });
  });
});
