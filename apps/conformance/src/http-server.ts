// The conformance fixture over stateless Streamable HTTP (what `pnpm conformance:serve` runs), for the official
// suite: http://127.0.0.1:$PORT/mcp (PORT 3000 by default; 0 picks a free one), on this machine only and without
// authentication. States are sealed with a key generated at start and effects are recorded in memory, so nothing
// is read from or written to disk and nothing outlives the process. Everything for people goes to stderr.
import { createMemoryLedger, generateKey } from '@roundtrip/engine';
import { mainHttpServer } from '@roundtrip/transport-http/node';
import { conformanceDefinitions, SERVER_NAME } from './definitions.ts';

const SERVER_VERSION = '0.1.0';

const portText = process.env.PORT?.trim() || '3000';
const port = /^\d{1,5}$/.test(portText) && Number(portText) <= 65535 ? Number(portText) : undefined;
if (port === undefined) {
  process.stderr.write(
    `[${SERVER_NAME}] cannot start: PORT is ${JSON.stringify(portText)}; give the port to listen on, from 0 to 65535 (0 picks a free one).\n`,
  );
  process.exitCode = 1;
} else {
  await mainHttpServer({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    ...conformanceDefinitions,
    // PORT alone: the address stays 127.0.0.1, where no authentication is needed
    listen: { port },
    ledger: createMemoryLedger(),
    // a fresh key and a fixed principal: no key file, no OS user
    env: { ...process.env, ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'conformance' },
  });
}
