// The Hono example, driven by the official v2 client pinned to 2026-07-28 through `app.request` (no
// socket: the client's fetch is the app's), through a conversation of several rounds; and the app's
// handler refusing a foreign Host as it would on any runtime.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { generateKey } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { bookTable } from '../../mcp/test/fixtures/booking-definitions.ts';
import { createOrdersApp } from '../examples/hono.ts';
import { accept, type Round } from './support/http-host.ts';

const URL_OF_APP = new URL('https://orders.example.com/mcp');

describe('Roundtrip on Hono (examples/hono.ts)', () => {
  it('serves a multi-round conversation through app.request', async () => {
    const app = createOrdersApp({ tools: [bookTable], keys: [generateKey()], principal: 'ada', allowedHosts: ['orders.example.com'] });
    // what a runtime hands the app: the request as the client sent it, Host header included
    const appFetch: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = new Headers(init?.headers);
      headers.set('host', url.host);
      return app.request(url.href, { ...init, headers });
    };
    const client = new Client(
      { name: 'hono-test', version: '0.0.1' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(URL_OF_APP, { fetch: appFetch }));
    const call = (extra: object = {}) =>
      client.callTool({ name: 'book_table', arguments: { day: 'Sunday' }, ...extra }, { allowInputRequired: true }) as Promise<Round>;
    const party = await call();
    expect(party.inputRequests?.party?.params.message).toBe('Who is the table for on Sunday?');
    const seating = await call({ requestState: party.requestState, inputResponses: { party: accept({ name: 'Ada', size: 3 }) } });
    const done = await call({ requestState: seating.requestState, inputResponses: { seating: accept({ seating: 'window' }) } });
    expect(done.content?.[0]?.text).toBe('Booked 3 for Ada on Sunday, window.');
    await client.close();
  });

  it('refuses a request for another Host with 403', async () => {
    const app = createOrdersApp({ tools: [bookTable], keys: [generateKey()], principal: 'ada' });
    const refused = await app.request('https://orders.example.com/mcp', {
      method: 'POST',
      headers: { host: 'orders.example.com', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(403);
  });
});
