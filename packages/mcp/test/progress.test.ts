// Progress of invoked work: a request that carries a progressToken gets notifications/progress as
// each invoked step starts, counting up with a message, all before the result; on a 2025-era host
// the count goes on across the rounds the server holds the request open for.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatedSteps } from './fixtures/booking-definitions.ts';
import { connectHost, type Host, type HostKind, type HostOptions } from './fixtures/connect-host.ts';

const open: Host[] = [];
const connect = async (options: HostOptions) => {
  const host = await connectHost(options);
  open.push(host);
  return host;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((host) => host.close()));
});

type Progress = { progress: number; message?: string };
// the words of the states doing the work (meta.progress), never their ids
const GATHER = 'Gathering the data…';
const COMPILE = 'Compiling the report…';

/** The id of the host's tools/call request. */
const callId = (host: Host) => (host.sent.find((m) => 'method' in m && m.method === 'tools/call') as { id: number }).id;
/** The progress notifications and the response of request `id`, in the order they arrived. */
const traffic = (received: JSONRPCMessage[], id: number) =>
  received.flatMap((m) => {
    if ('method' in m && m.method === 'notifications/progress') return [`progress ${(m.params as Progress).progress}`];
    if ('id' in m && m.id === id && !('method' in m)) return ['response'];
    return [];
  });

describe.each<HostKind>(['v2 pinned 2026-07-28', 'v2 legacy', 'v1 2025-11-25', 'v1 2025-06-18'])('progress to a %s host', (kind) => {
  it('reports each invoked step as it starts, counting up with a message, before the result', async () => {
    const steps = createGatedSteps();
    const host = await connect({ kind, answer: () => ({ action: 'decline' }), engine: { tools: [steps.tool] } });
    const seen: Progress[] = [];
    // each step waits until its start has reached the host
    const onprogress = (p: Progress) => {
      seen.push(p);
      (p.progress === 1 ? steps.gather : steps.compile).open();
    };
    const result = await host.callTool('gated_steps', {}, { onprogress });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Report ready.' }] });
    expect(seen).toEqual([
      { progress: 1, message: GATHER },
      { progress: 2, message: COMPILE },
    ]);
    expect(traffic(host.received, callId(host))).toEqual(['progress 1', 'progress 2', 'response']);
  });
});

describe.each<HostKind>(['v2 legacy', 'v1 2025-11-25'])('progress to a %s host across the rounds of one request', (kind) => {
  it('keeps counting up after the user answered', async () => {
    const steps = createGatedSteps({ askBetween: true });
    const host = await connect({ kind, answer: () => ({ action: 'accept', content: { go: true } }), engine: { tools: [steps.tool] } });
    const seen: Progress[] = [];
    const onprogress = (p: Progress) => {
      seen.push(p);
      (p.message === GATHER ? steps.gather : steps.compile).open();
    };
    await host.callTool('gated_steps', {}, { onprogress });
    expect(seen).toEqual([
      { progress: 1, message: GATHER },
      { progress: 2, message: COMPILE },
    ]);
    expect(host.elicitations.map((e) => e.message)).toEqual(['Gathered. Compile the report?']);
  });
});
