// Fuzzed lines on the stdio server's stdin (seeded, so a failure replays): random bytes, broken and
// valid JSON of every shape, JSON-RPC messages with wrong fields, oversized lines. Whatever arrives,
// the server writes only JSON-RPC lines to stdout, answers every request it can tell is one, and
// still serves a well-formed request sent after them all. The server runs in this process on in-memory
// streams (in-process-server.ts), the lines arriving in pieces of a pipe's size; an exception it let
// escape would fail the run as an unhandled error.
import { generateKey } from '@roundtrip/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { type InProcessServer, startInProcess } from './fixtures/in-process-server.ts';
import { modernMeta } from './fixtures/spawn-raw-server.ts';

const running: InProcessServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.end()));
});
/** What a pipe hands a reader at most at once on Linux. */
const PIPE_BYTES = 65_536;

/** mulberry32: a small seeded generator, so that the same seed makes the same lines. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}
type Random = ReturnType<typeof random>;

const METHODS = [
  'tools/call',
  'tools/list',
  'prompts/get',
  'resources/read',
  'initialize',
  'server/discover',
  'nope',
  '',
  'notifications/cancelled',
];
const IDS: unknown[] = [1, -7, 0, 'a', '', 1.5, null, true, {}, [], 'x'.repeat(300), 2 ** 60];

function jsonValue(r: Random, depth = 0): unknown {
  switch (r.int(depth > 2 ? 5 : 7)) {
    case 0:
      return null;
    case 1:
      return r.next() < 0.5;
    case 2:
      return r.int(2000) - 1000;
    case 3:
      return String.fromCharCode(...Array.from({ length: r.int(12) }, () => r.int(0x3000)));
    case 4:
      return r.pick(IDS);
    case 5:
      return Array.from({ length: r.int(4) }, () => jsonValue(r, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: r.int(4) }, () => [
          r.pick(['id', 'method', 'params', 'jsonrpc', 'result', 'error', 'k']),
          jsonValue(r, depth + 1),
        ]),
      );
  }
}

/** One fuzzed line, its newline included. */
function fuzzLine(r: Random, n: number): Buffer {
  const message = (): Record<string, unknown> => {
    const m: Record<string, unknown> = {};
    if (r.next() < 0.9) m.jsonrpc = r.next() < 0.85 ? '2.0' : jsonValue(r);
    if (r.next() < 0.7) m.id = r.next() < 0.6 ? n : r.pick(IDS);
    if (r.next() < 0.8) m.method = r.next() < 0.8 ? r.pick(METHODS) : jsonValue(r);
    if (r.next() < 0.7) m.params = r.next() < 0.5 ? { _meta: modernMeta(), name: 'greet', arguments: jsonValue(r) } : jsonValue(r);
    if (r.next() < 0.1) m.result = jsonValue(r);
    return m;
  };
  switch (r.int(6)) {
    case 0: // random bytes (a newline among them splits the line, which is fine)
      return Buffer.concat([Buffer.from(Array.from({ length: r.int(64) }, () => r.int(256))), Buffer.from('\n')]);
    case 1: {
      const text = JSON.stringify(message());
      return Buffer.from(`${text.slice(0, r.int(text.length))}\n`);
    }
    case 2:
      return Buffer.from(`${JSON.stringify(jsonValue(r))}\n`);
    case 3: {
      const filler = 'z'.repeat(70_000 + r.int(30_000));
      return Buffer.from(`${JSON.stringify({ ...message(), params: { filler } })}\n`);
    }
    default:
      return Buffer.from(`${JSON.stringify(message())}\n`);
  }
}

describe('fuzzed stdin', () => {
  for (const seed of [1, 20260728]) {
    it(`keeps stdout to JSON-RPC lines and keeps serving (seed ${seed})`, async () => {
      const server = await startInProcess({
        ROUNDTRIP_KEY: generateKey(),
        ROUNDTRIP_PRINCIPAL: 'ada',
        ROUNDTRIP_LEDGER: ':memory:',
        ROUNDTRIP_MAX_REQUEST_BYTES: '65536',
      });
      running.push(server);
      // half the runs open the connection first, half let the fuzz open it
      if (seed % 2 === 1) {
        server.send({ jsonrpc: '2.0', id: 'open', method: 'server/discover', params: { _meta: modernMeta() } });
        await server.next((m) => m.id === 'open');
      }
      const r = random(seed);
      const lines = Array.from({ length: 300 }, (_, n) => fuzzLine(r, n + 1000));
      const fuzz = Buffer.concat(lines);
      for (let at = 0; at < fuzz.length; at += PIPE_BYTES) server.write(fuzz.subarray(at, at + PIPE_BYTES));
      server.send({ jsonrpc: '2.0', id: 'last', method: 'tools/list', params: { _meta: modernMeta() } });
      const last = await server.next((m) => m.id === 'last');
      expect(last.result ?? last.error).toBeDefined();
      await server.end();

      for (const line of server.stdoutLines) {
        const reply = JSON.parse(line) as Record<string, unknown>;
        expect(reply.jsonrpc).toBe('2.0');
        expect('result' in reply || 'error' in reply || 'method' in reply).toBe(true);
        expect(line.includes('zzzz')).toBe(false);
      }
      // the fuzz did produce errors of each kind the reader answers
      const codes = new Set(server.stdoutLines.map((line) => (JSON.parse(line) as { error?: { code: number } }).error?.code));
      expect([...codes]).toEqual(expect.arrayContaining([-32700, -32600]));
      // nothing of the input repeated, no stack trace (an SDK handler's refusal of a bad notification is one warn line)
      expect(server.stderr()).not.toMatch(/zzzz|\n {4}at /);
    });
  }
});
