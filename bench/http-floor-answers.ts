// What our HTTP server answers a refund_order conversation (ask, then decline), recorded once for the floor
// server (http-floor-server.ts) to answer with the same bytes: the status, the headers that describe the body,
// and the body, of each round, the requests exactly those of the light client (light-client.ts).
import { request } from 'node:http';
import { MODERN_META, REFUND_CALL_HEADERS } from './light-client.ts';

interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RecordedAnswers {
  ask: RecordedAnswer;
  done: RecordedAnswer;
}

// headers of the connection or the moment, not of the answer: node:http writes its own
const NOT_RECORDED = new Set(['connection', 'keep-alive', 'date', 'transfer-encoding', 'content-length']);

function post(url: URL, id: number, params: object): Promise<RecordedAnswer> {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...REFUND_CALL_HEADERS, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string' && !NOT_RECORDED.has(name)) headers[name] = value;
        resolve({ status: res.statusCode ?? 0, headers, body: text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Records what the server at `url` answers the light client's conversation on order `orderId`. */
export async function recordAnswers(url: URL, orderId = 'ord_51'): Promise<RecordedAnswers> {
  const args = { order_id: orderId };
  const ask = await post(url, 1, { name: 'refund_order', arguments: args, _meta: MODERN_META });
  const requestState = (JSON.parse(ask.body) as { result?: { requestState?: unknown } }).result?.requestState;
  if (ask.status !== 200 || typeof requestState !== 'string') throw new Error(`expected the first round to ask: ${ask.status} ${ask.body}`);
  const done = await post(url, 2, {
    name: 'refund_order',
    arguments: args,
    _meta: MODERN_META,
    requestState,
    inputResponses: { confirm: { action: 'decline' } },
  });
  if (done.status !== 200 || !done.body.includes('"kept"'))
    throw new Error(`expected the conversation to end 'kept': ${done.status} ${done.body}`);
  return { ask, done };
}
