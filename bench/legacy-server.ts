// The server of bench/legacy-http.bench.ts, run as a child process from a bundle (legacy-servers.ts builds
// and starts it): runHttpServer serving the bench's one-question tool (legacy-tool.ts) at 127.0.0.1 on a
// port the OS picks, with the settings of its environment (ROUNDTRIP_KEY, ROUNDTRIP_PRINCIPAL,
// ROUNDTRIP_LEDGER: `:memory:`, or a PostgreSQL URL whose instances relay 2025-era answers to each other,
// ROUNDTRIP_INSTANCE). It handles SIGTERM as a deployed server does (and so tunes V8 as one); its startup line
// on stderr gives the URL.
import { mainHttpServer } from '../packages/transport-http/src/node/index.ts';
import { nameGreetingTool } from './legacy-tool.ts';

await mainHttpServer({ name: 'legacy-bench', version: '0.0.1', tools: [nameGreetingTool], listen: { port: 0 } });
