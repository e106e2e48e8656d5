// Cancelling: the host aborts its call (notifications/cancelled), the invoked work sees its
// AbortSignal fire, and nothing more is sent for that request: no progress, no result. A 2025-era
// request cancelled while the host is asking the user withdraws the question too.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatedSteps } from './fixtures/booking-definitions.ts';
import { connectHost, type Host, type HostKind, type HostOptions } from './fixtures/connect-host.ts';
import { greetingDefinitions } from './fixtures/greeting-definitions.ts';

const open: Host[] = [];
const connect = async (options: HostOptions) => {
  const host = await connectHost(options);
  open.push(host);
  return host;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((host) => host.close()));
});

const callId = (host: Host) => (host.sent.find((m) => 'method' in m && m.method === 'tools/call') as { id: number }).id;
const isProgress = (m: JSONRPCMessage) => 'method' in m && m.method === 'notifications/progress';
const isResponseTo = (id: number) => (m: JSONRPCMessage) => 'id' in m && m.id === id && !('method' in m);

describe.each<HostKind>(['v2 pinned 2026-07-28', 'v2 legacy', 'v1 2025-11-25'])('a %s host that cancels its call', (kind) => {
  it('stops the invoked work through its AbortSignal and gets nothing more for that request', async () => {
    const steps = createGatedSteps();
    const host = await connect({ kind, answer: () => ({ action: 'decline' }), engine: { tools: [steps.tool] } });
    const controller = new AbortController();
    // the host cancels as soon as the first step has started
    const call = host.callTool('gated_steps', {}, { signal: controller.signal, onprogress: () => controller.abort('the user stopped it') });
    await expect(call).rejects.toThrow();
    const id = callId(host);
    expect(host.sent).toContainEqual(
      expect.objectContaining({ method: 'notifications/cancelled', params: expect.objectContaining({ requestId: id }) }),
    );
    expect(await steps.aborted).toBe('gather');
    // the step finishing now must not carry the machine on, and a round trip flushes whatever the server still sends
    steps.gather.open();
    steps.compile.open();
    await host.roundTrip();
    expect(host.received.filter(isProgress)).toHaveLength(1);
    expect(host.received.filter(isResponseTo(id))).toEqual([]);
    expect(host.logs).toContainEqual(expect.objectContaining({ event: 'request_cancelled', target: 'tool gated_steps' }));
  });
});

describe('a 2025-era request cancelled while the host asks the user', () => {
  it('withdraws the question and sends no result', async () => {
    const controller = new AbortController();
    let asked = () => {};
    const asking = new Promise<void>((resolve) => (asked = resolve));
    const host = await connect({
      kind: 'v1 2025-11-25',
      engine: greetingDefinitions,
      answer: () => {
        asked();
        return new Promise<never>(() => {});
      },
    });
    const call = host.callTool('greet', { greeting: 'Hello' }, { signal: controller.signal });
    await asking;
    controller.abort('the user closed the chat');
    await expect(call).rejects.toThrow();
    const question = host.received.find((m) => 'method' in m && m.method === 'elicitation/create') as { id: number };
    // the server withdraws its question once it has seen the cancellation; a round trip flushes it
    await host.roundTrip();
    expect(host.received).toContainEqual(
      expect.objectContaining({ method: 'notifications/cancelled', params: expect.objectContaining({ requestId: question.id }) }),
    );
    expect(host.received.filter(isResponseTo(callId(host)))).toEqual([]);
  });
});
