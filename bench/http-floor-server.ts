// The floor of the HTTP bench (http-floor.bench.ts): a bare node:http server that answers a refund_order
// conversation with the bytes our server answered for it, recorded once (http-floor-answers.ts): it reads each
// POST body whole, parses it, answers the first round's bytes to a call without a requestState and the
// second round's to one with it. What Node itself needs to read and answer the conversation's two requests,
// and nothing of MCP. `node <bundle>` with HTTP_FLOOR_ANSWERS naming the recorded answers' file and PORT (0
// picks one); it writes `[http-floor] listening at <url>` to stderr when ready.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedAnswers } from './http-floor-answers.ts';

const file = process.env.HTTP_FLOOR_ANSWERS;
if (!file) throw new Error('HTTP_FLOOR_ANSWERS must name the file of recorded answers (http-floor-answers.ts)');
const recorded = JSON.parse(readFileSync(file, 'utf8')) as RecordedAnswers;
const answers = {
  ask: { ...recorded.ask, body: Buffer.from(recorded.ask.body, 'utf8') },
  done: { ...recorded.done, body: Buffer.from(recorded.done.body, 'utf8') },
};

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { params?: { requestState?: unknown } };
    const answer = typeof request.params?.requestState === 'string' ? answers.done : answers.ask;
    res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.byteLength });
    res.end(answer.body);
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stderr.write(`[http-floor] listening at http://127.0.0.1:${port}/mcp\n`);
});
process.on('SIGTERM', () => server.close());
