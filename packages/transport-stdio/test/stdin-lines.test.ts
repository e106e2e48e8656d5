// What the stdio server does with lines it cannot serve: not JSON, not UTF-8, not JSON-RPC, over the
// size limit. Each request gets an error reply, the session goes on, stdout carries only JSON-RPC
// lines, and nothing of a refused line is repeated back or logged. The server runs in this process on
// in-memory streams (in-process-server.ts): these are the line reader's cases, not the process's
// (stdio-server.test.ts and stdin-fuzz.test.ts run real processes).
import { generateKey } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { type InProcessServer, startInProcess } from './fixtures/in-process-server.ts';
import { modernMeta } from './fixtures/spawn-raw-server.ts';

const running: InProcessServer[] = [];
const start = async (env: Record<string, string> = {}) => {
  const server = await startInProcess({ ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada', ROUNDTRIP_LEDGER: ':memory:', ...env });
  running.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.end()));
});

type Message = Record<string, unknown> & { error?: { code: number; message: string } };
const reply = async (server: InProcessServer, match: (m: Message) => boolean) => (await server.next(match)) as Message;
const byId = (id: unknown) => (m: Record<string, unknown>) => m.id === id;
const errorWithoutId = (code: number) => (m: Message) => !('id' in m) && m.error?.code === code;
const greet = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { _meta: modernMeta(), name: 'greet', arguments: { greeting: 'Hello' } },
});
/** A tools/call line of about `bytes` bytes, its filler made of `#` (never in a sealed requestState's base64url, where `x` is); `idFirst` puts the id where hand-written clients do, else where the SDK clients do (last). */
function hugeCall(id: number | string, bytes: number, idFirst: boolean, fill = '#'): string {
  const filler = fill.repeat(bytes);
  const params = { _meta: modernMeta(), name: 'greet', arguments: { greeting: filler } };
  return idFirst
    ? `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`
    : `${JSON.stringify({ method: 'tools/call', params, jsonrpc: '2.0', id })}\n`;
}

/** Every stdout line is one JSON-RPC message and none repeats the filler of a refused line. */
function expectOnlyProtocol(server: InProcessServer) {
  for (const line of server.stdoutLines) {
    expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(/####|not json|\\u00ff/.test(line)).toBe(false);
  }
}

describe('lines the stdio server cannot serve', () => {
  it('answers lines that are not JSON, not UTF-8 or not JSON-RPC with an error, ignores bad notifications and responses, and keeps serving', async () => {
    const server = await start();
    server.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } });
    await server.next(byId(1));

    server.write('not json at all {\n');
    expect((await reply(server, errorWithoutId(-32700))).error?.message).toBe(
      'Parse error: the line is not JSON. Send each JSON-RPC message as one line of JSON.',
    );
    server.write(Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x0a]));
    expect((await reply(server, errorWithoutId(-32700))).error?.message).toMatch(/^Parse error: the line is not valid UTF-8\./);
    server.write('[{"jsonrpc":"2.0","id":2,"method":"ping"}]\n');
    expect((await reply(server, errorWithoutId(-32600))).error?.message).toMatch(
      /^Invalid Request: batches \(JSON arrays\) are not part of MCP/,
    );
    server.write('{"jsonrpc":"2.0","id":3,"method":7}\n');
    expect((await reply(server, byId(3))).error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/^Invalid Request: not a JSON-RPC 2.0 message/),
    });
    server.write(`{"jsonrpc":"2.0","id":"${'i'.repeat(500)}","method":7}\n`);
    expect((await reply(server, errorWithoutId(-32600))).error?.message).toMatch(/^Invalid Request/);
    // no reply is due to a notification or a response, however malformed: the request after them is answered next
    server.write('{"jsonrpc":"2.0","method":"notifications/whatever","params":5}\n{"jsonrpc":"2.0","result":7}\n\r\n   \n');
    server.send({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: modernMeta() } });
    expect((await reply(server, byId(4))).result).toMatchObject({ tools: [{ name: 'greet' }] });

    server.send(greet(5));
    expect(((await reply(server, byId(5))).result as { resultType: string }).resultType).toBe('input_required');
    await server.end();
    expect(server.stdoutLines).toHaveLength(8);
    expectOnlyProtocol(server);
    expect(server.stderr()).toContain('warn request_invalid: a line of 17 bytes that is not JSON was refused (-32700)');
    expect(server.stderr()).toContain('warn request_invalid: a malformed JSON-RPC notification of 62 bytes was ignored (it gets no reply)');
    expect(server.stderr()).toContain('warn request_invalid: a malformed JSON-RPC response of 28 bytes was ignored (it gets no reply)');
  });

  it('answers a request line over ROUNDTRIP_MAX_REQUEST_BYTES with -32600 and its id, wherever the id stands, without reading it, and keeps serving', async () => {
    const server = await start({ ROUNDTRIP_MAX_REQUEST_BYTES: '65536' });
    server.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } });
    await server.next(byId(1));

    const sdkOrder = hugeCall(2, 200_000, false);
    server.write(sdkOrder);
    const tooLarge = (await reply(server, byId(2))).error;
    expect(tooLarge).toEqual({
      code: -32600,
      message: `Request too large: ${sdkOrder.length - 1} bytes, over this server's limit of 65536 bytes (ROUNDTRIP_MAX_REQUEST_BYTES). Nothing of it was read. Send less in one request (shorter arguments or answers), or have the server's operator raise ROUNDTRIP_MAX_REQUEST_BYTES.`,
    });
    server.write(hugeCall('call-3', 70_000, true));
    expect((await reply(server, byId('call-3'))).error?.code).toBe(-32600);
    // an "id" inside the params is not the request's id
    server.write(`{"params":{"id":99,"x":"${'#'.repeat(80_000)}"},"jsonrpc":"2.0","method":"tools/call","id":4}\n`);
    expect((await reply(server, byId(4))).error?.code).toBe(-32600);
    // arriving in small pieces changes nothing
    const pieces = hugeCall(5, 100_000, false);
    for (let at = 0; at < pieces.length; at += 7_000) server.write(pieces.slice(at, at + 7_000));
    expect((await reply(server, byId(5))).error?.code).toBe(-32600);
    // no id to be found: answered without one; an oversized notification or response: not answered
    server.write(`{"x":"${'#'.repeat(70_000)}"}\n`);
    expect((await reply(server, errorWithoutId(-32600))).error?.message).toMatch(/^Request too large: 70008 bytes/);
    server.write(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"x":"${'#'.repeat(70_000)}"}}\n`);
    server.write(`{"jsonrpc":"2.0","id":0,"result":{"x":"${'#'.repeat(70_000)}"}}\n`);

    // a line just under the limit is read as usual
    const fits = hugeCall(6, 40_000, true, 'y');
    expect(fits.length).toBeLessThan(65_536);
    server.write(fits);
    expect(((await reply(server, byId(6))).result as { resultType: string }).resultType).toBe('input_required');
    await server.end();
    expect(server.stdoutLines).toHaveLength(7);
    expectOnlyProtocol(server);
    const log = server.stderr();
    expect(log).toContain(
      `warn request_too_large: a request of ${sdkOrder.length - 1} bytes, over this server's limit of 65536 bytes (ROUNDTRIP_MAX_REQUEST_BYTES) was dropped unread; answered request id 2 with -32600`,
    );
    expect(log).toContain('answered request id "call-3" with -32600');
    expect(log).toMatch(/warn request_too_large: a notification of \d+ bytes, .* was dropped unread\n/);
    expect(log).toMatch(
      /warn request_too_large: a response of \d+ bytes, .* dropped unread; the request it answers gets no answer and will time out\n/,
    );
    expect(log).not.toContain('####');
  });

  it('answers a line past the SDK reader’s 10 MiB with an error instead of ending the session', async () => {
    const server = await start();
    server.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } });
    await server.next(byId(1));
    const huge = hugeCall(2, 11 * 1024 * 1024, false);
    server.write(huge);
    expect((await reply(server, byId(2))).error?.message).toMatch(
      new RegExp(`^Request too large: ${huge.length - 1} bytes, over this server's limit of 4194304 bytes`),
    );
    server.send(greet(3));
    expect(((await reply(server, byId(3))).result as { resultType: string }).resultType).toBe('input_required');
    await server.end();
    expectOnlyProtocol(server);
  });

  it('refuses to start with a request limit out of range, naming the variable and the range', async () => {
    // before it reads or writes a line (a bad setting's exit status and stderr: stdio-server.test.ts)
    await expect(start({ ROUNDTRIP_MAX_REQUEST_BYTES: '1000' })).rejects.toThrow(
      'ROUNDTRIP_MAX_REQUEST_BYTES is "1000"; give the size of the largest request line read from stdin, in whole bytes from 65536 to 8388608 (default 4194304).',
    );
  });
});
