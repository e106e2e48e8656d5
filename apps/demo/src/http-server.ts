// The demo MCP server over stateless Streamable HTTP (what `pnpm serve:http` runs): the same tools,
// prompts and resources as over stdio (server.ts), at http://127.0.0.1:$PORT/mcp (PORT 3000 by default),
// with the same environment (ROUNDTRIP_DB, ROUNDTRIP_KEY or ROUNDTRIP_KEY_FILE, ROUNDTRIP_LEDGER,
// ROUNDTRIP_PRINCIPAL) plus the HTTP transport's (ROUNDTRIP_JWKS, ROUNDTRIP_ISSUER, ROUNDTRIP_AUDIENCE,
// ROUNDTRIP_PUBLIC_URL, ROUNDTRIP_ALLOWED_HOSTS, …). On SIGTERM or SIGINT it finishes the rounds in flight,
// closes the database and exits. Everything for people goes to stderr.
import { mainHttpServer } from '@roundtrip/transport-http/node';
import { dbBusyTimeoutMs } from './db-busy-timeout.ts';
import { dbLocation, isPostgresUrl, ledgerInDatabase, shownDbLocation } from './db-location.ts';
import { createDemoDefinitions, DEMO_VARIABLES, SERVER_INSTRUCTIONS, SERVER_NAME, SERVER_VERSION } from './demo-definitions.ts';
import { type DemoStores, openDemoStores } from './demo-stores.ts';
import { demoRefundMs } from './refund-delay.ts';

const cannotStart = (problem: string) => {
  process.stderr.write(`[${SERVER_NAME}] cannot start: ${problem}\n`);
  process.exitCode = 1;
};

const portText = process.env.PORT?.trim() || '3000';
const port = /^\d{1,5}$/.test(portText) && Number(portText) <= 65535 ? Number(portText) : undefined;
if (port === undefined)
  cannotStart(`PORT is ${JSON.stringify(portText)}; give the port to listen on, from 0 to 65535 (0 picks a free one).`);
const path = dbLocation();
let busyTimeoutMs: number | undefined;
try {
  busyTimeoutMs = dbBusyTimeoutMs();
  demoRefundMs(); // checked at start; refund_customer reads it at each refund
} catch (error) {
  cannotStart((error as Error).message);
}
let stores: DemoStores | undefined;
if (port !== undefined && busyTimeoutMs !== undefined) {
  try {
    stores = await openDemoStores(path, { busyTimeoutMs });
  } catch (error) {
    const fix = isPostgresUrl(path)
      ? 'ROUNDTRIP_DB names the PostgreSQL database (postgres://user:password@host:5432/database), or a SQLite file path.'
      : 'Set ROUNDTRIP_DB to a file path in a folder this user can write to.';
    cannotStart(`${(error as Error).message}\n    ${fix}`);
  }
}

if (stores && port !== undefined) {
  const opened = stores;
  const running = await mainHttpServer({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    ...createDemoDefinitions(opened, { ledgerInDatabase: ledgerInDatabase(path) }),
    instructions: SERVER_INSTRUCTIONS,
    ownVariables: DEMO_VARIABLES,
    // PORT alone: the address stays 127.0.0.1 (roundtrip serve --http host:port binds others, with authentication)
    listen: { port },
    // the effect ledger's table sits beside the demo's tables in the same file or database (ROUNDTRIP_LEDGER overrides it)
    ledger: { path },
    onClose: () => opened.close(),
  });
  if (running) process.stderr.write(`[${SERVER_NAME}] info demo: database at ${shownDbLocation(path)}\n`);
  else await opened.close();
}
