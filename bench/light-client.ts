// A light load generator for the HTTP benches: a refund_order conversation as two raw POSTs on one
// keep-alive connection (the 2026-07-28 request a stateless server needs: the protocol version, client info
// and capabilities in `_meta`, the version and method in headers), checked as the official client's
// conversation is (e2e-stats.ts), without its per-request schema parsing, abort signals and fetch. Twenty
// official clients in one process keep about a core busy at twenty conversations in flight, so that on two
// cores the client, not the server, becomes what a conversation waits for; this one costs a fraction of it.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Timed } from './own-gc-pauses.ts';

/** The `_meta` of a stateless 2026-07-28 request that may be asked a form question. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'roundtrip-bench', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
/** The headers of a 2026-07-28 `tools/call` of refund_order over HTTP. */
export const REFUND_CALL_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'refund_order',
};

type Round = { result?: { requestState?: string; structuredContent?: { status?: string } }; error?: unknown };

/** The JSON-RPC answer in a body: plain JSON, or the last `data:` line of an event stream. */
function answerIn(body: string, contentType: string | undefined): Round {
  if (!contentType?.startsWith('text/event-stream')) return JSON.parse(body) as Round;
  const data = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .at(-1);
  if (data === undefined) throw new Error(`an event stream without data: ${body.slice(0, 200)}`);
  return JSON.parse(data.slice(5)) as Round;
}

export interface LightClient {
  /** One refund_order conversation that declines (ends `kept`): when it began and its wall time, ms. */
  conversation(orderId?: string): Promise<Timed>;
  close(): void;
}

/** A client of one keep-alive connection to `url`. */
export function lightClient(url: URL): LightClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let id = 0;
  const post = (params: object) =>
    new Promise<Round>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params });
      const req = request(
        url,
        { method: 'POST', agent, headers: { ...REFUND_CALL_HEADERS, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => {
            try {
              if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
              resolve(answerIn(text, res.headers['content-type']));
            } catch (error) {
              reject(error);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    async conversation(orderId = 'ord_51') {
      const args = { order_id: orderId };
      const start = performance.now();
      const ask = await post({ name: 'refund_order', arguments: args, _meta: MODERN_META });
      const requestState = ask.result?.requestState;
      if (typeof requestState !== 'string') throw new Error(`expected the first round to ask: ${JSON.stringify(ask)}`);
      const done = await post({
        name: 'refund_order',
        arguments: args,
        _meta: MODERN_META,
        requestState,
        inputResponses: { confirm: { action: 'decline' } },
      });
      const ms = performance.now() - start;
      if (done.result?.structuredContent?.status !== 'kept') throw new Error(`expected 'kept': ${JSON.stringify(done)}`);
      return { start, ms };
    },
    close: () => agent.destroy(),
  };
}
