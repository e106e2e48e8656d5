// The official TypeScript client (@modelcontextprotocol/client 2.4.0) answering a Roundtrip tool's questions by
// itself: an `elicitation/create` handler, and the client's default `inputRequired: { autoFulfill: true }`. On
// 2026-07-28 the client passes each question of an `input_required` result to that handler and calls again with the
// answers and the `requestState`, inside one `callTool`; on a 2025 revision the same handler answers the server's
// real `elicitation/create` requests. For driving the rounds from your own code, see official-client.ts.
// (docs/hosts.md#official-sdk-clients)
//
// Run it from the repository: npx tsx apps/demo/src/examples/official-client-auto.ts [url]
// Without a URL it starts the demo server over HTTP in this process; with one it talks to that server.
import { Client, type ElicitResult, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type DemoOverHttp, startDemoOverHttp } from './demo-over-http.ts';

const print = (line: string) => process.stdout.write(`${line}\n`);

const given = process.argv[2];
const demo: DemoOverHttp | undefined = given ? undefined : await startDemoOverHttp();
const client = new Client(
  { name: 'official-client-auto-example', version: '1.0.0' },
  {
    // a handler for elicitation/create needs the capability declared: forms
    capabilities: { elicitation: { form: {} } },
    // server/discover first: 2026-07-28 where the server speaks it, else the 2025 handshake (2.4.0's default is
    // 'legacy', the 2025 handshake only)
    versionNegotiation: { mode: 'auto' },
    // the default, written out: the client answers input_required rounds itself, at most 10 rounds a call (a longer
    // conversation, questions asked again included, fails with INPUT_REQUIRED_ROUNDS_EXCEEDED: raise maxRounds)
    inputRequired: { autoFulfill: true, maxRounds: 10 },
  },
);

let asked = 0;
// The user, as far as this client goes: shown `message` and a form from `requestedSchema`. Here a fixed answer stands
// in: yes to a question with a `confirm` field, no (decline) to anything else.
client.setRequestHandler('elicitation/create', async (request): Promise<ElicitResult> => {
  asked++;
  print(`Asked: ${request.params.message}`);
  const fields = 'requestedSchema' in request.params ? Object.keys(request.params.requestedSchema.properties) : [];
  const answer: ElicitResult = fields.includes('confirm') ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  print(`  answer: ${JSON.stringify(answer)}`);
  return answer;
});

try {
  await client.connect(new StreamableHTTPClientTransport(new URL(given ?? String(demo?.url))));
  print(`Connected to ${client.getServerVersion()?.name ?? 'the server'} on ${client.getNegotiatedProtocolVersion()}.`);

  // with the rounds answered inside callTool, a plain listing is fine: only final results are checked against
  // refund_order's output schema
  const { tools } = await client.listTools();
  print(`Tools: ${tools.map((tool) => tool.name).join(', ')}`);

  // one call: every round happens inside it, and what comes back is the final result
  const result = await client.callTool({ name: 'refund_order', arguments: { order_id: 'ord_51' } });
  const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  print(`Result after ${asked} question${asked === 1 ? '' : 's'}: ${text}`);
  print(`Structured: ${JSON.stringify(result.structuredContent)}`);
} finally {
  await client.close();
  await demo?.close();
}
