// The stdio servers of bench:e2e in this process, each on PassThrough streams and driven by raw JSON lines
// (the two requests the official client sends: ask to confirm, then decline): ours (the demo's definitions
// through runStdioServer) and the peer (bench/peers through the SDK's serveStdio on its StdioServerTransport).
// What each spends on a conversation without the pipes; used by stdio-in-process.ts and warm-up.ts (whose
// bench also drives the bundled servers over real pipes with lineClient).
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { createDemoDefinitions } from '../apps/demo/src/demo-definitions.ts';
import type { DemoStores } from '../apps/demo/src/demo-stores.ts';
import { generateKey } from '../packages/engine/src/index.ts';
import { runStdioServer } from '../packages/transport-stdio/src/index.ts';
import { openPeerOrders } from './peers/peer-orders.ts';
import { createRefundPeerFactory } from './peers/refund-peer-server.ts';

export type Side = 'ours' | 'peer';
/** Sends one request line and resolves with the next line the server writes. */
export type Send = (line: string) => Promise<string>;

/** A line client on a server's stdin and stdout: each request line sent resolves with the next line written back. */
export function lineClient(stdin: Writable, stdout: Readable): Send {
  let waiting: ((line: string) => void) | undefined;
  let buffered = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const resolve = waiting;
      waiting = undefined;
      resolve?.(line);
    }
  });
  return (line) =>
    new Promise((resolve) => {
      waiting = resolve;
      stdin.write(`${line}\n`);
    });
}

/** A server's streams, and the line client on them. */
function streams() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough().resume();
  return { stdin, stdout, stderr, send: lineClient(stdin, stdout) };
}

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
let nextId = 1;
const call = (params: Record<string, unknown>) =>
  JSON.stringify({
    method: 'tools/call',
    params: { name: 'refund_order', arguments: { order_id: 'ord_51' }, ...params, _meta: meta },
    jsonrpc: '2.0',
    id: nextId++,
  });

/** One conversation: the first round asks, the second declines and keeps the order. */
export async function conversation(send: Send): Promise<void> {
  const asked = await send(call({}));
  const requestState = /"requestState":"([^"]+)"/.exec(asked)?.[1];
  if (!requestState) throw new Error(`expected the first round to ask: ${asked}`);
  const ended = await send(call({ requestState, inputResponses: { confirm: { action: 'decline' } } }));
  if (!ended.includes('"status":"kept"')) throw new Error(`expected 'kept': ${ended}`);
}

/** Starts a side's server on the demo's stores (whose file `db` is) and returns its line client. */
export async function startLineServer(side: Side, stores: DemoStores, db: string): Promise<Send> {
  const { stdin, stdout, stderr, send } = streams();
  if (side === 'ours')
    await runStdioServer({
      name: 'roundtrip-demo',
      version: '0.3.0',
      ...createDemoDefinitions(stores),
      ledger: { path: db },
      env: { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada' },
      stdio: { stdin, stdout, stderr },
    });
  else
    serveStdio(createRefundPeerFactory({ orders: openPeerOrders(db), stateKey: generateKey(), principal: 'ada' }), {
      transport: new StdioServerTransport(stdin, stdout),
    });
  return send;
}
