// The peer over stateless Streamable HTTP: the SDK's createMcpHandler (legacy 'stateless', responseMode
// 'auto', as our HTTP transport sets them) on node:http through @modelcontextprotocol/node's toNodeHandler,
// at http://127.0.0.1:$PORT/mcp (PORT 0 picks one). `node --import tsx bench/peers/peer-http.ts` with the
// settings of peer-stdio.ts; it writes `[refund-peer] listening at <url>` to stderr when ready. With
// PEER_PARSED_BODY=1 it reads each POST body itself and hands the SDK the parsed JSON (`parsedBody`), as
// our listener does, for a like-for-like comparison.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { openPeerOrders } from './peer-orders.ts';
import { peerSettings } from './peer-settings.ts';
import { createRefundPeerFactory } from './refund-peer-server.ts';

const { db, stateKey, principal, synchronous, exactlyOnce } = peerSettings();
const orders = openPeerOrders(db, synchronous, exactlyOnce);
const handler = createMcpHandler(createRefundPeerFactory({ orders, stateKey, principal }), {
  legacy: 'stateless',
  responseMode: 'auto',
  onerror: (error) => process.stderr.write(`[refund-peer] ${error.message}\n`),
});
const serve = toNodeHandler(handler);
const parsedBody = process.env.PEER_PARSED_BODY === '1';

/** The body as JSON; not JSON, `undefined`, and the SDK then finds the body read already and answers a parse error. */
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

const server = createServer((req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  if (parsedBody && req.method === 'POST') void jsonBody(req).then((body) => serve(req, res, body));
  else void serve(req, res);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stderr.write(`[refund-peer] listening at http://127.0.0.1:${port}/mcp\n`);
});
const stop = () => {
  server.close();
  void handler.close();
  orders.close();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
