// A page in a real browser (Debian's chromium through playwright-core) calling a Roundtrip HTTP server of
// another origin, as a web client in direct mode does: the page at http://localhost:<port> runs a whole
// book_table conversation against http://127.0.0.1:<other port>/mcp with fetch (MCP's headers make every
// call preflighted) and reads the instance header; the same page served from http://127.0.0.2 (not an
// allowed origin) is stopped by its browser, the server having refused it 403.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { browserTestRuns, launchChromium } from '../../cli/test/fixtures/real-chromium.ts';
import { bookTable } from '../../mcp/test/fixtures/booking-definitions.ts';
import { closeAll, startServer, type TestServer } from './support/http-host.ts';

const runs = browserTestRuns('the cross-origin browser test');

/** A page server: an empty page at every path, on `host`, so the page's origin is http://<host>:<port>. */
async function pageServer(host: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>client</title>'),
  );
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { origin: `http://${host}:${(server.address() as AddressInfo).port}`, server };
}

/** The little of a tools/call result the page reads. */
type PageResult = { resultType?: string; requestState?: string; inputRequests: object; content: Array<{ text: string }> };

/** What the page reports of its conversation: each call's status and result, or the error fetch threw. */
type Seen = { ok: true; instance: string | null; texts: string[] } | { ok: false; error: string };

/**
 * Runs in the page (plain fetch, nothing of this module): book_table for Sunday, answering who comes and
 * where they sit, each call carrying the state the last one returned.
 */
const CONVERSATION = async (endpoint: string): Promise<Seen> => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'page', version: '0' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  };
  const answers = [
    undefined,
    { party: { action: 'accept', content: { name: 'Ada', size: 3 } } },
    { seating: { action: 'accept', content: { seating: 'window' } } },
  ];
  const texts: string[] = [];
  let state: string | undefined;
  let instance: string | null = null;
  try {
    for (const [id, inputResponses] of answers.entries()) {
      const params = {
        name: 'book_table',
        arguments: { day: 'Sunday' },
        _meta: meta,
        ...(state && { requestState: state, inputResponses }),
      };
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'book_table',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
      });
      instance = response.headers.get('roundtrip-instance');
      const { result } = (await response.json()) as { result: PageResult };
      state = result.requestState;
      texts.push(result.resultType === 'input_required' ? Object.keys(result.inputRequests).join() : String(result.content[0]?.text));
    }
    return { ok: true, instance, texts };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
};

let mcp: TestServer;
const pages: Server[] = [];
beforeAll(async () => {
  mcp = await startServer({ tools: [bookTable] }, { ROUNDTRIP_INSTANCE: 'browser-1' });
});
afterAll(async () => {
  await closeAll();
  for (const page of pages) page.close();
});

it.skipIf(!runs)('a page of an allowed origin holds a whole conversation; one of another origin is stopped', async () => {
  const allowed = await pageServer('localhost');
  const foreign = await pageServer('127.0.0.2');
  pages.push(allowed.server, foreign.server);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${allowed.origin}/`);
    const endpoint = mcp.url.href;
    expect(await page.evaluate(CONVERSATION, endpoint)).toEqual({
      ok: true,
      instance: 'browser-1',
      texts: ['party', 'seating', 'Booked 3 for Ada on Sunday, window.'],
    });
    await page.goto(`${foreign.origin}/`);
    expect(await page.evaluate(CONVERSATION, endpoint)).toEqual({ ok: false, error: 'TypeError: Failed to fetch' });
    expect(mcp.logs).toContainEqual(
      expect.objectContaining({ event: 'request_refused', message: expect.stringContaining(`Origin "${foreign.origin}"`) }),
    );
  } finally {
    await browser.close();
  }
});
