// The host side of the consumer test: starts `node dist/server.js` (or the command given as arguments)
// as a desktop host would, connects the
// official MCP client over stdio pinned to 2026-07-28, and plays two conversations through their
// input_required rounds to the final results. Prints one line per check; throws on the first failure.
import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const client = new Client(
  { name: 'consumer-test-host', version: '1.0.0' },
  {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
    inputRequired: { autoFulfill: false },
  },
);
// the server to start: `node dist/server.js` unless the arguments name another (e.g. the roundtrip bin and `serve dist/tools.js`)
const serverArgs = process.argv.length > 2 ? process.argv.slice(2) : ['dist/server.js'];
const transport = new StdioClientTransport({
  command: process.execPath,
  args: serverArgs,
  env: { ...getDefaultEnvironment(), HOME: process.env.HOME ?? '' },
  stderr: 'pipe',
});
let serverLog = '';
transport.stderr?.on('data', (chunk) => {
  serverLog += chunk.toString();
});
const manual = { allowInputRequired: true, timeout: 20_000 };
const ok = (what) => process.stdout.write(`ok ${what}\n`);

/** One round of `name`; a retry when `retry` carries the answers and the state of the round before. */
const call = (name, args, retry = {}) => client.callTool({ name, arguments: args, ...retry }, manual);

/** Checks that `result` asks exactly `key`, and returns its state for the retry. */
function asks(result, key, message) {
  strictEqual(result.resultType, 'input_required', `expected input_required, got ${JSON.stringify(result)}`);
  deepStrictEqual(Object.keys(result.inputRequests ?? {}), [key]);
  const request = result.inputRequests[key];
  strictEqual(request.method, 'elicitation/create');
  if (message instanceof RegExp) {
    if (!message.test(request.params.message)) throw new Error(`the question '${request.params.message}' does not match ${message}`);
  } else strictEqual(request.params.message, message);
  strictEqual(typeof result.requestState, 'string');
  return result.requestState;
}
const accept = (key, content) => ({ [key]: { action: 'accept', content } });
const textOf = (result) => result.content?.map((block) => block.text).join('\n');

try {
  await client.connect(transport);
  strictEqual(client.getProtocolEra(), 'modern');
  ok('connected at 2026-07-28');

  const { tools } = await client.listTools();
  deepStrictEqual(tools.map((tool) => tool.name).sort(), ['greet', 'plan_trip']);
  ok('tools/list: greet, plan_trip');

  // greet: a hand-written machine with one question
  const first = await call('greet', { greeting: 'Hello' });
  const state = asks(first, 'who', 'Whom should I say "Hello" to?');
  ok('greet round 1: input_required asking "who"');
  const greeted = await call('greet', { greeting: 'Hello' }, { inputResponses: accept('who', { name: 'Ada' }), requestState: state });
  strictEqual(textOf(greeted), 'Hello, Ada!');
  ok('greet round 2: "Hello, Ada!"');

  // plan_trip: a declared flow of two forms, one answer refused by its schema and asked again
  const args = { city: 'Lisbon' };
  const when = asks(await call('plan_trip', args), 'when', 'When do you go to Lisbon?');
  const party = asks(
    await call('plan_trip', args, { inputResponses: accept('when', { date: '2026-09-01' }), requestState: when }),
    'party',
    'How many travel, and how?',
  );
  const again = asks(
    await call('plan_trip', args, { inputResponses: accept('party', { people: 0, by: 'train' }), requestState: party }),
    'party',
    /people/,
  );
  ok('plan_trip rounds 1-3: "when", "party", "party" again after an answer out of range');
  const trip = await call('plan_trip', args, { inputResponses: accept('party', { people: 2, by: 'train' }), requestState: again });
  strictEqual(trip.isError ?? false, false);
  strictEqual(textOf(trip), 'Trip to Lisbon on 2026-09-01 for 2 by train.');
  ok('plan_trip round 4: "Trip to Lisbon on 2026-09-01 for 2 by train."');
} catch (error) {
  // the whole log: once the client is closed, the server's stderr ends
  const ended = transport.stderr?.readableEnded ? Promise.resolve() : new Promise((resolve) => transport.stderr?.once('end', resolve));
  await client.close();
  await ended;
  process.stderr.write(`server log:\n${serverLog}\n`);
  throw error;
}
await client.close();
