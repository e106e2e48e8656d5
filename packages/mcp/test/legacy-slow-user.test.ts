// A slow user on a 2025-era host (issue 13, item 9). The host's tools/call gives up after its own
// timeout (the official clients: 60 s) while its question may stay on screen; an answer given after
// that must not move money the host already reported as failed. So the server withdraws a question
// before the common 60 s (the answer timeout, 50 s by default), ignores and logs an answer that comes
// after, and keeps a request alive with progress while its question waits, for hosts that reset their
// timeout on progress. The clocks are fake: minutes pass in milliseconds.
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/client';
import { generateKey } from '@roundtrip/engine';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveServerSettings } from '../src/node/index.ts';
import { connectHost, type ElicitParams, type Host, type HostKind, type HostOptions } from './fixtures/connect-host.ts';
import type { ElicitAnswer } from './fixtures/connect-in-memory.ts';
import { makeRefundTool } from './fixtures/refund-definitions.ts';

const open: Host[] = [];
const refunds: string[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  refunds.length = 0;
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((host) => host.close()));
  vi.useRealTimers();
});

const connect = async (options: Omit<HostOptions, 'engine'>) => {
  const host = await connectHost({ ...options, engine: { tools: [makeRefundTool(refunds)] } });
  open.push(host);
  return host;
};

/** The settings a server started with no variables runs with. */
const defaults = () => resolveServerSettings('orders', { ROUNDTRIP_KEY: generateKey() });

/** A user who sees the question at once and answers "yes" when the test says so. */
function slowUser() {
  let release: (answer: ElicitAnswer) => void = () => {};
  const user = {
    shown: [] as ElicitParams[],
    answer: (params: ElicitParams) => {
      user.shown.push(params);
      return new Promise<ElicitAnswer>((resolve) => {
        release = resolve;
      });
    },
    saysYes: () => release({ action: 'accept', content: { confirm: true } }),
  };
  return user;
}

/** Moves the fake clock a millisecond at a time until `done()`; the server's work in between runs as it would. */
async function advanceUntil(done: () => boolean, what: string) {
  for (let ms = 0; !done(); ms++) {
    if (ms > 5_000) throw new Error(`still waiting for ${what} after 5 s of fake time`);
    await vi.advanceTimersByTimeAsync(1);
  }
}

/** A call's outcome without an unhandled rejection: its result, or the error it was rejected with. */
function settle(call: Promise<Record<string, unknown>>) {
  const outcome: { result?: Record<string, unknown>; error?: unknown; settled: boolean } = { settled: false };
  call.then(
    (result) => Object.assign(outcome, { result, settled: true }),
    (error: unknown) => Object.assign(outcome, { error, settled: true }),
  );
  return outcome;
}

const WITHDRAWN = 'The question was not answered within 50 seconds, so this request ended. Try again to start over.';
const elicitationIds = (host: Host) =>
  host.received.filter((m) => 'method' in m && m.method === 'elicitation/create').map((m) => (m as { id: number }).id);
const cancelledIds = (host: Host) =>
  host.received
    .filter((m) => 'method' in m && m.method === 'notifications/cancelled')
    .map((m) => (m as unknown as { params: { requestId: number } }).params.requestId);

describe.each<HostKind>(['v2 legacy', 'v1 2025-11-25'])("a %s host with the official client's default request timeout", (kind) => {
  it('has its question withdrawn before the client gives up, through the default setting', async () => {
    const settings = defaults();
    expect(DEFAULT_REQUEST_TIMEOUT_MSEC).toBe(60_000);
    expect(settings.legacyAnswerTimeoutMs).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MSEC);
    const user = slowUser();
    const host = await connect({ kind, answer: user.answer, legacyAnswerTimeoutMs: settings.legacyAnswerTimeoutMs });

    const call = settle(host.callTool('refund_order', { order_id: 'A-1' }));
    await advanceUntil(() => user.shown.length === 1, 'the question');
    expect(user.shown[0]!.message).toBe('Refund $120 for order A-1?');
    // (the question reached the user within the last fake millisecond of the wait above)
    await vi.advanceTimersByTimeAsync(settings.legacyAnswerTimeoutMs - 2);
    expect(call.settled).toBe(false);
    await advanceUntil(() => call.settled, 'the end of the call');

    expect(call.error).toBeUndefined();
    expect(call.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining(WITHDRAWN) }] });
    expect(cancelledIds(host)).toEqual(elicitationIds(host));
    expect(host.protocolErrors.map((e) => e.message)).toContainEqual(
      "no answer to the question 'confirm' of the tool 'refund_order' within 50000 ms (ROUNDTRIP_ANSWER_TIMEOUT_MS); it was withdrawn and the host's request ended",
    );
    // the call carried no progressToken: nothing to keep alive
    expect(host.received.filter((m) => 'method' in m && m.method === 'notifications/progress')).toEqual([]);
    expect(refunds).toEqual([]);
  });
});

describe('a host that keeps the question open after the server withdrew it (ignoring cancellation)', () => {
  it.each<HostKind>(['v2 legacy', 'v1 2025-11-25'])(
    'on %s: the answer given at 75 s refunds nothing and is logged as late',
    async (kind) => {
      const user = slowUser();
      const host = await connect({ kind, answer: user.answer, ignoresCancellation: true });
      const call = settle(host.callTool('refund_order', { order_id: 'A-1' }));
      await advanceUntil(() => user.shown.length === 1, 'the question');
      await vi.advanceTimersByTimeAsync(50_000);
      await advanceUntil(() => call.settled, 'the end of the call');
      expect(call.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining(WITHDRAWN) }] });

      await vi.advanceTimersByTimeAsync(25_000);
      user.saysYes();
      const late = (e: Error) => e.message.includes('came after it was withdrawn');
      await advanceUntil(() => host.protocolErrors.some(late), 'the late answer');
      await host.roundTrip();
      await vi.advanceTimersByTimeAsync(10_000);

      expect(refunds).toEqual([]);
      expect(host.protocolErrors.find(late)?.message).toBe(
        "the host's answer (accept) to the question 'confirm' of the tool 'refund_order' came after it was withdrawn " +
          '(no answer within 50000 ms, ROUNDTRIP_ANSWER_TIMEOUT_MS), when its request had ended; it was ignored, nothing was done with it',
      );
      // the answer's values are not written to the log
      expect(host.protocolErrors.map((e) => e.message).join('\n')).not.toContain('"confirm"');
      // and the server took no round after the withdrawal
      expect(host.logs.filter((entry) => entry.event === 'run_complete' || entry.event === 'effect_recorded')).toEqual([]);
    },
  );
});

describe('progress while a question waits', () => {
  const waiting = (host: Host) =>
    host.received
      .filter((m) => 'method' in m && m.method === 'notifications/progress')
      .map((m) => (m as unknown as { params: { progress: number; message?: string } }).params);

  it.each<HostKind>(['v2 legacy', 'v1 2025-11-25'])(
    'keeps a %s call that resets its timeout on progress alive past 60 s, until the user answers at 90 s',
    async (kind) => {
      const user = slowUser();
      const host = await connect({ kind, answer: user.answer, legacyAnswerTimeoutMs: 120_000 });
      const seen: number[] = [];
      const call = settle(
        host.callTool('refund_order', { order_id: 'A-1' }, { onprogress: (p) => seen.push(p.progress), resetTimeoutOnProgress: true }),
      );
      await advanceUntil(() => user.shown.length === 1, 'the question');
      await vi.advanceTimersByTimeAsync(90_000);
      expect(call.settled).toBe(false);
      user.saysYes();
      await advanceUntil(() => call.settled, 'the end of the call');

      expect(call.error).toBeUndefined();
      expect(call.result).toMatchObject({ content: [{ type: 'text', text: 'refunded: A-1' }] });
      expect(refunds).toEqual(['A-1']);
      // one every 10 s while the question waited, counting up
      expect(waiting(host).filter((p) => p.message === 'Waiting for your answer')).toHaveLength(9);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(new Set(seen).size).toBe(seen.length);
    },
  );

  it('does not keep alive a call whose client does not reset its timeout: it gives up at 60 s and cancels, nothing is refunded', async () => {
    const user = slowUser();
    const host = await connect({ kind: 'v2 legacy', answer: user.answer, legacyAnswerTimeoutMs: 120_000 });
    const call = settle(host.callTool('refund_order', { order_id: 'A-1' }, { onprogress: () => {} }));
    await advanceUntil(() => user.shown.length === 1, 'the question');
    await vi.advanceTimersByTimeAsync(60_000);
    await advanceUntil(() => call.settled, 'the end of the call');
    expect(call.error).toMatchObject({ message: expect.stringContaining('timed out') });
    // the client's cancellation of its call withdrew the question
    expect(cancelledIds(host)).toEqual(elicitationIds(host));
    user.saysYes();
    await host.roundTrip();
    expect(refunds).toEqual([]);
    expect(waiting(host).length).toBeGreaterThanOrEqual(5);
  });
});
