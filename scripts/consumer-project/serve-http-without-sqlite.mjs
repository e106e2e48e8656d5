// The HTTP side of the consumer test, in a project that installed @roundtrip/transport-http without
// better-sqlite3 (an optional peer: npm leaves it out): a server whose ledger is in memory starts and answers
// a call over real HTTP, and one whose ledger would be a SQLite file is refused saying what to install.
// Prints one line per check; throws on the first failure.
import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { defineTool, generateKey } from '@roundtrip/engine';
import { RoundtripConfigError } from '@roundtrip/transport-http';
import { runHttpServer } from '@roundtrip/transport-http/node';
import { setup } from 'xstate';
import { z } from 'zod';

const ok = (what) => process.stdout.write(`ok ${what}\n`);

let installed = true;
try {
  createRequire(import.meta.url).resolve('better-sqlite3');
} catch {
  installed = false;
}
strictEqual(installed, false, 'better-sqlite3 is installed in this project: the check below would prove nothing');
ok('better-sqlite3 is not installed');

// a tool that answers at once: one final state
const machine = setup({ types: { output: {} } }).createMachine({
  id: 'hello',
  initial: 'done',
  states: { done: { type: 'final' } },
  output: () => ({ text: 'hello without SQLite' }),
});
const hello = defineTool({ name: 'hello', description: 'Says hello', input: z.object({}), machine, result: (output) => output });

const options = { name: 'no-sqlite', version: '1.0.0', tools: [hello], listen: '127.0.0.1:0', handleSignals: false, log: () => {} };
const env = { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada' };

const server = await runHttpServer({ ...options, env: { ...env, ROUNDTRIP_LEDGER: ':memory:' } });
try {
  const client = new Client(
    { name: 'consumer-test-http', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(server.url));
  const result = await client.callTool({ name: 'hello', arguments: {} });
  deepStrictEqual(
    result.content?.map((block) => block.text),
    ['hello without SQLite'],
  );
  await client.close();
  ok(`ROUNDTRIP_LEDGER=:memory: serves over HTTP at ${server.url.href}: tools/call hello answered`);
} finally {
  await server.close();
}

const refused = await runHttpServer({ ...options, env: { ...env, ROUNDTRIP_LEDGER: join(process.cwd(), 'effects.db') } }).then(
  (started) => started.close().then(() => undefined),
  (error) => error,
);
if (!(refused instanceof RoundtripConfigError)) throw new Error(`expected a RoundtripConfigError, got ${refused?.stack ?? refused}`);
strictEqual(refused.code, 'missing_dependency');
strictEqual(refused.setting, 'ROUNDTRIP_LEDGER');
if (!refused.message.includes('npm install better-sqlite3@12') || !refused.message.includes(':memory:'))
  throw new Error(`the refusal does not say what to install or what needs nothing: ${refused.message}`);
ok(`a SQLite ledger is refused: ${refused.message}`);
