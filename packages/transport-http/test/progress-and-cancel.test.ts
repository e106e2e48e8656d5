// Progress and cancellation over real HTTP with the v2 client pinned to 2026-07-28: a request that
// carries a progressToken gets notifications/progress in an SSE stream before its result; a client
// that aborts its request (on this revision, closing the request's stream is the cancellation) fires
// the AbortSignal of the work in flight, and the work finishing after that sends nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { createGatedSteps } from '../../mcp/test/fixtures/booking-definitions.ts';
import { closeAll, connectModern, startServer } from './support/http-host.ts';

afterEach(closeAll);

type Progress = { progress: number; message?: string };

describe('progress over SSE', () => {
  it('streams each invoked step as it starts, then the result', async () => {
    const steps = createGatedSteps();
    const server = await startServer({ tools: [steps.tool] });
    const { client, exchanges } = await connectModern({ urls: [server.url] });
    const seen: Progress[] = [];
    // each step waits until its start has reached the client
    const onprogress = (progress: Progress) => {
      seen.push(progress);
      (progress.progress === 1 ? steps.gather : steps.compile).open();
    };
    const result = await client.callTool({ name: 'gated_steps', arguments: {} }, { onprogress });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Report ready.' }] });
    expect(seen).toEqual([
      { progress: 1, message: 'Gathering the data…' },
      { progress: 2, message: 'Compiling the report…' },
    ]);
    expect(exchanges.find((exchange) => exchange.method === 'tools/call')?.contentType).toBe('text/event-stream');
  });

  it('answers a request without a progressToken with one JSON body', async () => {
    const steps = createGatedSteps();
    steps.gather.open();
    steps.compile.open();
    const server = await startServer({ tools: [steps.tool] });
    const { client, exchanges } = await connectModern({ urls: [server.url] });
    await client.callTool({ name: 'gated_steps', arguments: {} });
    expect(exchanges.find((exchange) => exchange.method === 'tools/call')?.contentType).toBe('application/json');
  });
});

describe('cancellation over HTTP', () => {
  it('a client that aborts its call fires the AbortSignal of the work in flight', async () => {
    const steps = createGatedSteps();
    const server = await startServer({ tools: [steps.tool] });
    const { client } = await connectModern({ urls: [server.url] });
    const controller = new AbortController();
    // the client aborts as soon as the first step has started
    const call = client.callTool(
      { name: 'gated_steps', arguments: {} },
      { signal: controller.signal, onprogress: () => controller.abort('the user stopped it') },
    );
    await expect(call).rejects.toThrow();
    expect(await steps.aborted).toBe('gather');
    steps.gather.open();
    steps.compile.open();
    // the server is still there for the next request, and the cancelled one left a line in its log
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['gated_steps']);
    expect(server.logs).toContainEqual(expect.objectContaining({ event: 'request_cancelled', target: 'tool gated_steps' }));
  });
});
