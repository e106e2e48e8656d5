// The official TypeScript client (@modelcontextprotocol/client 2.4.0) driving a multi-step Roundtrip tool on MCP
// 2026-07-28 in manual mode: each `input_required` result comes back to this code, which answers its questions
// (here fixed answers stand in for the user) and calls the tool again with the answers and the `requestState` it
// was handed. That is what a host that shows its own forms does. For the client answering the rounds itself through
// an elicitation handler, see official-client-auto.ts. (docs/hosts.md#official-sdk-clients)
//
// Run it from the repository: npx tsx apps/demo/src/examples/official-client.ts [url]
// Without a URL it starts the demo server over HTTP in this process; with one (e.g. http://127.0.0.1:3000/mcp,
// what `pnpm serve:http` serves) it talks to that server.
import {
  type CallToolRequest,
  type CallToolResult,
  Client,
  type ElicitRequest,
  type ElicitResult,
  type InputRequiredResult,
  type InputResponses,
  isInputRequiredResult,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { type DemoOverHttp, startDemoOverHttp } from './demo-over-http.ts';

/** A tools/call's params plus what a retry carries. 2.4.0 types `callTool`'s params without the two, but sends them as given. */
type CallParams = CallToolRequest['params'] & { inputResponses?: InputResponses; requestState?: string };

const print = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Calls a tool until it finishes: every `input_required` result is answered by `answer`, one answer for each
 * question under the key the server gave it, and the call is made again with the same name and arguments, the
 * answers, and the `requestState` exactly as received (the server checks it; the client never reads it).
 */
async function callUntilDone(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  answer: (key: string, question: ElicitRequest['params']) => ElicitResult,
): Promise<CallToolResult> {
  let params: CallParams = { name, arguments: args };
  for (let round = 1; round <= 20; round++) {
    // allowInputRequired: hand an input_required result back instead of failing on it (manual mode)
    const result: CallToolResult | InputRequiredResult = await client.callTool(params, { allowInputRequired: true });
    if (!isInputRequiredResult(result)) return result;
    const inputResponses: InputResponses = {};
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
      // this client declared elicitation only, so that is all it is asked for
      if (request.method !== 'elicitation/create')
        throw new Error(`${name} asked for ${request.method}, which this client does not offer.`);
      print(`Round ${round}, question '${key}': ${request.params.message.replace(/\n(?=.)/g, '\n    ')}`);
      inputResponses[key] = answer(key, request.params);
      print(`  answer: ${JSON.stringify(inputResponses[key])}`);
    }
    params = { name, arguments: args, inputResponses, ...(result.requestState !== undefined && { requestState: result.requestState }) };
  }
  throw new Error(`${name} was still asking after 20 rounds.`);
}

/** A date 30 days from today (book_meeting refuses dates in the past). */
const date = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
/**
 * What "the user" answers, by the key of each question of book_meeting. A real client shows `message` and renders
 * `requestedSchema` as a form; it may also answer `{ action: 'decline' }` or `{ action: 'cancel' }`.
 */
const ANSWERS: Record<string, ElicitResult> = {
  when: { action: 'accept', content: { date, time: '14:00', attendees: 8 } },
  room: { action: 'accept', content: { room: 'orion' } }, // asked because more than 5 people come
  confirm: { action: 'accept', content: { choice: 'confirm' } }, // the review: book it
};

const given = process.argv[2];
const demo: DemoOverHttp | undefined = given ? undefined : await startDemoOverHttp();
const client = new Client(
  { name: 'official-client-example', version: '1.0.0' },
  {
    // the questions this client can show: forms. A client that declares none is never asked (see docs/hosts.md)
    capabilities: { elicitation: { form: {} } },
    // input_required rounds exist on 2026-07-28 only: pin it (connect fails on a server that does not speak it)
    versionNegotiation: { mode: { pin: '2026-07-28' } },
    // manual mode: no handler answers the rounds; each call passes allowInputRequired and gets them back
    inputRequired: { autoFulfill: false },
  },
);
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(given ?? String(demo?.url))));
  print(`Connected to ${client.getServerVersion()?.name ?? 'the server'} on ${client.getNegotiatedProtocolVersion()}.`);

  // In manual mode, list with cacheMode 'bypass': 2.4.0 checks a tool's output schema from the cached listing, and
  // would take book_meeting's input_required result for a final one ("did not return structured content").
  const { tools } = await client.listTools(undefined, { cacheMode: 'bypass' });
  print(`Tools: ${tools.map((tool) => tool.name).join(', ')}`);

  const result = await callUntilDone(client, 'book_meeting', { topic: 'Quarterly planning' }, (key) => {
    const answer = ANSWERS[key];
    if (!answer) throw new Error(`No answer for question '${key}'.`);
    return answer;
  });
  const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  print(`Result${result.isError ? ' (an error)' : ''}: ${text}`);
  print(`Structured: ${JSON.stringify(result.structuredContent)}`);
} finally {
  await client.close();
  await demo?.close();
}
