// A 2025-06-18 host over stdio, speaking raw JSON-RPC lines: the server reads its answer timeout
// from ROUNDTRIP_ANSWER_TIMEOUT_MS, asks with an elicitation/create that has no `mode`, and ends the
// call with a tool error once the host has not answered in time; an answer after that is only logged.
// The server runs in this process on in-memory stdio (in-process-server.ts): nothing here needs a
// process of its own (stdio-server.test.ts has those).
import { generateKey } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { startInProcess } from './fixtures/in-process-server.ts';

describe('a 2025-06-18 host over stdio that never answers', () => {
  it('is asked without `mode` and gets a tool error after ROUNDTRIP_ANSWER_TIMEOUT_MS', async () => {
    const server = await startInProcess({
      ROUNDTRIP_KEY: generateKey(),
      ROUNDTRIP_LEDGER: ':memory:',
      ROUNDTRIP_ANSWER_TIMEOUT_MS: '50',
    });
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'raw-0618', version: '0' } },
    });
    expect((await server.next((m) => m.id === 1)).result).toMatchObject({ protocolVersion: '2025-06-18' });
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { greeting: 'Hello' } } });
    const asked = await server.next((m) => m.method === 'elicitation/create');
    expect(asked.params).not.toHaveProperty('mode');
    expect(asked.params).toMatchObject({ message: 'Whom should I say "Hello" to?', requestedSchema: { type: 'object' } });
    const ended = await server.next((m) => m.id === 2);
    expect(ended.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('The question was not answered within 50 ms, so this request ended.') }],
    });
    expect(await server.stderrMatching(/ROUNDTRIP_ANSWER_TIMEOUT_MS/)).toMatch(
      /warn protocol: no answer to the question 'who' of the tool 'greet' within 50 ms/,
    );
    // the host's dialog stayed open and the user answers now: ignored, and logged without the answer
    server.send({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { name: 'Ada' } } });
    const late = await server.stderrMatching(/came after it was withdrawn/);
    expect(late).toContain(
      "warn protocol: the host's answer (accept) to the question 'who' of the tool 'greet' came after it was withdrawn (no answer within 50 ms",
    );
    expect(late).not.toContain('Ada');
    await server.end();
  });
});
